import 'server-only';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { websites } from '../tenancy/tenancy.schema';

/**
 * A finance application handed to a finance partner (issue 15): the visitor's details and quote,
 * the partner that took it and where it sent the visitor. One per idempotency key per website, so
 * a resubmitted form hands over once.
 */
export const financeApplications = pgTable(
  'finance_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    dealershipSlug: text('dealership_slug'),
    carId: integer('car_id'),
    leadId: uuid('lead_id'),
    /** 'local', 'youx' or 'carclarity'. */
    partner: text('partner').notNull(),
    /** E.164, verified by a phone code within 15 minutes of the hand-over. */
    phone: text('phone').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    quote: jsonb('quote').$type<Record<string, unknown> | null>(),
    /** 'created' (the partner has it) or 'failed' (it refused or did not answer). */
    status: text('status').notNull(),
    partnerReference: text('partner_reference'),
    redirectUrl: text('redirect_url'),
    error: text('error'),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('finance_applications_website_idx').on(t.websiteId, t.createdAt),
    uniqueIndex('finance_applications_idempotency_idx').on(t.websiteId, t.idempotencyKey),
  ],
);
