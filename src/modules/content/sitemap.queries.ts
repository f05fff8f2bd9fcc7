import 'server-only';
import { asc, count, eq, max } from 'drizzle-orm';
import { getDb } from '@/db';
import { listVisibleLocations } from '@/modules/locations/server';
import { listedMakesAndModels, scopeForTenant, scopeWhere, isValidCarSlug } from '@/modules/stock/server';
import { cars } from '@/modules/stock/stock.schema';
import { slugify } from '@/lib/slug';
import { carPath, carTypeSearchPath, searchPath } from '@/modules/tenancy/tenancy.paths';
import { dealerships, searchPages } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { contentPages } from './content.schema';
import { contentPagePath } from './content.routing';
import { SITEMAP_MAX_URLS, type SitemapEntry } from './sitemap.xml';

/**
 * What a website's sitemap lists (SPEC §2 routes): the home page, its search landing pages (all
 * stock, car types, every make and model of its listed stock, its dealer-defined search pages and
 * its dealerships), its contact and location pages, its content pages, and every car it lists
 * (visibleCarsWhere, the same rule as the car page). Nothing of another website: every query is
 * filtered by the tenant.
 *
 * Past `maxUrls` (50,000, the protocol's limit) /sitemap.xml becomes an index of parts,
 * /sitemaps/pages-{n}.xml and /sitemaps/cars-{n}.xml, each at most `maxUrls` URLs; a cars part is
 * one query (ordered by id, offset and limit), so 100,000 cars never sit in memory at once.
 */

export type SitemapTenant = Tenant;

export type SitemapPart = { kind: 'pages' | 'cars'; number: number };

export type SitemapPlan = {
  /** Every URL that is not a car page, in a stable order, without duplicates. */
  pages: SitemapEntry[];
  carCount: number;
  carsLastModified: Date | null;
  maxUrls: number;
  /** Null when everything fits in one file; else the parts the index lists. */
  parts: SitemapPart[] | null;
};

export function partPath(part: SitemapPart): string {
  return `/sitemaps/${part.kind}-${part.number}.xml`;
}

/** `cars-2.xml` → { kind: 'cars', number: 2 }; anything else null. */
export function parsePartName(name: string): SitemapPart | null {
  const match = /^(pages|cars)-([1-9]\d{0,5})\.xml$/.exec(name);
  return match ? { kind: match[1] as SitemapPart['kind'], number: Number(match[2]) } : null;
}

function clampMaxUrls(maxUrls: number): number {
  return Math.min(Math.max(1, Math.trunc(maxUrls) || SITEMAP_MAX_URLS), SITEMAP_MAX_URLS);
}

/** Contact and location pages: /contact, each visible location's page and its dealership's contact page. */
async function locationEntries(tenant: SitemapTenant): Promise<SitemapEntry[]> {
  const visible = await listVisibleLocations(tenant);
  return [
    { path: '/contact' },
    ...visible.map((location) => ({ path: location.path })),
    ...visible.map((location) => ({ path: location.contactPath })),
  ];
}

async function contentEntries(tenant: SitemapTenant): Promise<SitemapEntry[]> {
  const db = await getDb();
  const rows = await db
    .select({ slug: contentPages.slug, kind: contentPages.kind, updatedAt: contentPages.updatedAt })
    .from(contentPages)
    .where(eq(contentPages.websiteId, tenant.id))
    .orderBy(asc(contentPages.kind), asc(contentPages.slug));
  const entries: SitemapEntry[] = [];
  const latest = (kind: string) =>
    rows.filter((row) => row.kind === kind).reduce<Date | null>((a, row) => (!a || row.updatedAt > a ? row.updatedAt : a), null);
  const blogUpdated = latest('blog');
  if (blogUpdated) entries.push({ path: '/blog', lastModified: blogUpdated });
  const careersUpdated = latest('career');
  // /careers lists the positions (with the page of that slug as its introduction).
  if (careersUpdated) entries.push({ path: '/careers', lastModified: careersUpdated });
  for (const row of rows) entries.push({ path: contentPagePath(tenant.config, row), lastModified: row.updatedAt });
  return entries;
}

async function searchEntries(tenant: SitemapTenant, now: Date): Promise<SitemapEntry[]> {
  const db = await getDb();
  const [types, stock, pages, dealers] = await Promise.all([
    db
      .selectDistinct({ carType: cars.carType })
      .from(cars)
      .where(scopeWhere(scopeForTenant(tenant, now)))
      .orderBy(asc(cars.carType)),
    listedMakesAndModels(tenant),
    db.select({ slug: searchPages.slug }).from(searchPages).where(eq(searchPages.websiteId, tenant.id)).orderBy(asc(searchPages.slug)),
    db.select({ slug: dealerships.slug }).from(dealerships).where(eq(dealerships.websiteId, tenant.id)).orderBy(asc(dealerships.slug)),
  ]);
  const all = searchPath(tenant);
  const paths = [all];
  if (tenant.config.search.allStockPath) paths.push(tenant.config.search.allStockPath);
  for (const { carType } of types) paths.push(carTypeSearchPath(carType));
  for (const { make, model } of stock) {
    const makeSlug = slugify(make);
    const modelSlug = slugify(model);
    if (!makeSlug) continue;
    paths.push(`${all}/${makeSlug}`);
    if (modelSlug) paths.push(`${all}/${makeSlug}/${modelSlug}`);
  }
  for (const page of pages) paths.push(`/search/${page.slug}`);
  // 'See more from this dealer' pages, when the website has more than one dealership.
  if (dealers.length > 1) for (const dealer of dealers) paths.push(`/search/${dealer.slug.toLowerCase()}`);
  return paths.map((path) => ({ path }));
}

/** Counts and the non-car URLs of a website's sitemap, and whether it needs an index. */
export async function sitemapPlan(tenant: SitemapTenant, options: { now?: Date; maxUrls?: number } = {}): Promise<SitemapPlan> {
  const now = options.now ?? new Date();
  const maxUrls = clampMaxUrls(options.maxUrls ?? SITEMAP_MAX_URLS);
  const db = await getDb();
  const [search, locationPages, content, [carTotals]] = await Promise.all([
    searchEntries(tenant, now),
    locationEntries(tenant),
    contentEntries(tenant),
    db
      .select({ count: count(), lastModified: max(cars.updatedAt) })
      .from(cars)
      .where(scopeWhere(scopeForTenant(tenant, now))),
  ]);

  const seen = new Set<string>();
  const pages: SitemapEntry[] = [];
  for (const entry of [{ path: '/' }, ...search, ...locationPages, ...content]) {
    if (seen.has(entry.path)) continue;
    seen.add(entry.path);
    pages.push(entry);
  }
  const carCount = Number(carTotals?.count ?? 0);
  const carsLastModified = carTotals?.lastModified ? new Date(carTotals.lastModified) : null;

  let parts: SitemapPart[] | null = null;
  if (pages.length + carCount > maxUrls) {
    parts = [];
    for (let n = 1; n <= Math.ceil(pages.length / maxUrls); n++) parts.push({ kind: 'pages', number: n });
    for (let n = 1; n <= Math.ceil(carCount / maxUrls); n++) parts.push({ kind: 'cars', number: n });
  }
  return { pages, carCount, carsLastModified, maxUrls, parts };
}

/** Listed cars of the website, by id: `limit` from `offset`, as sitemap entries. One query. */
export async function carEntries(
  tenant: SitemapTenant,
  range: { offset: number; limit: number },
  now = new Date(),
): Promise<SitemapEntry[]> {
  if (range.limit <= 0) return [];
  const db = await getDb();
  const rows = await db
    .select({ slug: cars.slug, updatedAt: cars.updatedAt })
    .from(cars)
    .where(scopeWhere(scopeForTenant(tenant, now)))
    .orderBy(asc(cars.id))
    .offset(range.offset)
    .limit(range.limit);
  return rows.filter((row) => isValidCarSlug(row.slug)).map((row) => ({ path: carPath(tenant, row.slug), lastModified: row.updatedAt }));
}

/** The entries of one part of an index (null when the plan has no such part). */
export async function partEntries(tenant: SitemapTenant, plan: SitemapPlan, part: SitemapPart, now = new Date()): Promise<SitemapEntry[] | null> {
  if (!plan.parts?.some((p) => p.kind === part.kind && p.number === part.number)) return null;
  const offset = (part.number - 1) * plan.maxUrls;
  if (part.kind === 'pages') return plan.pages.slice(offset, offset + plan.maxUrls);
  return carEntries(tenant, { offset, limit: plan.maxUrls }, now);
}

/** Every entry of a sitemap that fits in one file: the pages, then the cars (one query). */
export async function singleFileEntries(tenant: SitemapTenant, plan: SitemapPlan, now = new Date()): Promise<SitemapEntry[][]> {
  // Never more than the file may hold, even if cars were added since the plan counted them.
  return [plan.pages, await carEntries(tenant, { offset: 0, limit: plan.maxUrls - plan.pages.length }, now)];
}
