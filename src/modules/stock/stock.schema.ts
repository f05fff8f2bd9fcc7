import 'server-only';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { dealerships, websites } from '../tenancy/tenancy.schema';
import { locations } from '../locations/locations.schema';
import { ACCENTED_LETTERS, UNACCENTED_LETTERS } from './search/search.letters';

export const CAR_TYPES = ['new', 'used', 'demo'] as const;
export const CAR_STATUSES = ['in_stock', 'coming_soon', 'sold'] as const;
export const ITEM_TYPES = ['car', 'truck', 'motorcycle', 'caravan', 'campervan'] as const;

/**
 * One vehicle (SPEC §3 Car). Money is whole currency units of the website's currency; the
 * odometer is kept in kilometres and shown in miles where the website's unit is miles.
 */
export const cars = pgTable(
  'cars',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    dealershipId: integer('dealership_id').notNull(),
    locationId: integer('location_id'),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    make: text('make').notNull(),
    model: text('model').notNull(),
    badge: text('badge'),
    series: text('series'),
    year: integer('year').notNull(),
    km: integer('km').notNull().default(0),
    price: integer('price').notNull().default(0),
    priceType: text('price_type').notNull().default(''),
    beforePrice: integer('before_price'),
    /** Weekly subscription price. */
    subscriptionPrice: integer('subscription_price'),
    carType: text('car_type', { enum: CAR_TYPES }).notNull(),
    status: text('status', { enum: CAR_STATUSES }).notNull().default('in_stock'),
    itemType: text('item_type', { enum: ITEM_TYPES }).notNull().default('car'),
    stocknum: text('stocknum').notNull().default(''),
    vin: text('vin'),
    nvic: text('nvic'),
    certified: boolean('certified').notNull().default(false),
    reserved: boolean('reserved').notNull().default(false),
    soldDate: timestamp('sold_date', { withTimezone: true }),
    /** null means not stated; only an explicit false blocks reservation (SPEC §5). */
    reservable: boolean('reservable'),
    preorder: boolean('preorder').notNull().default(false),
    showOnDealerWebsite: boolean('show_on_dealer_website').notNull().default(true),
    photosCount: integer('photos_count').notNull().default(0),
    tag: text('tag'),
    customRank: integer('custom_rank').notNull().default(0),
    colour: text('colour'),
    seats: integer('seats'),
    doors: integer('doors'),
    engine: text('engine'),
    simpleFuel: text('simple_fuel'),
    simpleBody: text('simple_body'),
    simpleDrive: text('simple_drive'),
    simpleTransmission: text('simple_transmission'),
    description: text('description').notNull().default(''),
    categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
    features: text('features').array().notNull().default(sql`'{}'::text[]`),
    primaryImageUrl: text('primary_image_url'),
    /** History report file URL ('file' in SPEC §3). */
    historyReportUrl: text('history_report_url'),
    carsalesSellerIdentifier: text('carsales_seller_identifier'),
    city: text('city'),
    state: text('state'),
    autograbAverageMarketPrice: integer('autograb_average_market_price'),
    autograbStateAverageMarketPrice: integer('autograb_state_average_market_price'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What free-text search reads: make, model (also without hyphens, so cx5 finds CX-5), badge,
     * series, colour, stock number and VIN, lowercase with common accents folded (Škoda → skoda).
     * translate() before lower(): lower() leaves non-ASCII letters alone in the C locale.
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(translate(make || ' ' || model || ' ' || replace(model, '-', '') || ' ' || coalesce(badge, '') || ' ' || coalesce(series, '') || ' ' || coalesce(colour, '') || ' ' || stocknum || ' ' || coalesce(vin, ''), ${sql.raw(`'${ACCENTED_LETTERS}'`)}, ${sql.raw(`'${UNACCENTED_LETTERS}'`)}))`,
      ),
  },
  (t) => [
    unique('cars_website_id_id_key').on(t.websiteId, t.id),
    uniqueIndex('cars_website_slug_idx').on(t.websiteId, t.slug),
    foreignKey({
      name: 'cars_dealership_fk',
      columns: [t.websiteId, t.dealershipId],
      foreignColumns: [dealerships.websiteId, dealerships.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'cars_location_fk',
      columns: [t.websiteId, t.locationId],
      foreignColumns: [locations.websiteId, locations.id],
    }),
    index('cars_website_status_idx').on(t.websiteId, t.status, t.showOnDealerWebsite),
    index('cars_website_make_model_idx').on(t.websiteId, t.make, t.model),
    index('cars_website_price_idx').on(t.websiteId, t.price),
    index('cars_website_km_idx').on(t.websiteId, t.km),
    index('cars_website_year_idx').on(t.websiteId, t.year),
    index('cars_website_created_idx').on(t.websiteId, t.createdAt),
    index('cars_website_rank_idx').on(t.websiteId, t.customRank),
    index('cars_website_type_idx').on(t.websiteId, t.carType),
    index('cars_dealership_idx').on(t.dealershipId),
    index('cars_website_stocknum_idx').on(t.websiteId, t.stocknum),
    // Sort orders across many websites (a website's own stock sorts by the website_id indexes).
    index('cars_price_idx').on(t.price),
    index('cars_km_idx').on(t.km),
    index('cars_created_idx').on(t.createdAt),
    index('cars_rank_idx').on(t.customRank, t.createdAt),
    index('cars_subscription_price_idx').on(t.subscriptionPrice),
    index('cars_subscription_price_desc_idx').on(t.subscriptionPrice.desc().nullsLast()),
    index('cars_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // 'Lowest price' across websites in index order: priced cars first (search orderBy).
    index('cars_listed_price_idx').on(sql`(${t.price} <= 10)`, t.price),
    // Recently sold cars are listed for a few days: found without reading every sold car ever.
    index('cars_sold_idx').on(t.websiteId, t.soldDate).where(sql`${t.status} = 'sold'`),
  ],
);

export const carImages = pgTable(
  'car_images',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    carId: integer('car_id').notNull(),
    position: integer('position').notNull().default(0),
    url: text('url').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    width: integer('width'),
    height: integer('height'),
    alt: text('alt').notNull().default(''),
  },
  (t) => [
    foreignKey({
      name: 'car_images_car_fk',
      columns: [t.websiteId, t.carId],
      foreignColumns: [cars.websiteId, cars.id],
    }).onDelete('cascade'),
    index('car_images_car_idx').on(t.carId, t.position),
  ],
);

/** SPEC §3 payment_processors on a car: what reserve and buy-online charge through. */
export const carPaymentProcessors = pgTable(
  'car_payment_processors',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    websiteId: integer('website_id').notNull(),
    carId: integer('car_id').notNull(),
    authorizationType: text('authorization_type').notNull(),
    /** Publishable key only; a secret key never lives here. */
    authorizationKey: text('authorization_key'),
    depositAmount: integer('deposit_amount').notNull().default(0),
  },
  (t) => [
    foreignKey({
      name: 'car_payment_processors_car_fk',
      columns: [t.websiteId, t.carId],
      foreignColumns: [cars.websiteId, cars.id],
    }).onDelete('cascade'),
    index('car_payment_processors_car_idx').on(t.carId),
  ],
);

/**
 * The cars each generation of a website touched (migration 0007, filled by a statement trigger
 * after the generation's bump), so the stock index (decision 020) reads again only the cars that
 * changed since the generation it holds. The last 20 generations of each website are kept; a copy
 * further behind is loaded whole.
 */
export const carChanges = pgTable(
  'car_changes',
  {
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    generation: bigint('generation', { mode: 'number' }).notNull(),
    carId: integer('car_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.generation, t.carId] })],
);

/**
 * Every change of a car's price (migration 0019: a statement trigger on cars, so every path that
 * changes a price records it: the Dashboard API, imports, scripts). The car page shows them as the
 * car's price history (issue 35), and price-drop alerts read them. Kept while the car is.
 */
export const carPriceChanges = pgTable(
  'car_price_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    websiteId: integer('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    carId: integer('car_id')
      .notNull()
      .references(() => cars.id, { onDelete: 'cascade' }),
    oldPrice: integer('old_price').notNull(),
    newPrice: integer('new_price').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('car_price_changes_car_idx').on(t.websiteId, t.carId, t.changedAt)],
);

/**
 * The words of every car's search_text that typo-tolerant search compares a misspelt word with:
 * letters and digits, 3 or more characters, no run of 3 digits (so no stock numbers or VINs).
 * Filled by a trigger on cars (migration 0006); never emptied, as a word no car has any more only
 * finds nothing. Few thousand words, where comparing with each car's text meant 100,000 rows.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
  },
  (t) => [index('search_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`)],
);
