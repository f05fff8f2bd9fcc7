import 'server-only';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { getDb } from '@/db';
import { formatMoney, formatOdometerValue } from '@/lib/format';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import {
  engineFilters,
  facetValueLabel,
  MAKE_MODEL_SEPARATOR,
  parseSearchParams,
  resolveSearchListing,
  searchParamsFor,
  searchStock,
  visitorState,
  type SearchListing,
  type SearchState,
} from '@/modules/stock/server';
import { savedSearches } from './alerts.schema';

/** At most this many saved searches per visitor and website: enough to follow a few makes and budgets. */
export const SAVED_SEARCHES_PER_CUSTOMER = 20;
export const SAVED_SEARCH_NAME_MAX = 100;
const HREF_MAX = 2_000;

export const SAVED_SEARCH_MESSAGES = {
  notSearch: 'is not a search page of this website',
  tooMany: `You can save up to ${SAVED_SEARCHES_PER_CUSTOMER} searches. Delete one to save another.`,
} as const;

export class SavedSearchRefusal extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

type ResolvedSearch = { listing: SearchListing; state: SearchState; path: string; query: string };
/** Search pages already resolved, by path: a sweep over many saved searches of one website reads each page once. */
export type ListingCache = Map<string, Promise<SearchListing | null>>;

function listingOf(tenant: Tenant, segments: string[], listings?: ListingCache): Promise<SearchListing | null> {
  if (!listings) return resolveSearchListing(tenant, segments);
  const key = segments.join('/');
  let found = listings.get(key);
  if (!found) listings.set(key, (found = resolveSearchListing(tenant, segments)));
  return found;
}

/**
 * A search page of this website from its URL path and query (a path only: never another site),
 * with the filters the page itself would read from it, page number left out. Null when the path
 * is not one of the website's search pages.
 */
export async function resolveSearch(tenant: Tenant, href: string, listings?: ListingCache): Promise<ResolvedSearch | null> {
  if (href.length > HREF_MAX || !href.startsWith('/') || href.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(href)) return null;
  let url: URL;
  try {
    url = new URL(href, 'http://site');
  } catch {
    return null;
  }
  const { config } = tenant;
  let listing: SearchListing | null = null;
  if (url.pathname.startsWith('/search/')) {
    let segments: string[];
    try {
      segments = url.pathname.slice('/search/'.length).split('/').map(decodeURIComponent);
    } catch {
      return null;
    }
    listing = await listingOf(tenant, segments, listings);
  } else if (config.search.allStockPath && url.pathname === config.search.allStockPath) {
    const found = await listingOf(tenant, [url.pathname.slice(1)], listings);
    listing = found && { ...found, path: url.pathname };
  }
  if (!listing) return null;
  const raw: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (raw[key] ??= []).push(value);
  const state = { ...visitorState(parseSearchParams(raw, config.search.sortOptions), listing.presetFacets), page: 1 };
  return { listing, state, path: listing.path, query: searchParamsFor(state, config.search.defaultSort).toString() };
}

function rangeName(from: number | undefined, to: number | undefined, format: (value: number) => string, under: string, over: string): string | null {
  if (from != null && to != null) return `${format(from)}–${format(to)}`;
  if (to != null) return `${under} ${format(to)}`;
  if (from != null) return `${over} ${format(from)}`;
  return null;
}

/**
 * A saved search's name, made from what it asks for: 'Ford Ranger under $50,000', '“hilux”, SUV,
 * 2020 or newer'; the page's heading when it asks for nothing more than the page.
 */
export function savedSearchName(listing: Pick<SearchListing, 'heading'>, state: SearchState, config: WebsiteConfig): string {
  const { filters } = state;
  const models = filters.make_model ?? [];
  const makesWithModels = new Set(models.map((value) => value.split(MAKE_MODEL_SEPARATOR)[0]));
  const parts: string[] = [];
  const makes = (filters.make ?? []).filter((make) => !makesWithModels.has(make)).map((make) => facetValueLabel('make', make, config));
  const modelNames = models.map((value) => `${facetValueLabel('make', value.split(MAKE_MODEL_SEPARATOR)[0], config)} ${facetValueLabel('make_model', value, config)}`);
  const vehicles = [...makes, ...modelNames].join(' or ');
  if (vehicles) parts.push(vehicles);
  if (state.q) parts.push(`“${state.q}”`);
  for (const facet of ['car_type', 'simple_body', 'simple_fuel', 'simple_transmission', 'simple_drive', 'colour', 'location_name', 'dealership_name'] as const) {
    const values = (filters[facet] ?? []).map((value) => facetValueLabel(facet, value, config));
    if (values.length) parts.push(values.join(' or '));
  }
  const price = rangeName(filters.price?.min, filters.price?.max, (v) => formatMoney(config, v), 'under', 'from');
  if (price) parts.push(price);
  const km = rangeName(filters.km?.min, filters.km?.max, (v) => formatOdometerValue(config, v), 'under', 'over');
  if (km) parts.push(km);
  const year = filters.year;
  if (year?.min != null && year.max == null) parts.push(`${year.min} or newer`);
  else if (year?.max != null && year.min == null) parts.push(`${year.max} or older`);
  else if (year?.min != null && year.max != null) parts.push(year.min === year.max ? String(year.min) : `${year.min}–${year.max}`);
  // Vehicles then their price read as one phrase ('Ford Ranger under $50,000'); the rest as a list.
  const name = vehicles && price && parts.length === 2 ? `${vehicles} ${price}` : parts.join(', ');
  const chosen = name || listing.heading;
  return chosen.length > SAVED_SEARCH_NAME_MAX ? `${chosen.slice(0, SAVED_SEARCH_NAME_MAX - 1).trimEnd()}…` : chosen;
}

export type SavedSearchView = {
  id: string;
  name: string;
  href: string;
  paused: boolean;
  /** Cars the search finds now; null when its page no longer exists on the website. */
  matching: number | null;
  /** Of those, listed since the visitor last looked at their saved searches. */
  new_since_last_visit: number | null;
  created_at: string;
};

const hrefOf = (row: { path: string; query: string }) => (row.query ? `${row.path}?${row.query}` : row.path);

/**
 * Saves the search of a search page URL for the customer, named from its filters; the same search
 * saved again is the one already saved (created false).
 */
export async function saveSearch(tenant: Tenant, customerId: string, href: string): Promise<{ id: string; name: string; href: string; created: boolean }> {
  const resolved = await resolveSearch(tenant, href);
  if (!resolved) throw new SavedSearchRefusal('href', SAVED_SEARCH_MESSAGES.notSearch);
  const db = await getDb();
  const mine = and(eq(savedSearches.websiteId, tenant.id), eq(savedSearches.customerId, customerId));
  const [existing] = await db
    .select({ id: savedSearches.id, name: savedSearches.name })
    .from(savedSearches)
    .where(and(mine, eq(savedSearches.path, resolved.path), eq(savedSearches.query, resolved.query)));
  if (existing) return { ...existing, href: hrefOf(resolved), created: false };
  const [{ saved }] = await db.select({ saved: count() }).from(savedSearches).where(mine);
  if (saved >= SAVED_SEARCHES_PER_CUSTOMER) throw new SavedSearchRefusal('href', SAVED_SEARCH_MESSAGES.tooMany);
  const name = savedSearchName(resolved.listing, resolved.state, tenant.config);
  const [row] = await db
    .insert(savedSearches)
    .values({ websiteId: tenant.id, customerId, name, path: resolved.path, query: resolved.query })
    .onConflictDoNothing({ target: [savedSearches.customerId, savedSearches.path, savedSearches.query] })
    .returning({ id: savedSearches.id, name: savedSearches.name });
  // Saved by a concurrent request between the read and the insert: that one is the saved search.
  if (!row) return saveSearch(tenant, customerId, href);
  return { ...row, href: hrefOf(resolved), created: true };
}

/**
 * The customer's saved searches, oldest first, each with the cars it finds now and those listed
 * since the customer last looked; looking counts as a visit, so the next list counts from now.
 */
export async function listSavedSearches(tenant: Tenant, customerId: string, now = new Date()): Promise<SavedSearchView[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.websiteId, tenant.id), eq(savedSearches.customerId, customerId)))
    .orderBy(asc(savedSearches.createdAt), asc(savedSearches.id));
  const listings: ListingCache = new Map();
  const views = await Promise.all(
    rows.map(async (row): Promise<SavedSearchView> => {
      const resolved = await resolveSearch(tenant, hrefOf(row), listings);
      const base = { id: row.id, name: row.name, href: hrefOf(row), paused: row.paused, created_at: row.createdAt.toISOString() };
      if (!resolved) return { ...base, matching: null, new_since_last_visit: null };
      const filters = engineFilters(resolved.state, resolved.listing.preset, tenant.config);
      const found = (extra: object) => searchStock(tenant, { q: resolved.state.q, filters: { ...filters, ...extra }, limit: 1, offset: 0 }, now);
      const [all, recent] = await Promise.all([found({}), found({ created_at_timestamp: { min: row.lastSeenAt.getTime() } })]);
      return { ...base, matching: all.estimatedTotalHits, new_since_last_visit: recent.estimatedTotalHits };
    }),
  );
  if (rows.length > 0) await db.update(savedSearches).set({ lastSeenAt: now }).where(inArray(savedSearches.id, rows.map((row) => row.id)));
  return views;
}

/** Renames or pauses one of the customer's saved searches; false when it is not theirs (or not of this website). */
export async function updateSavedSearch(tenant: Tenant, customerId: string, id: string, change: { name?: string; paused?: boolean }): Promise<boolean> {
  const db = await getDb();
  const updated = await db
    .update(savedSearches)
    .set(change)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.websiteId, tenant.id), eq(savedSearches.customerId, customerId)))
    .returning({ id: savedSearches.id });
  return updated.length > 0;
}

export async function deleteSavedSearch(tenant: Tenant, customerId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const deleted = await db
    .delete(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.websiteId, tenant.id), eq(savedSearches.customerId, customerId)))
    .returning({ id: savedSearches.id });
  return deleted.length > 0;
}
