import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/db';
import { dealerships, websites } from '../tenancy/tenancy.schema';
import { locations } from '../locations/locations.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { carImages, carPaymentProcessors, cars } from './stock.schema';
import { findCarJson, type CarJson } from './stock.api';
import { defaultCarName, effectiveStatus, normaliseImages, type CarInput } from './stock.validation';

/** A write refused for a reason the caller can fix; fields name the offending input fields. */
export class StockInputError extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(`Invalid stock input: ${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('; ')}`);
    this.name = 'StockInputError';
  }
}

/**
 * Bumps websites.stock_version. Call it inside the transaction of every stock change (cars, their
 * images and processors, and search_pages): the Dashboard API's lookup caches and ETags are keyed
 * by this number, so a change is visible to every replica on the next request.
 */
export async function bumpStockVersion(tx: Tx, websiteId: number): Promise<number> {
  const [row] = await tx
    .update(websites)
    .set({ stockVersion: sql`${websites.stockVersion} + 1`, updatedAt: sql`now()` })
    .where(eq(websites.id, websiteId))
    .returning({ stockVersion: websites.stockVersion });
  if (!row) throw new Error(`website ${websiteId} does not exist`);
  return row.stockVersion;
}

async function assertDealershipOfTenant(tx: Tx, tenant: Tenant, dealershipId: number, field: string) {
  const [row] = await tx
    .select({ id: dealerships.id })
    .from(dealerships)
    .where(and(eq(dealerships.websiteId, tenant.id), eq(dealerships.id, dealershipId)));
  if (!row) throw new StockInputError({ [field]: 'is not a dealership of this website' });
}

export type UpsertCarResult = { created: boolean; car: CarJson; stockVersion: number };

/**
 * Creates or replaces the car with this slug on the tenant's website (PUT semantics: fields not
 * sent take their defaults, except created_at, which is kept, and dealership_id, which is kept on
 * update and is `dealershipId` for a new car). Images and payment processors are replaced;
 * photos_count follows the images. A sold car keeps its first sold date unless one is sent.
 * One transaction, which also bumps the website's stock_version.
 *
 * Throws StockInputError when the acting dealership, dealership_id or location_id is not of this
 * website.
 */
export async function upsertCar(
  tenant: Tenant,
  dealershipId: number,
  slug: string,
  input: CarInput,
  options: { now?: Date } = {},
): Promise<UpsertCarResult> {
  const now = options.now ?? new Date();
  const db = await getDb();
  return db.transaction(async (tx) => {
    await assertDealershipOfTenant(tx, tenant, dealershipId, 'dealership_id');
    if (input.dealership_id != null && input.dealership_id !== dealershipId) {
      await assertDealershipOfTenant(tx, tenant, input.dealership_id, 'dealership_id');
    }
    if (input.location_id != null) {
      const [location] = await tx
        .select({ id: locations.id })
        .from(locations)
        .where(and(eq(locations.websiteId, tenant.id), eq(locations.id, input.location_id)));
      if (!location) throw new StockInputError({ location_id: 'is not a location of this website' });
    }

    const images = normaliseImages(input.images);
    const status = effectiveStatus(input);
    const createdAtMs = input.created_at_timestamp ?? (input.created_at ? Date.parse(input.created_at) : null);
    const soldAtMs = input.sold_date_timestamp ?? (input.sold_date ? Date.parse(input.sold_date) : null);
    const soldDate = status !== 'sold' ? null : soldAtMs != null ? new Date(soldAtMs) : undefined;

    const values = {
      name: input.name || defaultCarName(input),
      make: input.make,
      model: input.model,
      badge: input.badge ?? null,
      series: input.series ?? null,
      year: input.year,
      km: input.km,
      price: input.price,
      priceType: input.price_type,
      beforePrice: input.before_price ?? null,
      subscriptionPrice: input.subscription_price ?? null,
      carType: input.car_type,
      status,
      itemType: input.item_type,
      stocknum: input.stocknum,
      vin: input.vin || null,
      nvic: input.nvic || null,
      certified: input.certified,
      reserved: input.reserved,
      reservable: input.reservable ?? null,
      preorder: input.preorder,
      showOnDealerWebsite: input.show_on_dealer_website,
      photosCount: images.length,
      tag: input.tag || null,
      customRank: input.custom_rank,
      colour: input.colour ?? null,
      seats: input.seats ?? null,
      doors: input.doors ?? null,
      engine: input.engine ?? null,
      simpleFuel: input.simple_fuel ?? null,
      simpleBody: input.simple_body ?? null,
      simpleDrive: input.simple_drive ?? null,
      simpleTransmission: input.simple_transmission ?? null,
      description: input.description,
      categories: input.categories,
      features: input.features,
      primaryImageUrl: input.primary_image_url ?? images[0]?.url ?? null,
      historyReportUrl: input.file ?? null,
      locationId: input.location_id ?? null,
      carsalesSellerIdentifier: input.carsales_seller_identifier ?? null,
      city: input.city ?? null,
      state: input.state ?? null,
      autograbAverageMarketPrice: input.autograb_data?.average_market_price ?? null,
      autograbStateAverageMarketPrice: input.autograb_data?.state_average_market_price ?? null,
      updatedAt: now,
    };

    const [written] = await tx
      .insert(cars)
      .values({
        ...values,
        websiteId: tenant.id,
        slug,
        dealershipId: input.dealership_id ?? dealershipId,
        soldDate: soldDate === undefined ? now : soldDate,
        createdAt: createdAtMs != null ? new Date(createdAtMs) : now,
      })
      .onConflictDoUpdate({
        target: [cars.websiteId, cars.slug],
        set: {
          ...values,
          ...(input.dealership_id != null ? { dealershipId: input.dealership_id } : {}),
          // A car that was already sold keeps its sold date unless one is sent.
          soldDate: soldDate === undefined ? sql`coalesce(${cars.soldDate}, ${now.toISOString()}::timestamptz)` : soldDate,
          ...(createdAtMs != null ? { createdAt: new Date(createdAtMs) } : {}),
        },
      })
      .returning({ id: cars.id, created: sql<boolean>`(xmax = 0)` });

    await tx.delete(carImages).where(and(eq(carImages.websiteId, tenant.id), eq(carImages.carId, written.id)));
    if (images.length) {
      await tx.insert(carImages).values(
        images.map((image, position) => ({
          websiteId: tenant.id,
          carId: written.id,
          position,
          url: image.url,
          thumbnailUrl: image.thumbnailUrl,
          alt: image.alt,
        })),
      );
    }
    await tx
      .delete(carPaymentProcessors)
      .where(and(eq(carPaymentProcessors.websiteId, tenant.id), eq(carPaymentProcessors.carId, written.id)));
    if (input.payment_processors.length) {
      await tx.insert(carPaymentProcessors).values(
        input.payment_processors.map((p) => ({
          websiteId: tenant.id,
          carId: written.id,
          authorizationType: p.authorization_type,
          authorizationKey: p.authorization_key || null,
          depositAmount: p.deposit_amount,
        })),
      );
    }

    const stockVersion = await bumpStockVersion(tx, tenant.id);
    const car = await findCarJson(tenant, slug, { includeHidden: true, db: tx });
    if (!car) throw new Error(`car ${slug} vanished inside its own transaction`);
    return { created: Boolean(written.created), car, stockVersion };
  });
}

/**
 * Withdraws the car from the website: show_on_dealer_website becomes false (the row, its id,
 * created_at, images and the favourites and leads that point at it are kept; a later upsert with
 * the same slug lists it again). False when the website has no such listed car. One transaction,
 * which also bumps stock_version. `dealershipId` is the acting dealership and must be of the
 * tenant's website.
 */
export async function withdrawCar(
  tenant: Tenant,
  dealershipId: number,
  slug: string,
  options: { now?: Date } = {},
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await assertDealershipOfTenant(tx, tenant, dealershipId, 'dealership_id');
    const withdrawn = await tx
      .update(cars)
      .set({ showOnDealerWebsite: false, updatedAt: options.now ?? new Date() })
      .where(and(eq(cars.websiteId, tenant.id), eq(cars.slug, slug), eq(cars.showOnDealerWebsite, true)))
      .returning({ id: cars.id });
    if (withdrawn.length === 0) return false;
    await bumpStockVersion(tx, tenant.id);
    return true;
  });
}
