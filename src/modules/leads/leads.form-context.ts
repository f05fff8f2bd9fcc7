import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import { visibleCarsWhere, carDisplayName } from '@/modules/stock/server';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import type { LeadCar, LeadLocation, LeadSite } from './form-rules/fields';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';

/** What the lead forms of a website need from the database, scoped to the website. */

export async function getLeadSite(tenant: Tenant): Promise<LeadSite> {
  const db = await getDb();
  const [dealership] = await db
    .select({ slug: dealerships.slug })
    .from(dealerships)
    .where(eq(dealerships.websiteId, tenant.id))
    .orderBy(asc(dealerships.id))
    .limit(1);
  const { leads } = tenant.config;
  return {
    websiteSlug: tenant.slug,
    locale: tenant.config.locale,
    timeZone: tenant.config.timeZone,
    dealershipSlug: dealership?.slug ?? null,
    phoneRule: phoneRuleFor(tenant.config),
    messageRequired: leads.messageRequired,
    minimumFillSeconds: leads.minimumFillSeconds,
    instantEstimate: tenant.config.valuations.showInstantRange,
    money: { locale: tenant.config.locale, currency: tenant.config.currency },
  };
}

/**
 * The website's visible locations a visitor can pick, in position order; `types` narrows them
 * (service forms list service locations; an empty location type means sales).
 */
export async function listLeadLocations(tenant: Tenant, types?: string[]): Promise<LeadLocation[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: locations.id, name: locations.name, dealershipSlug: dealerships.slug, locationType: locations.locationType })
    .from(locations)
    .innerJoin(dealerships, and(eq(dealerships.websiteId, locations.websiteId), eq(dealerships.id, locations.dealershipId)))
    .where(and(eq(locations.websiteId, tenant.id), eq(locations.visible, true)))
    .orderBy(asc(locations.position), asc(locations.id));
  const all = rows.map((row) => ({ ...row, locationType: row.locationType || 'sales' }));
  if (!types) return all;
  const matching = all.filter((row) => types.includes(row.locationType));
  return matching.length > 0 ? matching : all;
}

/** A listed car of this website by id (the car_id of /cars/trade-in?car_id=…), or null. */
export async function getLeadCar(tenant: Tenant, carIdParam: unknown): Promise<LeadCar | null> {
  const raw = Array.isArray(carIdParam) ? carIdParam[0] : carIdParam;
  if (typeof raw !== 'string') return null;
  // SPEC §2: text after a question mark in car_id is dropped.
  const id = Number(raw.split('?')[0]);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  return getLeadCarById(tenant, id);
}

/** A listed car of this website as the lead forms need it (the car page passes car.id), or null. */
export async function getLeadCarById(tenant: Tenant, id: number): Promise<LeadCar | null> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: cars.id,
      slug: cars.slug,
      name: cars.name,
      carType: cars.carType,
      dealershipId: cars.dealershipId,
      dealershipSlug: dealerships.slug,
      locationId: cars.locationId,
      stocknum: cars.stocknum,
      make: cars.make,
      model: cars.model,
      year: cars.year,
      status: cars.status,
      reserved: cars.reserved,
    })
    .from(cars)
    .innerJoin(dealerships, and(eq(dealerships.websiteId, cars.websiteId), eq(dealerships.id, cars.dealershipId)))
    .where(and(eq(cars.id, id), visibleCarsWhere(tenant, new Date())))
    .limit(1);
  return row ? { ...row, name: carDisplayName(row.name) } : null;
}

/** The website's dealerships a visitor can prefer (the enquiry form's dealership select), by name. */
export async function listLeadDealerships(tenant: Tenant): Promise<{ slug: string; name: string }[]> {
  const db = await getDb();
  return db
    .select({ slug: dealerships.slug, name: dealerships.name })
    .from(dealerships)
    .where(eq(dealerships.websiteId, tenant.id))
    .orderBy(asc(dealerships.name), asc(dealerships.id));
}
