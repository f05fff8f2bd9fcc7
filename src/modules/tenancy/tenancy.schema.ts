import 'server-only';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { WebsiteConfigInput, WebsiteSecrets } from './tenancy.config';

export const manufacturers = pgTable('manufacturers', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  /** Lowercase key, compared in lowercase (SPEC §3). */
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** How the name is shown, e.g. skoda → Škoda. */
  displayName: text('display_name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const websites = pgTable('websites', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  template: text('template', { enum: ['default', 'override'] }).notNull().default('default'),
  phone: text('phone').notNull().default(''),
  logoUrl: text('logo_url'),
  url: text('url').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  overrideCity: text('override_city'),
  dealershipGroup: text('dealership_group'),
  manufacturerId: integer('manufacturer_id').references(() => manufacturers.id),
  /** As stored (defaults omitted); parsed by websiteConfigSchema on every read, validated on every write. */
  config: jsonb('config').$type<WebsiteConfigInput>().notNull(),
  /** Provider tokens; never sent to a browser. */
  secrets: jsonb('secrets').$type<WebsiteSecrets>().notNull().default(sql`'{}'::jsonb`),
  /** Bumped in the same transaction as any stock change; keys the stock lookup caches. */
  stockVersion: integer('stock_version').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Bumped by triggers (migration 0013) in the same transaction as every change to what a website's
 * pages show apart from its cars (those bump car_generations): the website row, its domains,
 * dealerships, navigation, search pages, locations, special hours and content. Keys the page cache.
 */
export const websiteGenerations = pgTable('website_generations', {
  websiteId: integer('website_id')
    .primaryKey()
    .references(() => websites.id, { onDelete: 'cascade' }),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
});

export const websiteDomains = pgTable(
  'website_domains',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    /** Lowercase host without port. */
    host: text('host').notNull(),
    primary: boolean('primary').notNull().default(false),
  },
  (t) => [uniqueIndex('website_domains_host_idx').on(t.host), index('website_domains_website_idx').on(t.websiteId)],
);

export const dealerships = pgTable(
  'dealerships',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    group: text('group'),
    manufacturerId: integer('manufacturer_id').references(() => manufacturers.id),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    whatsappNumber: text('whatsapp_number'),
    dealerLicenseNumber: text('dealer_license_number'),
    stripePublishableKey: text('stripe_publishable_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('dealerships_website_id_id_key').on(t.websiteId, t.id), index('dealerships_website_idx').on(t.websiteId)],
);

export const navigationItems = pgTable(
  'navigation_items',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    menu: text('menu', { enum: ['header', 'footer'] }).notNull(),
    parentId: integer('parent_id'),
    position: integer('position').notNull().default(0),
    name: text('name').notNull(),
    url: text('url').notNull().default(''),
  },
  (t) => [
    unique('navigation_items_website_id_id_key').on(t.websiteId, t.id),
    foreignKey({
      name: 'navigation_items_parent_fk',
      columns: [t.websiteId, t.parentId],
      foreignColumns: [t.websiteId, t.id],
    }).onDelete('cascade'),
    index('navigation_items_website_menu_idx').on(t.websiteId, t.menu, t.position),
  ],
);

/** Dashboard API credentials: one dealership each, the secret stored as a scrypt hash. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    dealershipId: integer('dealership_id').notNull(),
    keyId: text('key_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: 'api_keys_dealership_fk',
      columns: [t.websiteId, t.dealershipId],
      foreignColumns: [dealerships.websiteId, dealerships.id],
    }).onDelete('cascade'),
  ],
);

/** Search landing pages per website (SPEC §7 search_slugs and search_page_templates). */
export const searchPages = pgTable(
  'search_pages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    template: text('template').notNull().default('default'),
    title: text('title').notNull(),
    heading: text('heading').notNull(),
    description: text('description').notNull().default(''),
    /** Filters preset by the page, e.g. {car_type: ['used']}. */
    filters: jsonb('filters').$type<Record<string, string[]>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [uniqueIndex('search_pages_website_slug_idx').on(t.websiteId, t.slug)],
);

/**
 * Bumped by triggers on cars (migration 0002) in the same transaction as any change to a
 * website's cars, including writes that bypass the commands.
 */
export const carGenerations = pgTable('car_generations', {
  websiteId: integer('website_id')
    .primaryKey()
    .references(() => websites.id, { onDelete: 'cascade' }),
  generation: bigint('generation', { mode: 'number' }).notNull(),
});
