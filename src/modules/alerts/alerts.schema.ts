import 'server-only';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { websites } from '../tenancy/tenancy.schema';
import { customers } from '../identity/identity.schema';

/**
 * A signed-in visitor's saved searches (issue 35): a search page of their website with its filters
 * (`path` and the canonical `query`, as the search page writes them), the name shown for it, and
 * when they last looked at it in the garage (what is new since is counted from then).
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
  },
  (t) => [
    uniqueIndex('saved_searches_customer_search_key').on(t.customerId, t.path, t.query),
    index('saved_searches_website_customer_idx').on(t.websiteId, t.customerId, t.createdAt),
  ],
);
