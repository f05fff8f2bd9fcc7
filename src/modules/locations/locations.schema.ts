import 'server-only';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
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
import { dealerships, websites } from '../tenancy/tenancy.schema';
import type { LocationSettings, OpeningHoursEntry, SocialLinks } from './locations.types';

export const locations = pgTable(
  'locations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    dealershipId: integer('dealership_id').notNull(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    position: integer('position').notNull().default(0),
    primary: boolean('primary').notNull().default(false),
    /** sales, service, parts or service-and-parts; empty means sales (SPEC §3). */
    locationType: text('location_type').notNull().default(''),
    locationSubtypes: text('location_subtypes').array().notNull().default(sql`'{}'::text[]`),
    manufacturers: text('manufacturers').array().notNull().default(sql`'{}'::text[]`),
    visible: boolean('visible').notNull().default(true),
    dealerLicenseNumber: text('dealer_license_number'),
    street: text('street').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    postcode: text('postcode').notNull().default(''),
    country: text('country', { enum: ['AU', 'NZ', 'US'] }).notNull().default('AU'),
    lat: doublePrecision('lat'),
    long: doublePrecision('long'),
    placeId: text('place_id'),
    placeUrl: text('place_url'),
    island: text('island'),
    /** IANA zone the hours are kept in, e.g. Australia/Sydney. */
    timeZone: text('time_zone').notNull().default('Australia/Sydney'),
    phone: text('phone').notNull().default(''),
    landlinePhone: text('landline_phone'),
    mobile: text('mobile'),
    /** Where this location's leads are delivered. */
    leadEmail: text('lead_email'),
    social: jsonb('social').$type<SocialLinks>().notNull().default(sql`'{}'::jsonb`),
    openingHours: jsonb('opening_hours').$type<OpeningHoursEntry[]>().notNull().default(sql`'[]'::jsonb`),
    settings: jsonb('settings').$type<LocationSettings>().notNull().default(sql`'{}'::jsonb`),
    reviewsCount: integer('reviews_count').notNull().default(0),
    reviewsAverageRating: doublePrecision('reviews_average_rating'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('locations_website_id_id_key').on(t.websiteId, t.id),
    uniqueIndex('locations_website_slug_idx').on(t.websiteId, t.slug),
    foreignKey({
      name: 'locations_dealership_fk',
      columns: [t.websiteId, t.dealershipId],
      foreignColumns: [dealerships.websiteId, dealerships.id],
    }).onDelete('cascade'),
  ],
);

/** Holiday hours: overrides a location's weekly hours on one date. */
export const specialHours = pgTable(
  'special_hours',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    locationId: integer('location_id').notNull(),
    date: date('date').notNull(),
    status: text('status', { enum: ['Open', 'Closed'] }).notNull(),
    /** 'HH:MM' local time, null when closed. */
    startHour: text('start_hour'),
    endHour: text('end_hour'),
    name: text('name'),
  },
  (t) => [
    foreignKey({
      name: 'special_hours_location_fk',
      columns: [t.websiteId, t.locationId],
      foreignColumns: [locations.websiteId, locations.id],
    }).onDelete('cascade'),
    uniqueIndex('special_hours_location_date_idx').on(t.locationId, t.date),
    index('special_hours_website_date_idx').on(t.websiteId, t.date),
  ],
);

/** Booked service or appointment slots; availability is opening hours minus these. */
export const bookings = pgTable(
  'bookings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    dealershipId: integer('dealership_id').notNull(),
    locationId: integer('location_id').notNull(),
    kind: text('kind', { enum: ['service', 'appointment'] }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    leadId: text('lead_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'bookings_location_fk',
      columns: [t.websiteId, t.locationId],
      foreignColumns: [locations.websiteId, locations.id],
    }).onDelete('cascade'),
    index('bookings_dealership_kind_idx').on(t.dealershipId, t.kind, t.startsAt),
  ],
);
