import 'server-only';
import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { websites } from '../tenancy/tenancy.schema';
import { cars } from '../stock/stock.schema';

/** A visitor who signed in with a phone code (SPEC §6). One per phone per website. */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    /** E.164. */
    phone: text('phone').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    dealershipSlug: text('dealership_slug'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('customers_website_id_id_key').on(t.websiteId, t.id),
    uniqueIndex('customers_website_phone_idx').on(t.websiteId, t.phone),
  ],
);

/** SPEC §3 verification record: verification_type 'sms' when a code is sent, 'verify' when confirmed. */
export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id'),
    dealershipSlug: text('dealership_slug'),
    phone: text('phone').notNull(),
    verificationType: text('verification_type', { enum: ['sms', 'verify'] }).notNull(),
    codeHash: text('code_hash'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** A code is used once: set when it was checked right. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** SPEC §3 contact sign-in metadata: first_name, last_name, email, website, dealership_slug. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('verifications_website_phone_idx').on(t.websiteId, t.phone, t.createdAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    websiteId: integer('website_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    /** One sign-in: every refresh token it is given carries the same family (identity.sessions.ts). */
    familyId: uuid('family_id').notNull().defaultRandom(),
    refreshTokenHash: text('refresh_token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when this refresh token was exchanged for the next; presenting it again ends the family. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_family_idx').on(t.familyId),
    foreignKey({
      name: 'sessions_customer_fk',
      columns: [t.websiteId, t.customerId],
      foreignColumns: [customers.websiteId, customers.id],
    }).onDelete('cascade'),
  ],
);

/** Garage / watchlist entry (SPEC §3 Favourite record is derived from the car). */
export const favourites = pgTable(
  'favourites',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    carId: integer('car_id').notNull(),
    /** The car's price when it was saved, so the garage can say the price dropped since. */
    savedPrice: integer('saved_price'),
    /** The car's state ('available', 'reserved', 'sold') the visitor was last told of by an alert; null: as saved (decision 066). */
    notifiedState: text('notified_state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'favourites_customer_fk',
      columns: [t.websiteId, t.customerId],
      foreignColumns: [customers.websiteId, customers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'favourites_car_fk',
      columns: [t.websiteId, t.carId],
      foreignColumns: [cars.websiteId, cars.id],
    }).onDelete('cascade'),
    uniqueIndex('favourites_customer_car_idx').on(t.customerId, t.carId),
    // A car's savers: the alerts sweep's price drops and state changes, and the car key's cascade.
    index('favourites_website_car_idx').on(t.websiteId, t.carId),
  ],
);

/** Secrets the platform makes for itself once and every process shares (the session signing key). */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
