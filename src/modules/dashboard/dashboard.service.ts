import 'server-only';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { logger } from '@/lib/logger';
import { findTenantById } from '../tenancy/tenancy.queries';
import { manufacturers, searchPages } from '../tenancy/tenancy.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { getWebsiteSessionData, type WebsiteSessionData, getAvailableBookingSlots, type AvailableBookings, type BookingKind } from '@/modules/locations/server';
import { cars } from '../stock/stock.schema';
import { findCarJson, type CarJson, StockInputError, upsertCar, withdrawCar, carInputSchema, carSlugSchema, fieldErrors } from '@/modules/stock/server';
import type { DealerPrincipal } from '@/lib/http';
import { cachedStockLookup, stockEtag, type VersionedLookup } from './dashboard.cache';
import { NotFoundError, ValidationError } from '@/lib/http';

/**
 * The Dashboard API's use cases (SPEC §7). Each takes the authenticated principal and the ids the
 * path names; a website, dealership or car that is not the key's is answered exactly as one that
 * does not exist (NotFoundError).
 */

/** The key's website when `websiteId` is it; NotFoundError otherwise. */
export async function dashboardTenant(principal: DealerPrincipal, websiteId: number): Promise<Tenant> {
  if (websiteId !== principal.websiteId) throw new NotFoundError();
  const tenant = await findTenantById(websiteId);
  if (!tenant) throw new NotFoundError();
  return tenant;
}

// ---- cars ----

/** GET /websites/{id}/cars/{slug}.json: the listed car, cached by stock version. */
export async function getDashboardCar(principal: DealerPrincipal, websiteId: number, slug: string): Promise<VersionedLookup<CarJson>> {
  const tenant = await dashboardTenant(principal, websiteId);
  if (!carSlugSchema.safeParse(slug).success) throw new NotFoundError();
  const lookup = await cachedStockLookup(tenant.id, `car:${slug}`, () => findCarJson(tenant, slug));
  if (!lookup.value) throw new NotFoundError();
  return lookup as VersionedLookup<CarJson>;
}

export type PutCarResult = { created: boolean; car: CarJson; etag: string };

/**
 * PUT /websites/{id}/cars/{slug}.json: validates the slug and the body (ValidationError naming each
 * bad field) and creates or replaces the car. `readBody` is only called once the website is known
 * to be the caller's.
 */
export async function putDashboardCar(
  principal: DealerPrincipal,
  websiteId: number,
  slug: string,
  readBody: () => Promise<unknown>,
): Promise<PutCarResult> {
  const tenant = await dashboardTenant(principal, websiteId);
  const body = await readBody();
  const slugCheck = carSlugSchema.safeParse(slug);
  const parsed = carInputSchema.safeParse(body);
  if (!slugCheck.success || !parsed.success) {
    throw new ValidationError({
      ...(slugCheck.success ? {} : { slug: slugCheck.error.issues[0].message }),
      ...(parsed.success ? {} : fieldErrors(parsed.error)),
    });
  }
  try {
    const result = await upsertCar(tenant, principal.dealershipId, slug, parsed.data);
    logger.info({ websiteId: tenant.id, slug, created: result.created, keyId: principal.keyId }, 'dashboard car upserted');
    return { created: result.created, car: result.car, etag: stockEtag(tenant.id, result.stockVersion) };
  } catch (error) {
    if (error instanceof StockInputError) throw new ValidationError(error.fields);
    throw error;
  }
}

/** DELETE /websites/{id}/cars/{slug}.json: withdraws the listed car from the website. */
export async function deleteDashboardCar(principal: DealerPrincipal, websiteId: number, slug: string): Promise<void> {
  const tenant = await dashboardTenant(principal, websiteId);
  if (!carSlugSchema.safeParse(slug).success) throw new NotFoundError();
  const withdrawn = await withdrawCar(tenant, principal.dealershipId, slug);
  if (!withdrawn) throw new NotFoundError();
  logger.info({ websiteId: tenant.id, slug, keyId: principal.keyId }, 'dashboard car withdrawn');
}

// ---- manufacturers ----

export type ManufacturerJson = {
  id: number;
  slug: string;
  name: string;
  display_name: string;
  website_id: number;
  /** The website's available stock (in stock or coming soon, listed) of this make. */
  stock: { count: number; models: { name: string; count: number }[] };
};

/** GET /manufacturers/{slug}.json?website_id=: the manufacturer and the website's stock of its make. */
export async function getDashboardManufacturer(
  principal: DealerPrincipal,
  websiteId: number,
  slug: string,
): Promise<VersionedLookup<ManufacturerJson>> {
  const tenant = await dashboardTenant(principal, websiteId);
  const key = slug.toLowerCase();
  if (!/^[a-z0-9][a-z0-9_-]{0,99}$/.test(key)) throw new NotFoundError();
  const lookup = await cachedStockLookup(tenant.id, `manufacturer:${key}`, async (): Promise<ManufacturerJson | null> => {
    const db = await getDb();
    const [manufacturer] = await db.select().from(manufacturers).where(eq(manufacturers.slug, key)).limit(1);
    if (!manufacturer) return null;
    const makeNames = [...new Set([manufacturer.slug, manufacturer.name, manufacturer.displayName].map((n) => n.toLowerCase()))];
    const models = await db
      .select({ name: cars.model, count: count() })
      .from(cars)
      .where(
        and(
          eq(cars.websiteId, tenant.id),
          eq(cars.showOnDealerWebsite, true),
          inArray(cars.status, ['in_stock', 'coming_soon']),
          inArray(sql`lower(${cars.make})`, makeNames),
        ),
      )
      .groupBy(cars.model)
      .orderBy(asc(cars.model));
    return {
      id: manufacturer.id,
      slug: manufacturer.slug,
      name: manufacturer.name,
      display_name: manufacturer.displayName,
      website_id: tenant.id,
      stock: { count: models.reduce((sum, m) => sum + Number(m.count), 0), models: models.map((m) => ({ name: m.name, count: Number(m.count) })) },
    };
  });
  if (!lookup.value) throw new NotFoundError();
  return lookup as VersionedLookup<ManufacturerJson>;
}

// ---- bookings ----

/** GET /dealerships/{id}/available_{service,appointment}_bookings.json. */
export async function getDashboardBookings(
  principal: DealerPrincipal,
  dealershipId: number,
  kind: BookingKind,
  now: Date = new Date(),
): Promise<AvailableBookings> {
  const tenant = await findTenantById(principal.websiteId);
  if (!tenant) throw new NotFoundError();
  const result = await getAvailableBookingSlots(tenant, dealershipId, kind, { now });
  if (!result) throw new NotFoundError();
  return result;
}

// ---- search pages ----

export type SearchPageTemplateJson = {
  slug: string;
  template: string;
  title: string;
  heading: string;
  description: string;
  filters: Record<string, string[]>;
};

async function loadSearchPages(tenant: Tenant): Promise<SearchPageTemplateJson[]> {
  const db = await getDb();
  return db
    .select({
      slug: searchPages.slug,
      template: searchPages.template,
      title: searchPages.title,
      heading: searchPages.heading,
      description: searchPages.description,
      filters: searchPages.filters,
    })
    .from(searchPages)
    .where(eq(searchPages.websiteId, tenant.id))
    .orderBy(asc(searchPages.slug));
}

/** GET /websites/{id}/pages/search_slugs.json. */
export async function getDashboardSearchSlugs(
  principal: DealerPrincipal,
  websiteId: number,
): Promise<VersionedLookup<{ website_id: number; slugs: string[] }>> {
  const tenant = await dashboardTenant(principal, websiteId);
  return cachedStockLookup(tenant.id, 'search_slugs', async () => ({
    website_id: tenant.id,
    slugs: (await loadSearchPages(tenant)).map((page) => page.slug),
  }));
}

/** GET /websites/{id}/search_page_templates.json. */
export async function getDashboardSearchPageTemplates(
  principal: DealerPrincipal,
  websiteId: number,
): Promise<VersionedLookup<{ website_id: number; search_page_templates: SearchPageTemplateJson[] }>> {
  const tenant = await dashboardTenant(principal, websiteId);
  return cachedStockLookup(tenant.id, 'search_page_templates', async () => ({
    website_id: tenant.id,
    search_page_templates: await loadSearchPages(tenant),
  }));
}

// ---- session data ----

export type { SpecialHoursJson, WebsiteSessionData } from '@/modules/locations/server';

/**
 * GET /api/v1/websites/{id}/website_session_data.json: navigation and the special hours of the
 * website's visible locations from each location's local today on.
 */
export async function getDashboardSessionData(principal: DealerPrincipal, websiteId: number, now: Date = new Date()): Promise<WebsiteSessionData> {
  return getWebsiteSessionData(await dashboardTenant(principal, websiteId), now);
}
