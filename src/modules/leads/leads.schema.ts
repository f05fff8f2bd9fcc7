import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { dealerships, websites } from '../tenancy/tenancy.schema';

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
    /** Why the spam checks marked it (honeypot, fill-time, links, disposable-email, repeated-message). */
    spamReasons: jsonb('spam_reasons').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the secret the first step answered; later steps (PUT) must present it (leads.tokens.ts). */
    editTokenHash: text('edit_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('leads_website_created_idx').on(t.websiteId, t.createdAt),
    index('leads_dealership_created_idx').on(t.dealershipId, t.createdAt),
    uniqueIndex('leads_website_idempotency_idx').on(t.websiteId, t.idempotencyKey),
    // The repeated-message spam check looks leads up by sender.
    index('leads_website_email_idx').on(t.websiteId, t.email),
    index('leads_website_phone_idx').on(t.websiteId, t.phone),
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
    /** SHA-256 of the secret POST answered; PUT and /api/miscellaneous must present it (leads.tokens.ts). */
    editTokenHash: text('edit_token_hash'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('valuations_website_idx').on(t.websiteId, t.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Files sent with POST /api/leads/with-files: kept in the database, never served from the site. */
export const leadFiles = pgTable(
  'lead_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    leadId: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_files_lead_idx').on(t.leadId)],
);

/** Per dealership: where its leads are POSTed as signed JSON (HMAC-SHA256 of the body with secret). */
export const leadWebhooks = pgTable(
  'lead_webhooks',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    dealershipId: integer('dealership_id')
      .notNull()
      .references(() => dealerships.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lead_webhooks_dealership_idx').on(t.dealershipId)],
);

/** 'visitor_email': the visitor's own confirmation (a reservation, src/modules/checkout), sent without ADF. */
/** 'visitor_alert_email' / 'visitor_alert_sms': a visitor's alerts on saved cars and searches (src/modules/alerts), rows without a lead. */
export const DELIVERY_CHANNELS = ['email', 'webhook', 'alert', 'partial_email', 'partial_webhook', 'sms', 'visitor_email', 'visitor_alert_email', 'visitor_alert_sms'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export type OutboxPayload =
  /** For an email without a lead (a visitor's alert): messageKey, its Message-ID's local part, and extra headers (List-Unsubscribe). */
  | { kind: 'email'; to: string; subject: string; text: string; adf: string; attachmentIds: string[]; messageKey?: string; headers?: Record<string, string> }
  | { kind: 'webhook'; url: string; body: string }
  /** A phone code (identity.codes.ts): sent at once, recorded here, never retried; a visitor's alert by SMS: delivered by the worker. */
  | { kind: 'sms'; to: string; from: string; body: string };

/**
 * Transactional outbox: one row per lead and channel, written in the lead's transaction, claimed by
 * workers with FOR UPDATE SKIP LOCKED, retried with exponential back-off until delivered.
 */
export const leadDeliveries = pgTable(
  'lead_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    /** Null for what concerns no lead (a phone code). */
    leadId: uuid('lead_id').references(() => leads.id, { onDelete: 'cascade' }),
    /** 'alert': the fallback address told that another channel failed for good (leads.alerts.ts);
     *  'partial_email' / 'partial_webhook': a lead left incomplete, delivered as partial (leads.partial.ts). */
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    /** pending → delivered, or failed after the last attempt. */
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    payload: jsonb('payload').$type<OutboxPayload>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A claim: another worker skips the row until then (a crashed worker's claim lapses). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('lead_deliveries_lead_channel_key').on(t.leadId, t.channel),
    index('lead_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('lead_deliveries_website_idx').on(t.websiteId, t.createdAt),
  ],
);

/** Audit log: one row per delivery attempt. */
export const leadDeliveryAttempts = pgTable(
  'lead_delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => leadDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    worker: text('worker').notNull(),
    ok: boolean('ok').notNull(),
    detail: text('detail'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_delivery_attempts_delivery_idx').on(t.deliveryId)],
);

/** Lead limit counters (key, points, window end), counted in SQL by leads.limits.ts and shared by every app process. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
