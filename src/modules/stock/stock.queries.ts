import 'server-only';
import { cache } from 'react';
import { and, asc, desc, eq, gt, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/db';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import type { SORT_OPTIONS } from '@/modules/tenancy/tenancy.config';
import { carImages, cars } from './stock.schema';
import { isValidCarSlug, soldWindowMs } from './stock.rules';
import type { CarDetail, CarImage, CarList, CarSummary, CarType } from './stock.types';

/**
 * Stock reads for the dealer website. Every query takes the tenant first and is limited to its
 * cars, to the cars it lists (visibleCarsWhere, the SQL twin of isVisible in stock.rules.ts) and
 * to its standing default filters.
 */

export const FEATURED_CARS_LIMIT = 6;
const MAX_PAGE_SIZE = 100;
const MAX_QUERY_LENGTH = 100;
const MAX_QUERY_TERMS = 8;

/** Listed cars of this website at `now`, with its default filters (minimum photos, cities, makes). */
export function visibleCarsWhere(tenant: Tenant, now: Date): SQL {
  const conditions: SQL[] = [eq(cars.websiteId, tenant.id), eq(cars.showOnDealerWebsite, true)];
  const window = soldWindowMs(tenant.config);
  const available = inArray(cars.status, ['in_stock', 'coming_soon']);
  conditions.push(
    window > 0
      ? or(available, and(eq(cars.status, 'sold'), gte(cars.soldDate, new Date(now.getTime() - window))))!
      : available,
  );
  const { minPhotos, cities, makes } = tenant.config.search.defaultFilters;
  if (minPhotos != null) conditions.push(gte(cars.photosCount, minPhotos));
  // Both sides lowered in SQL, so the comparison is the same whatever the database's ctype.
  if (cities.length > 0) conditions.push(lowerIn(cars.city, cities));
  if (makes.length > 0) conditions.push(lowerIn(cars.make, makes));
  return and(...conditions)!;
}

function lowerIn(column: typeof cars.city | typeof cars.make, values: string[]): SQL {
  return sql`lower(${column}) in (${sql.join(
    values.map((value) => sql`lower(${value})`),
    sql`, `,
  )})`;
}

/** Escapes LIKE wildcards so a visitor's % and _ match themselves. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Free-text terms of a visitor's query: control characters (PostgreSQL refuses NUL) and double
 * quotes (SPEC §5) removed, length and term count bounded.
 */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const cleaned = q
    .replace(/[\u0000-\u001f\u007f"]/g, ' ')
    .trim()
    .slice(0, MAX_QUERY_LENGTH);
  return cleaned.split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_TERMS);
}

/** Every term must match the make, model, badge or stock number (case-insensitive). */
function textMatch(terms: string[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return and(
    ...terms.map((term) => {
      const pattern = likePattern(term);
      return or(
        sql`${cars.make} ilike ${pattern}`,
        sql`${cars.model} ilike ${pattern}`,
        sql`${cars.badge} ilike ${pattern}`,
        sql`${cars.stocknum} ilike ${pattern}`,
      )!;
    }),
  );
}

function orderFor(sort: (typeof SORT_OPTIONS)[number]): SQL[] {
  const newest = [desc(cars.createdAt), desc(cars.id)];
  switch (sort) {
    case 'created_at_timestamp:desc':
      return newest;
    case 'price:asc':
      return [asc(cars.price), ...newest];
    case 'price:desc':
      return [desc(cars.price), ...newest];
    case 'km:asc':
      return [asc(cars.km), ...newest];
    case 'km:desc':
      return [desc(cars.km), ...newest];
    case 'subscription_price:asc':
      return [sql`${cars.subscriptionPrice} asc nulls last`, ...newest];
    case 'subscription_price:desc':
      return [sql`${cars.subscriptionPrice} desc nulls last`, ...newest];
    case 'custom_rank:desc':
    default:
      return [desc(cars.customRank), ...newest];
  }
}

const firstImageUrl = sql<string | null>`coalesce(${cars.primaryImageUrl}, (
  select ${carImages.url} from ${carImages}
  where ${carImages.websiteId} = ${cars.websiteId} and ${carImages.carId} = ${cars.id}
  order by ${carImages.position}, ${carImages.id} limit 1))`;

const summaryColumns = {
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
  createdAt: cars.createdAt,
  soldDate: cars.soldDate,
  imageUrl: firstImageUrl,
  locationName: locations.name,
  locationSlug: locations.slug,
  locationCity: locations.city,
};

const locationJoin = and(eq(locations.websiteId, cars.websiteId), eq(locations.id, cars.locationId));

function selectSummaries(db: Db) {
  return db.select(summaryColumns).from(cars).leftJoin(locations, locationJoin);
}

type SummaryRow = Awaited<ReturnType<typeof selectSummaries>>[number];

function toSummary(row: SummaryRow): CarSummary {
  const { createdAt, soldDate, imageUrl, locationName, locationSlug, locationCity, ...car } = row;
  return {
    ...car,
    createdAtTimestamp: new Date(createdAt).getTime(),
    soldDateTimestamp: soldDate ? new Date(soldDate).getTime() : null,
    image: imageUrl ? { url: imageUrl, thumbnailUrl: null, width: null, height: null, alt: car.name } : null,
    location:
      locationName != null ? { name: locationName, slug: locationSlug ?? '', city: locationCity ?? '' } : null,
  };
}

/**
 * Featured cars (SPEC §9): listed, in-stock used cars with more than one photo, highest custom
 * rank first, then newest.
 */
export async function getFeaturedCars(tenant: Tenant, limit = FEATURED_CARS_LIMIT, now = new Date()): Promise<CarSummary[]> {
  const db = await getDb();
  const rows = await selectSummaries(db)
    .where(
      and(
        visibleCarsWhere(tenant, now),
        eq(cars.status, 'in_stock'),
        eq(cars.carType, 'used'),
        gt(cars.photosCount, 1),
      ),
    )
    .orderBy(desc(cars.customRank), desc(cars.createdAt), desc(cars.id))
    .limit(Math.min(Math.max(1, Math.trunc(limit) || FEATURED_CARS_LIMIT), MAX_PAGE_SIZE));
  return rows.map(toSummary);
}

export type ListVisibleCarsOptions = {
  q?: string;
  carType?: CarType;
  page?: number;
  pageSize?: number;
  now?: Date;
};

/**
 * A plain list of the website's listed stock, sorted by its default sort. A deliberately simple
 * list until the faceted search replaces it. pages = ceil(total / pageSize).
 */
export async function listVisibleCars(tenant: Tenant, options: ListVisibleCarsOptions = {}): Promise<CarList> {
  const pageSize = Math.min(Math.max(1, Math.trunc(options.pageSize ?? tenant.config.search.pageSize) || 1), MAX_PAGE_SIZE);
  const page = Math.max(1, Math.trunc(options.page ?? 1) || 1);
  const where = and(
    visibleCarsWhere(tenant, options.now ?? new Date()),
    options.carType ? eq(cars.carType, options.carType) : undefined,
    textMatch(searchTerms(options.q)),
  );
  const db = await getDb();
  const [rows, [{ total }]] = await Promise.all([
    selectSummaries(db)
      .where(where)
      .orderBy(...orderFor(tenant.config.search.defaultSort))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: sql<number>`cast(count(*) as integer)` }).from(cars).where(where),
  ]);
  const count = Number(total);
  return { cars: rows.map(toSummary), total: count, page, pages: Math.ceil(count / pageSize) };
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
      locationPhone: locations.phone,
      locationState: locations.state,
      dealershipPhone: dealerships.phone,
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
    locationPhone,
    locationState,
    dealershipPhone,
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
    images,
    phone: locationPhone || dealershipPhone || tenant.phone || '',
    location: summary.location
      ? { ...summary.location, phone: locationPhone ?? '', state: locationState ?? '' }
      : null,
  };
});
