import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { websites } from '../tenancy/tenancy.schema';

/**
 * Stock lookups (car by slug, search slugs, search page templates, manufacturer stock) are cached
 * in process, keyed by (websiteId, stock_version, key). stock_version is bumped in the transaction
 * of every stock change and read from the database on every request (a primary-key lookup), so an
 * entry can never outlive the data it was built from and every replica agrees; the cache is only
 * a per-process shortcut, bounded in size (LRU) and in age (SPEC §9: 604800 s).
 */

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    readonly maxEntries: number,
    readonly maxAgeMs: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: now + this.maxAgeMs });
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

export const DASHBOARD_CACHE_MAX_ENTRIES = 1000;
export const DASHBOARD_CACHE_MAX_AGE_MS = 604_800_000;

const globalForCache = globalThis as unknown as { __dashboardLookupCache?: LruCache<unknown> };
const lookupCache = (globalForCache.__dashboardLookupCache ??= new LruCache<unknown>(
  DASHBOARD_CACHE_MAX_ENTRIES,
  DASHBOARD_CACHE_MAX_AGE_MS,
));

/** The website's stock_version, or null when the website does not exist. */
export async function getStockVersion(websiteId: number): Promise<number | null> {
  const db = await getDb();
  const [row] = await db.select({ stockVersion: websites.stockVersion }).from(websites).where(eq(websites.id, websiteId));
  return row ? row.stockVersion : null;
}

/** Strong ETag of a website's stock at a version. */
export function stockEtag(websiteId: number, stockVersion: number): string {
  return `"w${websiteId}-s${stockVersion}"`;
}

export type VersionedLookup<T> = { value: T; stockVersion: number; etag: string; cached: boolean };

/**
 * The value of `key` for the website at its current stock_version: from the cache, or from
 * `load` (whose result, null included, is then cached).
 */
export async function cachedStockLookup<T>(websiteId: number, key: string, load: () => Promise<T>): Promise<VersionedLookup<T>> {
  const stockVersion = (await getStockVersion(websiteId)) ?? 0;
  const cacheKey = `${websiteId}:${stockVersion}:${key}`;
  const hit = lookupCache.get(cacheKey) as { value: T } | undefined;
  if (hit) return { value: hit.value, stockVersion, etag: stockEtag(websiteId, stockVersion), cached: true };
  const value = await load();
  lookupCache.set(cacheKey, { value });
  return { value, stockVersion, etag: stockEtag(websiteId, stockVersion), cached: false };
}

/** For tests and operations. */
export function clearDashboardCache(): void {
  lookupCache.clear();
}

export function dashboardCacheSize(): number {
  return lookupCache.size;
}
