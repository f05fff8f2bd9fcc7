import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';
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

/**
 * Real-visitor web vitals (decision 058): one row per measured page view, its metrics as the
 * browser reported them (times in ms, CLS a score; null where not measured). `day` is the
 * website's local date when the first report arrived. A page view that reports again (the tab
 * hidden twice) updates its row, keyed by the browser's view id.
 */
export const webVitals = pgTable(
  'web_vitals',
  {
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    viewId: text('view_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    pageType: text('page_type').notNull(),
    lcp: real('lcp'),
    inp: real('inp'),
    cls: real('cls'),
    fcp: real('fcp'),
    ttfb: real('ttfb'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.viewId] }), index('web_vitals_website_day_idx').on(t.websiteId, t.day, t.pageType)],
);
