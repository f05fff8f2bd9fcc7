import 'server-only';
import { cache } from 'react';
import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/db';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { generationsReadWith, type Generations } from '@/modules/tenancy/tenancy.memo';
import { currentGenerations, GONE, knownGenerations } from '@/modules/tenancy/tenancy.generations';
import { carImages, carPaymentProcessors, carPriceChanges, cars } from './stock.schema';
import { isValidCarSlug, matchesDefaultFilters } from './stock.rules';
import { PRICE_CHANGES_SHOWN } from './price-history';
import { scopeForTenant, scopeWhere } from './search/search.scope';
import { carDisplayName } from './search/search.labels';
import type { CarDetail, CarImage, CarSummary } from './stock.types';

/**
 * Stock reads for the dealer website. Every query takes the tenant first and is limited to its
 * cars, to the cars it lists (visibleCarsWhere, the SQL twin of isVisible in stock.rules.ts) and
 * to its standing default filters.
 */

export const FEATURED_CARS_LIMIT = 6;
const MAX_FEATURED = 100;

/** Listed cars of this website at `now`, with its default filters (the search scope's SQL). */
export function visibleCarsWhere(tenant: Tenant, now: Date): SQL {
  return scopeWhere(scopeForTenant(tenant, now));
}

/**
 * What a page showing the website's cars depends on, as one string: its car generation (bumped by
 * triggers with every change to its cars) and its website generation (every change to what else
 * its pages show: websiteVersion). A cached page is served only while this is unchanged
 * (src/lib/page-cache.ts).
 */
export function stockListingVersion(tenant: Tenant): string | Promise<string> {
  const format = (known: Generations) => (known.website === GONE ? GONE : `${known.cars}:${known.website}`);
  // A page-cache hit has it at once (knownGenerations); otherwise read and kept.
  const known = generationsReadWith(tenant.id) ?? knownGenerations(tenant.id);
  return known ? format(known) : currentGenerations(tenant.id).then(format);
}

/** The primary image, else the first photo in order. */
const firstImageUrl = sql<string | null>`coalesce(${cars.primaryImageUrl}, (
  select ${carImages.url} from ${carImages}
  where ${carImages.websiteId} = ${cars.websiteId} and ${carImages.carId} = ${cars.id}
  order by ${carImages.position}, ${carImages.id} limit 1))`;

const epochMs = (column: typeof cars.createdAt | typeof cars.soldDate | SQL) =>
  sql<number | string | null>`(extract(epoch from ${column}) * 1000)::bigint`;

/**
 * What a car card needs, from cars left-joined to locations. The stock queries select these
 * columns; the search engine builds its hits from the same list (as JSON), so both shape a
 * CarSummary the same way (toSummary).
 */
export const summaryColumns = {
  id: cars.id,
  slug: cars.slug,
  name: cars.name,
  make: cars.make,
  model: cars.model,
  badge: cars.badge,
  series: cars.series,
  year: cars.year,
  km: cars.km,
  price: cars.price,
  priceType: cars.priceType,
  beforePrice: cars.beforePrice,
  subscriptionPrice: cars.subscriptionPrice,
  carType: cars.carType,
  status: cars.status,
  itemType: cars.itemType,
  certified: cars.certified,
  reserved: cars.reserved,
  preorder: cars.preorder,
  showOnDealerWebsite: cars.showOnDealerWebsite,
  photosCount: cars.photosCount,
  tag: cars.tag,
  simpleFuel: cars.simpleFuel,
  simpleBody: cars.simpleBody,
  simpleTransmission: cars.simpleTransmission,
  city: cars.city,
  state: cars.state,
  createdAtTimestamp: epochMs(cars.createdAt),
  soldDateTimestamp: epochMs(cars.soldDate),
  imageUrl: firstImageUrl,
  locationName: locations.name,
  locationSlug: locations.slug,
  locationCity: locations.city,
};

/**
 * The card's columns the stock index holds as one JSON text per car (stock-index.ts, `cardOf`),
 * in this order; it holds every other card column for searching already.
 */
export const CARD_TEXT_COLUMNS = ['slug', 'name', 'series', 'priceType', 'beforePrice', 'reserved', 'preorder', 'soldDateTimestamp', 'imageUrl'] as const satisfies readonly (keyof typeof summaryColumns)[];

export const locationJoin = and(eq(locations.websiteId, cars.websiteId), eq(locations.id, cars.locationId))!;

function selectSummaries(db: Db) {
  return db.select(summaryColumns).from(cars).leftJoin(locations, locationJoin);
}

export type SummaryRow = Awaited<ReturnType<typeof selectSummaries>>[number];

export function toSummary(row: SummaryRow): CarSummary {
  const { createdAtTimestamp, soldDateTimestamp, imageUrl, locationName, locationSlug, locationCity, ...car } = row;
  const name = carDisplayName(car.name);
  return {
    ...car,
    name,
    // bigint arrives as a string from node-postgres.
    createdAtTimestamp: Number(createdAtTimestamp),
    soldDateTimestamp: soldDateTimestamp == null ? null : Number(soldDateTimestamp),
    image: imageUrl ? { url: imageUrl, thumbnailUrl: null, width: null, height: null, alt: name } : null,
    location:
      locationName != null ? { name: locationName, slug: locationSlug ?? '', city: locationCity ?? '' } : null,
  };
}

/**
 * Featured cars (SPEC §9): listed, in-stock used cars with more than one photo, highest custom
 * rank first, then newest.
 */
export async function getFeaturedCars(tenant: Tenant, limit = FEATURED_CARS_LIMIT, now = new Date(), { forSale = false }: { forSale?: boolean } = {}): Promise<CarSummary[]> {
  const db = await getDb();
  const rows = await selectSummaries(db)
    .where(
      and(
        visibleCarsWhere(tenant, now),
        eq(cars.status, 'in_stock'),
        eq(cars.carType, 'used'),
        gt(cars.photosCount, 1),
        // The finance landing's cars: only those that can be bought (isForSale: in stock and not reserved).
        forSale ? eq(cars.reserved, false) : undefined,
      ),
    )
    .orderBy(desc(cars.customRank), desc(cars.createdAt), desc(cars.id))
    .limit(Math.min(Math.max(1, Math.trunc(limit) || FEATURED_CARS_LIMIT), MAX_FEATURED));
  return rows.map(toSummary);
}

/**
 * One listed car of this website by slug, or null. The slug is checked (SPEC §5) before any query.
 * Cached per request, so the page and its metadata share one lookup.
 */
export const getCarBySlug = cache(async (tenant: Tenant, slug: string, now = new Date()): Promise<CarDetail | null> => {
  if (!isValidCarSlug(slug)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      ...summaryColumns,
      stocknum: cars.stocknum,
      vin: cars.vin,
      colour: cars.colour,
      seats: cars.seats,
      doors: cars.doors,
      engine: cars.engine,
      simpleDrive: cars.simpleDrive,
      description: cars.description,
      features: cars.features,
      dealershipId: cars.dealershipId,
      primaryImageUrl: cars.primaryImageUrl,
      nvic: cars.nvic,
      reservable: cars.reservable,
      historyReportUrl: cars.historyReportUrl,
      marketAveragePrice: cars.autograbAverageMarketPrice,
      stateMarketAveragePrice: cars.autograbStateAverageMarketPrice,
      hasPaymentProcessor: sql<boolean>`exists (
        select 1 from ${carPaymentProcessors}
        where ${carPaymentProcessors.websiteId} = ${cars.websiteId} and ${carPaymentProcessors.carId} = ${cars.id}
          and coalesce(${carPaymentProcessors.authorizationKey}, '') <> '')`,
      locationPhone: locations.phone,
      locationState: locations.state,
      locationStreet: locations.street,
      locationPostcode: locations.postcode,
      locationCountry: locations.country,
      locationLat: locations.lat,
      locationLong: locations.long,
      dealershipPhone: dealerships.phone,
      dealershipSlug: dealerships.slug,
      dealershipName: dealerships.name,
      whatsappNumber: dealerships.whatsappNumber,
      priceChanges: sql<[number | string, number, number][] | null>`(select json_agg(json_build_array(${epochMs(sql`pc.changed_at`)}, pc.old_price, pc.new_price))
        from (select changed_at, old_price, new_price from ${carPriceChanges} pc
          where pc.website_id = ${cars.websiteId} and pc.car_id = ${cars.id} order by pc.changed_at desc, pc.id desc limit ${PRICE_CHANGES_SHOWN}) pc)`,
    })
    .from(cars)
    .leftJoin(locations, locationJoin)
    .leftJoin(dealerships, and(eq(dealerships.websiteId, cars.websiteId), eq(dealerships.id, cars.dealershipId)))
    .where(and(visibleCarsWhere(tenant, now), eq(cars.slug, slug)))
    .limit(1);
  if (!row) return null;

  const imageRows = await db
    .select({
      url: carImages.url,
      thumbnailUrl: carImages.thumbnailUrl,
      width: carImages.width,
      height: carImages.height,
      alt: carImages.alt,
    })
    .from(carImages)
    .where(and(eq(carImages.websiteId, tenant.id), eq(carImages.carId, row.id)))
    .orderBy(asc(carImages.position), asc(carImages.id));

  const {
    stocknum,
    vin,
    colour,
    seats,
    doors,
    engine,
    simpleDrive,
    description,
    features,
    dealershipId,
    primaryImageUrl,
    nvic,
    reservable,
    historyReportUrl,
    marketAveragePrice,
    stateMarketAveragePrice,
    hasPaymentProcessor,
    locationPhone,
    locationState,
    locationStreet,
    locationPostcode,
    locationCountry,
    locationLat,
    locationLong,
    dealershipPhone,
    dealershipSlug,
    dealershipName,
    whatsappNumber,
    priceChanges,
    ...summaryRow
  } = row;
  const summary = toSummary(summaryRow);
  const images: CarImage[] = imageRows.map((image, index) => ({
    ...image,
    alt: image.alt.trim() || `${summary.name}, photo ${index + 1}`,
  }));
  // The primary image leads the gallery when it is not one of the photos.
  if (primaryImageUrl && !images.some((image) => image.url === primaryImageUrl)) {
    images.unshift({ url: primaryImageUrl, thumbnailUrl: null, width: null, height: null, alt: summary.name });
  }
  return {
    ...summary,
    image: images[0] ?? summary.image,
    stocknum,
    vin,
    colour,
    seats,
    doors,
    engine,
    simpleDrive,
    description,
    features,
    dealershipId,
    dealershipSlug: dealershipSlug ?? '',
    dealershipName: dealershipName ?? tenant.name,
    images,
    phone: locationPhone || dealershipPhone || tenant.phone || '',
    whatsappNumber: whatsappNumber?.trim() || null,
    priceChanges: (priceChanges ?? []).map(([at, from, to]) => ({ at: Number(at), from, to })),
    location: summary.location
      ? {
          ...summary.location,
          phone: locationPhone ?? '',
          state: locationState ?? '',
          street: locationStreet ?? '',
          postcode: locationPostcode ?? '',
          country: locationCountry ?? 'AU',
          lat: locationLat,
          long: locationLong,
        }
      : null,
    nvic,
    reservable,
    // exists() is a boolean with both drivers; the 't' check covers a driver that sends text.
    hasPaymentProcessor: hasPaymentProcessor === true || String(hasPaymentProcessor) === 't',
    historyReportUrl,
    marketAveragePrice,
    stateMarketAveragePrice,
  };
});

export type SoldCar = Pick<CarDetail, 'slug' | 'name' | 'make' | 'model' | 'carType' | 'year'>;

/**
 * A car of this website that was sold and is past its display window (or sold with no date), so
 * the car page can say it is sold instead of a bare 404 (decision 008). Hidden cars
 * (show_on_dealer_website false) stay unknown.
 */
export const getSoldCarBySlug = cache(async (tenant: Tenant, slug: string): Promise<SoldCar | null> => {
  if (!isValidCarSlug(slug)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      slug: cars.slug,
      name: cars.name,
      make: cars.make,
      model: cars.model,
      carType: cars.carType,
      year: cars.year,
      photosCount: cars.photosCount,
      city: cars.city,
    })
    .from(cars)
    .where(and(eq(cars.websiteId, tenant.id), eq(cars.slug, slug), eq(cars.status, 'sold'), eq(cars.showOnDealerWebsite, true)))
    .limit(1);
  if (!row || !matchesDefaultFilters(row, tenant.config)) return null;
  const { photosCount: _photos, city: _city, ...car } = row;
  return { ...car, name: carDisplayName(car.name) };
});
