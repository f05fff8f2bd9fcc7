import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { websites } from '../tenancy/tenancy.schema';

/** SPEC §3 Analytics event; category is the event id of SPEC §9. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    category: integer('category').notNull(),
    url: text('url'),
    leadId: text('lead_id'),
    anonId: text('anon_id'),
    sessionId: text('session_id'),
    errorMessage: text('error_message'),
    eventProperties: jsonb('event_properties').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('analytics_events_website_created_idx').on(t.websiteId, t.createdAt)],
);
