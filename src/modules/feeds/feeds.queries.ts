import 'server-only';
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/db';
import { locations } from '@/modules/locations/locations.schema';
import { carImages, cars } from '@/modules/stock/stock.schema';
import { visibleCarsWhere, isValidCarSlug, MIN_SHOWN_PRICE } from '@/modules/stock/server';
import { carPath, siteOrigin } from '@/modules/tenancy/tenancy.paths';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { FEED_MAX_IMAGES, type FeedCar, type FeedContext, type FeedDealer, type FeedKind } from './feeds.types';

/**
 * The cars a feed carries and the dealer details beside them. Every query takes the tenant first.
 *
 * Which cars: the website's listed cars (visibleCarsWhere: the car page's and the search's own rule,
 * sold window and standing filters included) that an ad can be made of: a shown price (SPEC §5's
 * MIN_SHOWN_PRICE; both platforms refuse an item without one), a photo, and a slug the car page answers on.
 * Google's vehicle ads also take only passenger cars and pickups, each with a VIN (decision 038).
 * Read in pages by id (keyset), so 100,000 cars never sit in memory at once.
 */

export const FEED_BATCH_SIZE = 1000;

/** Google vehicle ads: cars and pickups only (no motorcycles, caravans or campervans). */
const GOOGLE_ITEM_TYPES = ['car', 'truck'] as const;

export function feedCarsWhere(tenant: Tenant, kind: FeedKind, now: Date): SQL {
  const conditions = [
    visibleCarsWhere(tenant, now),
    gt(cars.price, MIN_SHOWN_PRICE),
    // Both platforms refuse an item without a photo.
    sql`(coalesce(${cars.primaryImageUrl}, '') <> '' or exists (
      select 1 from ${carImages} where ${carImages.websiteId} = ${cars.websiteId} and ${carImages.carId} = ${cars.id}))`,
  ];
  if (kind === 'google') {
    conditions.push(inArray(cars.itemType, [...GOOGLE_ITEM_TYPES]), sql`coalesce(btrim(${cars.vin}), '') <> ''`);
  }
  return and(...conditions)!;
}

/** The primary image, then the photos in order, without repeats, at most FEED_MAX_IMAGES. */
const imageUrls = sql<string[] | string>`array(
  select u from (
    select ${cars.primaryImageUrl} as u, -1 as p, 0 as i where coalesce(${cars.primaryImageUrl}, '') <> ''
    union all
    select ${carImages.url}, ${carImages.position}, ${carImages.id} from ${carImages}
    where ${carImages.websiteId} = ${cars.websiteId} and ${carImages.carId} = ${cars.id}
      and ${carImages.url} is distinct from ${cars.primaryImageUrl}
    order by 2, 3 limit ${FEED_MAX_IMAGES}
  ) as image_urls)`;

const feedColumns = {
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
  carType: cars.carType,
  status: cars.status,
  itemType: cars.itemType,
  certified: cars.certified,
  vin: cars.vin,
  colour: cars.colour,
  simpleFuel: cars.simpleFuel,
  simpleBody: cars.simpleBody,
  simpleDrive: cars.simpleDrive,
  simpleTransmission: cars.simpleTransmission,
  description: cars.description,
  stocknum: cars.stocknum,
  createdAt: cars.createdAt,
  dealershipId: cars.dealershipId,
  locationId: cars.locationId,
  images: imageUrls,
};

/** A text[] arrives as an array from both drivers; a driver that sends the literal gets it parsed. */
function toArray(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  if (!value || value === '{}') return [];
  return value
    .slice(1, -1)
    .match(/"((?:[^"\\]|\\.)*)"|[^,]+/g)!
    .map((item) => (item.startsWith('"') ? item.slice(1, -1).replace(/\\(.)/g, '$1') : item));
}

/** The feed's cars in pages of `batchSize`, by id. */
export async function* feedCarBatches(
  tenant: Tenant,
  kind: FeedKind,
  options: { now?: Date; batchSize?: number } = {},
): AsyncGenerator<FeedCar[]> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? FEED_BATCH_SIZE;
  const db = await getDb();
  const where = feedCarsWhere(tenant, kind, now);
  let after = 0;
  for (;;) {
    const rows = await db
      .select(feedColumns)
      .from(cars)
      .where(and(where, gt(cars.id, after)))
      .orderBy(asc(cars.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    yield rows
      .filter((row) => isValidCarSlug(row.slug))
      .map((row) => ({ ...row, createdAt: new Date(row.createdAt), images: toArray(row.images) }));
    if (rows.length < batchSize) return;
  }
}

/** The website's origin, its name and where each of its cars is (one query each for locations and dealerships). */
export async function feedContext(tenant: Tenant, host: string): Promise<FeedContext> {
  const db = await getDb();
  const [locationRows, dealershipRows] = await Promise.all([
    db
      .select({
        id: locations.id,
        dealershipId: locations.dealershipId,
        slug: locations.slug,
        name: locations.name,
        primary: locations.primary,
        visible: locations.visible,
        street: locations.street,
        city: locations.city,
        state: locations.state,
        postcode: locations.postcode,
        country: locations.country,
        lat: locations.lat,
        long: locations.long,
        phone: locations.phone,
      })
      .from(locations)
      .where(eq(locations.websiteId, tenant.id))
      .orderBy(sql`${locations.primary} desc`, sql`${locations.visible} desc`, asc(locations.position), asc(locations.id)),
    db
      .select({ id: dealerships.id, slug: dealerships.slug, name: dealerships.name, phone: dealerships.phone })
      .from(dealerships)
      .where(eq(dealerships.websiteId, tenant.id)),
  ]);
  const dealershipById = new Map(dealershipRows.map((d) => [d.id, d]));
  const toDealer = (location: (typeof locationRows)[number], dealershipId: number): FeedDealer => {
    const dealership = dealershipById.get(dealershipId) ?? dealershipById.get(location.dealershipId);
    return {
      dealerId: dealership?.slug ?? '',
      dealerName: dealership?.name ?? tenant.name,
      phone: location.phone || dealership?.phone || tenant.phone,
      locationSlug: location.slug,
      street: location.street,
      city: location.city,
      state: location.state,
      postcode: location.postcode,
      country: location.country,
      lat: location.lat,
      long: location.long,
    };
  };
  const locationById = new Map(locationRows.map((l) => [l.id, l]));
  const firstOfDealership = new Map<number, (typeof locationRows)[number]>();
  for (const location of locationRows) if (!firstOfDealership.has(location.dealershipId)) firstOfDealership.set(location.dealershipId, location);
  const cache = new Map<string, FeedDealer | null>();

  const origin = siteOrigin(tenant, host);
  return {
    origin,
    siteName: tenant.name,
    config: tenant.config,
    carUrl: (slug) => `${origin.origin}${carPath(tenant, slug)}`,
    dealerFor: ({ locationId, dealershipId }) => {
      const key = `${locationId ?? ''}:${dealershipId}`;
      if (cache.has(key)) return cache.get(key)!;
      const location = (locationId != null ? locationById.get(locationId) : undefined) ?? firstOfDealership.get(dealershipId) ?? locationRows[0];
      const dealer = location ? toDealer(location, dealershipId) : null;
      cache.set(key, dealer);
      return dealer;
    },
  };
}
