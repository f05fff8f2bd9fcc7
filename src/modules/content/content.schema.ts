import 'server-only';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { websites } from '../tenancy/tenancy.schema';

export const CONTENT_KINDS = ['page', 'faq', 'blog', 'career'] as const;

/** Dealer content kept as Markdown; rendered sanitised, so dealer HTML never runs. */
export const contentPages = pgTable(
  'content_pages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    kind: text('kind', { enum: CONTENT_KINDS }).notNull().default('page'),
    title: text('title').notNull(),
    metaDescription: text('meta_description').notNull().default(''),
    body: text('body').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('content_pages_website_slug_idx').on(t.websiteId, t.slug),
    index('content_pages_website_kind_idx').on(t.websiteId, t.kind, t.publishedAt),
  ],
);
