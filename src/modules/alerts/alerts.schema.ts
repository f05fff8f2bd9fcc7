import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { SearchFilters } from '@/modules/stock/server';
import { websites } from '../tenancy/tenancy.schema';
import { customers } from '../identity/identity.schema';

/** A saved search as the search engine takes it: the text and the filters its page resolves to. */
export type ResolvedFilters = { q?: string; filters: SearchFilters };

/**
 * A signed-in visitor's saved searches (issue 35): a search page of their website with its filters
 * (`path` and the canonical `query`, as the search page writes them), the name shown for it, and
 * when they last looked at it in the garage (what is new since is counted from then). `resolved`
 * keeps what the page resolves to, under the website generation it was resolved at (a search page
 * or the website's settings changing moves that generation, and the sweep resolves it again), and
 * `makes` the makes it names, lower case (none: any make), the sweep's index by make (decision 066).
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: text('path').notNull(),
    query: text('query').notNull().default(''),
    paused: boolean('paused').notNull().default(false),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolved: jsonb('resolved').$type<ResolvedFilters>(),
    /** The website generation `resolved` was made at; null: not resolved yet. */
    resolvedGeneration: text('resolved_generation'),
    makes: text('makes').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    uniqueIndex('saved_searches_customer_search_key').on(t.customerId, t.path, t.query),
    index('saved_searches_website_customer_idx').on(t.websiteId, t.customerId, t.createdAt),
    // A search's savers: the visitors a new-stock match is for (decision 070).
    index('saved_searches_website_search_idx').on(t.websiteId, t.path, t.query),
  ],
);

export const ALERT_CHANNELS = ['email', 'sms'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const ALERT_KINDS = ['price_drop', 'new_stock', 'sold', 'reserved', 'back_in_stock'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * A visitor's consent to alerts on one website (decision 066): the channel and address, the
 * wording they agreed to and when; unsubscribed_at ends it. No row, or an ended one: nothing is
 * found or sent for them.
 */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    customerId: uuid('customer_id')
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ALERT_CHANNELS }).notNull(),
    /** An email address or an E.164 phone number, as the channel says. */
    address: text('address').notNull(),
    /** Price drops sent as they are found instead of in the daily digest. */
    instantPriceDrops: boolean('instant_price_drops').notNull().default(false),
    consentText: text('consent_text').notNull(),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull(),
    /** The website's address the visitor used, for the links in what is sent. */
    origin: text('origin').notNull(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
    /**
     * The website's sweep generation (alert_progress) through which new stock was told: the
     * visitor's searches' matches of later generations are still to come. Set to the generation
     * of the moment alerts are turned on, so a visitor hears only of what comes after.
     */
    newStockThrough: bigint('new_stock_through', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('alert_subscriptions_website_idx').on(t.websiteId).where(sql`unsubscribed_at is null`)],
);

/**
 * What a visitor is to be told about their saved cars (price drops, sold, reserved, back in stock),
 * each found once (unique customer and source) and sent once (delivery_id set in the transaction
 * that queues its message). New stock is found per search, not per visitor (alert_matches); the
 * new-stock items here were written before migration 0026 and are sent as the others.
 */
export const alertItems = pgTable(
  'alert_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /**
     * The customer's website. No foreign key of its own (migration 0023): a website's customers go
     * with it, and their items with them, and the check cost a lookup per item written (a sweep
     * writes tens of thousands: 0.7 s of 4 s for bench:alerts's 36,000 on the server).
     */
    websiteId: integer('website_id').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALERT_KINDS }).notNull(),
    /**
     * The car and the saved search have no foreign keys (migration 0024): a sweep writes tens of
     * thousands of items, and each key's check was a lookup and a row lock per item (most of the
     * new-stock insert's time on PGlite). Statement triggers on cars and saved_searches delete a
     * deleted row's items instead, as the cascades did; the sweep writes items only for rows its
     * statement reads.
     */
    carId: integer('car_id').notNull(),
    savedSearchId: uuid('saved_search_id'),
    oldPrice: integer('old_price'),
    newPrice: integer('new_price'),
    /** What found it: 'price:<change id>', 'new:<saved search>:<car>', 'state:<car>:<state>:<generation>'. */
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveryId: bigint('delivery_id', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('alert_items_customer_source_key').on(t.customerId, t.source),
    index('alert_items_unsent_idx').on(t.customerId).where(sql`delivery_id is null`),
  ],
);

/**
 * New stock found for a search (decision 070): a website's search page (path and canonical query,
 * as saved_searches keeps them) found this new car, in the sweep that moved the website's
 * alert_progress to `generation`. Written once per search and car, however many visitors saved the
 * search; each visitor's digest reads the matches of their searches after their new_stock_through.
 */
export const alertMatches = pgTable(
  'alert_matches',
  {
    /**
     * No foreign key (migration 0026): a sweep writes thousands of matches, and the key's check is
     * a lookup and a row lock for each; a statement trigger on websites deletes a deleted website's
     * matches instead, as one on cars does a deleted car's.
     */
    websiteId: integer('website_id').notNull(),
    path: text('path').notNull(),
    query: text('query').notNull(),
    carId: integer('car_id').notNull(),
    generation: bigint('generation', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.path, t.query, t.carId] })],
);

/**
 * What the alerts sent told of, for the dealer's figures: the number of lines of each kind in the
 * messages a website's visitors were sent at one moment (one row per queueing transaction, website
 * and kind).
 */
export const alertCounts = pgTable(
  'alert_counts',
  {
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind', { enum: ALERT_KINDS }).notNull(),
    items: integer('items').notNull(),
  },
  (t) => [index('alert_counts_website_idx').on(t.websiteId, t.sentAt)],
);

/** How far the sweep has read each website's recorded stock changes. */
export const alertProgress = pgTable('alert_progress', {
  websiteId: integer('website_id')
    .primaryKey()
    .references(() => websites.id, { onDelete: 'cascade' }),
  generation: bigint('generation', { mode: 'number' }).notNull(),
  sweptAt: timestamp('swept_at', { withTimezone: true }).notNull(),
});
