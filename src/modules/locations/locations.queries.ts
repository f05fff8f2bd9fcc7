import 'server-only';
import { and, asc, eq, gte } from 'drizzle-orm';
import { getDb } from '@/db';
import { addDays, isoDate, isValidTimeZone, wallTimeAt } from '@/lib/time-zone';
import { dealerships, websites } from '../tenancy/tenancy.schema';
import { websiteSecretsSchema } from '../tenancy/tenancy.config';
import { getNavigation } from '../tenancy/tenancy.queries';
import { memoWhileWebsiteUnchanged } from '../tenancy/tenancy.memo';
import type { Navigation, Tenant } from '../tenancy/tenancy.types';
import { normaliseLocationType, visibleReviews } from './locations.grouping';
import { localDay, parseSpecialHours, specialHoursJson } from './locations.hours';
import { locations, specialHours } from './locations.schema';
import type { LocationSummary, SpecialHoursEntry } from './locations.types';
import { locationTimeZone } from './locations.zones';

/**
 * Reads of a website's locations. Every function takes the tenant first; another website's
 * locations, dealerships and special hours are never returned.
 */

export const locationPath = (slug: string) => `/our-locations/${slug}`;
export const contactUsPath = (dealershipSlug: string) => `/contact-us/${dealershipSlug}`;

const summaryColumns = {
  location: locations,
  dealershipSlug: dealerships.slug,
  dealershipName: dealerships.name,
};

type SummaryRow = { location: typeof locations.$inferSelect; dealershipSlug: string; dealershipName: string };

function websiteZone(tenant: Tenant): string {
  return isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'Australia/Sydney';
}

function toSummary(tenant: Tenant, { location: l, dealershipSlug, dealershipName }: SummaryRow): LocationSummary {
  const fullAddress = [l.street, [l.city, l.state, l.postcode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return {
    id: l.id,
    dealershipId: l.dealershipId,
    dealershipSlug,
    dealershipName,
    name: l.name,
    slug: l.slug,
    path: locationPath(l.slug),
    contactPath: contactUsPath(dealershipSlug),
    position: l.position,
    primary: l.primary,
    locationType: normaliseLocationType(l.locationType),
    locationSubtypes: l.locationSubtypes,
    dealerLicenseNumber: l.dealerLicenseNumber?.trim() || null,
    address: {
      street: l.street,
      city: l.city,
      state: l.state,
      postcode: l.postcode,
      country: l.country,
      full: fullAddress,
      lat: l.lat,
      long: l.long,
      placeUrl: l.placeUrl,
    },
    phone: l.phone,
    landlinePhone: l.landlinePhone,
    mobile: l.mobile,
    social: l.social ?? {},
    timeZone: locationTimeZone(l, websiteZone(tenant)),
    openingHours: Array.isArray(l.openingHours) ? l.openingHours : [],
    settings: l.settings ?? {},
    reviews: visibleReviews(l.reviewsCount, l.reviewsAverageRating),
  };
}

async function selectSummaries(tenant: Tenant, extra?: ReturnType<typeof eq>): Promise<LocationSummary[]> {
  const db = await getDb();
  const rows = await db
    .select(summaryColumns)
    .from(locations)
    .innerJoin(dealerships, and(eq(dealerships.websiteId, locations.websiteId), eq(dealerships.id, locations.dealershipId)))
    .where(and(eq(locations.websiteId, tenant.id), eq(locations.visible, true), extra))
    .orderBy(asc(locations.position), asc(locations.id));
  return rows.map((row) => toSummary(tenant, row));
}

/** The website's visible locations in position order, each with its page path and opening hours. */
export async function listVisibleLocations(tenant: Tenant): Promise<LocationSummary[]> {
  return selectSummaries(tenant);
}

/** A visible location of the website by its slug (/our-locations/{slug}); null otherwise. */
export async function findVisibleLocation(tenant: Tenant, slug: string): Promise<LocationSummary | null> {
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/i.test(slug)) return null;
  const [location] = await selectSummaries(tenant, eq(locations.slug, slug.toLowerCase()));
  return location ?? null;
}

export type DealershipContact = {
  id: number;
  slug: string;
  name: string;
  phone: string;
  dealerLicenseNumber: string | null;
  locations: LocationSummary[];
};

/** A dealership of the website by slug (/contact-us/{slug}) with its visible locations; null otherwise. */
export async function findDealershipContact(tenant: Tenant, dealershipSlug: string): Promise<DealershipContact | null> {
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/i.test(dealershipSlug)) return null;
  const db = await getDb();
  const [dealership] = await db
    .select()
    .from(dealerships)
    .where(and(eq(dealerships.websiteId, tenant.id), eq(dealerships.slug, dealershipSlug.toLowerCase())))
    .limit(1);
  if (!dealership) return null;
  return {
    id: dealership.id,
    slug: dealership.slug,
    name: dealership.name,
    phone: dealership.phone,
    dealerLicenseNumber: dealership.dealerLicenseNumber?.trim() || null,
    locations: await selectSummaries(tenant, eq(locations.dealershipId, dealership.id)),
  };
}

export type DealerLicence = { dealershipName: string; number: string };

/** Dealer licence numbers of the website's dealerships (NSW requires one on every page). */
export function listDealerLicences(tenant: Tenant): Promise<DealerLicence[]> {
  return memoWhileWebsiteUnchanged(tenant, 'dealer-licences', () => loadDealerLicences(tenant));
}

async function loadDealerLicences(tenant: Tenant): Promise<DealerLicence[]> {
  const db = await getDb();
  const rows = await db
    .select({ dealershipName: dealerships.name, number: dealerships.dealerLicenseNumber })
    .from(dealerships)
    .where(eq(dealerships.websiteId, tenant.id))
    .orderBy(asc(dealerships.id));
  const seen = new Set<string>();
  const licences: DealerLicence[] = [];
  for (const row of rows) {
    const number = row.number?.trim();
    if (!number || seen.has(number)) continue;
    seen.add(number);
    licences.push({ dealershipName: row.dealershipName, number });
  }
  return licences;
}

/**
 * Special hours of the website's visible locations from each location's local today on: rows of
 * the special_hours table first, then entries of the website configuration (either shape of
 * SPEC §3) for dates the table does not already give.
 */
export async function listUpcomingSpecialHours(tenant: Tenant, now: Date = new Date()): Promise<SpecialHoursEntry[]> {
  const db = await getDb();
  const visible = await listVisibleLocations(tenant);
  const zoneById = new Map(visible.map((l) => [l.id, l.timeZone]));
  // A day before today in UTC covers every zone's local today.
  const from = isoDate(addDays(wallTimeAt(now.getTime() - 86_400_000, 'UTC'), 0));
  const rows = await db
    .select()
    .from(specialHours)
    .where(and(eq(specialHours.websiteId, tenant.id), gte(specialHours.date, from)))
    .orderBy(asc(specialHours.date), asc(specialHours.locationId))
    .limit(5000);
  const fromTable = rows.map((r) => ({
    date: r.date,
    status: r.status,
    location_id: r.locationId,
    start_hour: r.startHour,
    end_hour: r.endHour,
    name: r.name,
  }));
  const entries = parseSpecialHours([...fromTable, ...tenant.config.specialHours]);
  const position = new Map(visible.map((l, index) => [l.id, index]));
  return entries
    .filter((entry) => {
      const zone = zoneById.get(entry.locationId);
      return zone !== undefined && entry.date >= localDay(now, zone).date;
    })
    .sort((a, b) => a.date.localeCompare(b.date) || position.get(a.locationId)! - position.get(b.locationId)!);
}

export type SpecialHoursJson = ReturnType<typeof specialHoursJson>;
export type WebsiteSessionData = { navigation: Navigation; special_hours: SpecialHoursJson[] };

/** SPEC §7 website_session_data: the navigation and the upcoming special hours. */
export async function getWebsiteSessionData(tenant: Tenant, now: Date = new Date()): Promise<WebsiteSessionData> {
  const [navigation, special] = await Promise.all([getNavigation(tenant), listUpcomingSpecialHours(tenant, now)]);
  return { navigation, special_hours: special.map(specialHoursJson) };
}

/**
 * The website's Google Maps key (a website secret), or null: without one, maps are the static
 * block with direction links only. A Maps JavaScript key is public by design (restricted by
 * referrer at Google), so pages may hand it to the browser.
 */
export async function getMapsKey(tenant: Tenant): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ secrets: websites.secrets }).from(websites).where(eq(websites.id, tenant.id)).limit(1);
  const secrets = websiteSecretsSchema.safeParse(row?.secrets ?? {});
  return (secrets.success && secrets.data.googleMapsKey?.trim()) || null;
}
