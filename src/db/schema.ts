// Every table, for the Drizzle client and drizzle-kit. Each domain owns its own schema file.
export * from '../modules/tenancy/tenancy.schema';
export * from '../modules/locations/locations.schema';
export * from '../modules/stock/stock.schema';
export * from '../modules/leads/leads.schema';
export * from '../modules/identity/identity.schema';
export * from '../modules/widgets/widgets.schema';
export * from '../modules/content/content.schema';
export * from '../modules/finance/finance.schema';
export * from '../modules/checkout/checkout.schema';
export * from '../modules/alerts/alerts.schema';
