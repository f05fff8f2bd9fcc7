import 'server-only';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { formatMoney, formatOdometerValue } from '@/lib/format';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { websiteGeneration } from '@/modules/tenancy/tenancy.memo';
import {
  engineFilters,
  facetValueLabel,
  MAKE_MODEL_SEPARATOR,
  parseSearchParams,
  resolveSearchListing,
  searchParamsFor,
  searchStock,
  visitorState,
  type SearchFilters,
  type SearchListing,
  type SearchState,
} from '@/modules/stock/server';
import { savedSearches, type ResolvedFilters } from './alerts.schema';

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

/** The makes a search's filters name, lower case; empty when it takes any make. */
export function makesOf(filters: Pick<SearchFilters, 'make' | 'make_model'>): string[] {
  return [...new Set([...(filters.make ?? []), ...(filters.make_model ?? []).map((value) => value.split(MAKE_MODEL_SEPARATOR)[0])].map((make) => make.toLowerCase()))];
}

/** What a saved search keeps of its resolved page (saved_searches.resolved and makes): the engine's text and filters, and the makes they name. */
export function storedResolution(resolved: ResolvedSearch, tenant: Tenant): { resolved: ResolvedFilters; makes: string[] } {
  const filters = engineFilters(resolved.state, resolved.listing.preset, tenant.config);
  return { resolved: { ...(resolved.state.q ? { q: resolved.state.q } : {}), filters }, makes: makesOf(filters) };
}

/** Stores what saved searches of a website resolve to (by path and query: every visitor's copy), under the website generation read before resolving. */
export async function storeResolutions(websiteId: number, generation: string, resolutions: { path: string; query: string; resolved: ResolvedFilters; makes: string[] }[]): Promise<void> {
  if (resolutions.length === 0) return;
  const db = await getDb();
  await db.execute(sql`
    update saved_searches ss set resolved = v.resolved, makes = v.makes, resolved_generation = ${generation}
    from jsonb_to_recordset(${JSON.stringify(resolutions)}::jsonb) as v(path text, query text, resolved jsonb, makes text[])
    where ss.website_id = ${websiteId} and ss.path = v.path and ss.query = v.query`);
}

/**
 * Resolves and stores the website's saved searches not resolved under its current generation (all
 * of them after migration 0022), as the sweep does for those it reads; a deployment (or the
 * alerts benchmark's seed) runs it ahead of the first sweep. The number of distinct searches resolved.
 */
export async function resolveStoredSearches(tenant: Tenant): Promise<number> {
  const db = await getDb();
  const [{ generation }] = rowsOf<{ generation: string }>(
    await db.execute(sql`select coalesce((select generation from website_generations where website_id = ${tenant.id}), 0)::text as generation`),
  );
  const stale = rowsOf<{ path: string; query: string }>(
    await db.execute(sql`select distinct path, query from saved_searches where website_id = ${tenant.id} and resolved_generation is distinct from ${generation}`),
  );
  const listings: ListingCache = new Map();
  const resolutions = [];
  for (const { path, query } of stale) {
    const found = await resolveSearch(tenant, query ? `${path}?${query}` : path, listings);
    if (found) resolutions.push({ path, query, ...storedResolution(found, tenant) });
  }
  for (let i = 0; i < resolutions.length; i += 1_000) await storeResolutions(tenant.id, generation, resolutions.slice(i, i + 1_000));
  return resolutions.length;
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
  // Read before resolving: a change to the website in between leaves the resolution older than its generation says, so the sweep resolves it again.
  const generation = await websiteGeneration(tenant.id);
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
    .values({ websiteId: tenant.id, customerId, name, path: resolved.path, query: resolved.query, ...storedResolution(resolved, tenant), resolvedGeneration: generation })
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
