import 'server-only';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { getDb, type Db, type Tx } from '@/db';
import { dealerships } from '../tenancy/tenancy.schema';
import { locations } from '../locations/locations.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { carImages, carPaymentProcessors, cars } from './stock.schema';

/** A car in the SPEC §3 Car JSON shape: what the Dashboard API answers. */
export type CarJson = {
  id: number;
  slug: string;
  name: string;
  make: string;
  model: string;
  badge: string | null;
  series: string | null;
  year: number;
  km: number;
  price: number;
  price_type: string;
  before_price: number | null;
  subscription_price: number | null;
  car_type: 'new' | 'used' | 'demo';
  status: 'in_stock' | 'coming_soon' | 'sold';
  item_type: string;
  stocknum: string;
  vin: string | null;
  nvic: string | null;
  certified: boolean;
  reserved: boolean;
  sold: boolean;
  sold_date_timestamp: number | null;
  reservable: boolean | null;
  preorder: boolean;
  show_on_dealer_website: boolean;
  photos_count: number;
  tag: string | null;
  created_at: string;
  created_at_timestamp: number;
  custom_rank: number;
  colour: string | null;
  seats: number | null;
  doors: number | null;
  engine: string | null;
  description: string;
  categories: string[];
  features: string[];
  simple_fuel: string | null;
  simple_body: string | null;
  simple_drive: string | null;
  simple_transmission: string | null;
  primary_image_url: string | null;
  images: { image: { url: string } }[];
  thumbnails: string[];
  file: string | null;
  dealership_id: number;
  dealership_slug: string;
  location: { name: string; phone: string; slug: string; distribution_locations: string[] } | null;
  location_id: number | null;
  carsales_seller_identifier: string | null;
  city: string | null;
  state: string | null;
  payment_processors: { authorization_type: string; authorization_key: string | null; deposit_amount: number }[];
  has_checkout_payment_processor: boolean;
  autograb_data: { average_market_price: number | null; state_average_market_price: number | null } | null;
};

type CarRow = typeof cars.$inferSelect;
type ImageRow = typeof carImages.$inferSelect;
type ProcessorRow = typeof carPaymentProcessors.$inferSelect;
type LocationRow = Pick<typeof locations.$inferSelect, 'name' | 'phone' | 'slug'>;

export type CarRecord = {
  car: CarRow;
  dealershipSlug: string;
  location: LocationRow | null;
  images: ImageRow[];
  paymentProcessors: ProcessorRow[];
};

type CoreFields = Pick<CarRow, 'id' | 'slug' | 'name' | 'make' | 'model' | 'badge' | 'series' | 'year' | 'km' | 'price' | 'priceType' | 'beforePrice' | 'subscriptionPrice' | 'carType' | 'status' | 'itemType'>;

/** The identity, price and kind fields of a car under their SPEC §3 names (Dashboard API and search hits). */
export function carCoreJson(car: CoreFields) {
  return {
    id: car.id,
    slug: car.slug,
    name: car.name,
    make: car.make,
    model: car.model,
    badge: car.badge,
    series: car.series,
    year: car.year,
    km: car.km,
    price: car.price,
    price_type: car.priceType,
    before_price: car.beforePrice,
    subscription_price: car.subscriptionPrice,
    car_type: car.carType,
    status: car.status,
    item_type: car.itemType,
  };
}

/** Pure: the SPEC §3 JSON of a car and its related rows. */
export function serializeCar(record: CarRecord): CarJson {
  const { car, images, paymentProcessors } = record;
  const sortedImages = [...images].sort((a, b) => a.position - b.position || a.id - b.id);
  const processors = paymentProcessors.map((p) => ({
    authorization_type: p.authorizationType,
    authorization_key: p.authorizationKey,
    deposit_amount: p.depositAmount,
  }));
  const hasAutograb = car.autograbAverageMarketPrice != null || car.autograbStateAverageMarketPrice != null;
  return {
    ...carCoreJson(car),
    stocknum: car.stocknum,
    vin: car.vin,
    nvic: car.nvic,
    certified: car.certified,
    reserved: car.reserved,
    sold: car.status === 'sold',
    sold_date_timestamp: car.soldDate ? car.soldDate.getTime() : null,
    reservable: car.reservable,
    preorder: car.preorder,
    show_on_dealer_website: car.showOnDealerWebsite,
    photos_count: car.photosCount,
    tag: car.tag,
    created_at: car.createdAt.toISOString(),
    created_at_timestamp: car.createdAt.getTime(),
    custom_rank: car.customRank,
    colour: car.colour,
    seats: car.seats,
    doors: car.doors,
    engine: car.engine,
    description: car.description,
    categories: car.categories,
    features: car.features,
    simple_fuel: car.simpleFuel,
    simple_body: car.simpleBody,
    simple_drive: car.simpleDrive,
    simple_transmission: car.simpleTransmission,
    primary_image_url: car.primaryImageUrl ?? sortedImages[0]?.url ?? null,
    images: sortedImages.map((image) => ({ image: { url: image.url } })),
    thumbnails: sortedImages.map((image) => image.thumbnailUrl ?? image.url),
    file: car.historyReportUrl,
    dealership_id: car.dealershipId,
    dealership_slug: record.dealershipSlug,
    location: record.location
      ? {
          name: record.location.name,
          phone: record.location.phone,
          slug: record.location.slug,
          // The platform keeps no distribution network per location yet: a car is offered at its own location.
          distribution_locations: [],
        }
      : null,
    location_id: car.locationId,
    carsales_seller_identifier: car.carsalesSellerIdentifier,
    city: car.city,
    state: car.state,
    payment_processors: processors,
    // SPEC §5: reserve / buy online needs at least one payment processor with a key.
    has_checkout_payment_processor: processors.some((p) => !!p.authorization_key),
    autograb_data: hasAutograb
      ? {
          average_market_price: car.autograbAverageMarketPrice,
          state_average_market_price: car.autograbStateAverageMarketPrice,
        }
      : null,
  };
}

/**
 * The car of this website with this slug, as JSON; null when there is none or it is withdrawn
 * from the website (show_on_dealer_website false) unless includeHidden. Pass a transaction to
 * read what it has just written.
 */
export async function findCarJson(
  tenant: Tenant,
  slug: string,
  options: { includeHidden?: boolean; db?: Db | Tx } = {},
): Promise<CarJson | null> {
  const db = options.db ?? (await getDb());
  const [row] = await db
    .select({ car: cars, dealershipSlug: dealerships.slug, location: { name: locations.name, phone: locations.phone, slug: locations.slug } })
    .from(cars)
    .innerJoin(dealerships, and(eq(dealerships.websiteId, cars.websiteId), eq(dealerships.id, cars.dealershipId)))
    .leftJoin(locations, and(eq(locations.websiteId, cars.websiteId), eq(locations.id, cars.locationId)))
    .where(
      and(
        eq(cars.websiteId, tenant.id),
        eq(cars.slug, slug),
        options.includeHidden ? undefined : eq(cars.showOnDealerWebsite, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  const [images, paymentProcessors] = await Promise.all([
    db
      .select()
      .from(carImages)
      .where(and(eq(carImages.websiteId, tenant.id), eq(carImages.carId, row.car.id)))
      .orderBy(asc(carImages.position), asc(carImages.id)),
    db
      .select()
      .from(carPaymentProcessors)
      .where(and(eq(carPaymentProcessors.websiteId, tenant.id), inArray(carPaymentProcessors.carId, [row.car.id])))
      .orderBy(asc(carPaymentProcessors.id)),
  ]);
  return serializeCar({
    car: row.car,
    dealershipSlug: row.dealershipSlug,
    location: row.location?.slug != null ? row.location : null,
    images,
    paymentProcessors,
  });
}
