/**
 * The leads domain's public face for server code (other domains, the screens and the routes):
 * queries, commands, and the lead API's schemas made from the form rules (form-rules/). Browser
 * code imports index.ts.
 */

export { buildAdf } from './leads.adf';
export { leadJson } from './leads.commands';
export { normaliseCategory, successPath, successSlug } from './form-rules/flow';
export { wakeDeliveryWorker } from './leads.delivery';
export { getLeadCar, getLeadCarById, getLeadSite, listLeadLocations } from './leads.form-context';
export { editTokenMatches, hashEditToken, newEditToken } from './leads.tokens';
export { emailSchema, leadIdSchema, leadRequestSchema, miscellaneousRequestSchema, nameSchema, optional, postcodeSchema, userDetailsSchema, valuationRequestSchema } from './form-rules/schemas';
