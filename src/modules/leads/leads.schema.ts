import 'server-only';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { websites } from '../tenancy/tenancy.schema';

/** SPEC §3 Lead payload, stored as received plus the fields the platform adds. */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    dealershipId: integer('dealership_id'),
    locationId: integer('location_id'),
    carId: integer('car_id'),
    category: text('category').notNull(),
    subcategory: text('subcategory'),
    name: text('name').notNull().default(''),
    firstName: text('first_name'),
    lastName: text('last_name'),
    middleName: text('middle_name'),
    email: text('email'),
    phone: text('phone'),
    postcode: text('postcode'),
    message: text('message'),
    source: text('source').notNull().default('Website'),
    url: text('url'),
    userAgent: text('user_agent'),
    visitedPages: jsonb('visited_pages').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    linkedQueryParams: jsonb('linked_query_params').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    hasFiles: boolean('has_files').notNull().default(false),
    /** 'Incomplete' while a multi-step form is part way, 'Complete' after its last step. */
    leadStatus: text('lead_status').notNull().default('Complete'),
    formCompleted: boolean('form_completed').notNull().default(true),
    skippedSteps: jsonb('skipped_steps').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    stepNumber: integer('step_number'),
    /** Every other field the form sent (SPEC §3 lead form defaults, enquiry payload). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    spam: boolean('spam').notNull().default(false),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('leads_website_created_idx').on(t.websiteId, t.createdAt),
    index('leads_dealership_created_idx').on(t.dealershipId, t.createdAt),
    uniqueIndex('leads_website_idempotency_idx').on(t.websiteId, t.idempotencyKey),
  ],
);

/** Trade-in and sell-my-car valuations (SPEC §7 /api/valuations). */
export const valuations = pgTable(
  'valuations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id').references(() => leads.id, { onDelete: 'set null' }),
    carId: integer('car_id'),
    rego: text('rego'),
    state: text('state'),
    vin: text('vin'),
    make: text('make'),
    model: text('model'),
    year: integer('year'),
    km: integer('km'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('valuations_website_idx').on(t.websiteId, t.createdAt)],
);
