import 'server-only';
import { cache } from 'react';
import { getDb, type Db } from '@/db';
import { currentGenerations } from './tenancy.generations';
import type { Tenant } from './tenancy.types';

/** What a website's pages show, as its two counters: website_generations and car_generations (0 when a website has no row yet). */
export type Generations = { website: string; cars: string };

/**
 * The generations the request's tenant lookup read with the website (findTenantByHost), so the
 * page cache's version, the memo below and the stock index need no read of their own. Per render
 * (React's cache); outside one (a route handler, the page cache checking an entry) it is empty
 * and each takes the process's (currentGenerations: kept current by the database's notifications).
 */
const generationsOfRequest = cache(() => new Map<number, Generations>());

export function rememberGenerations(websiteId: number, generations: Generations): void {
  generationsOfRequest().set(websiteId, generations);
}

export function generationsReadWith(websiteId: number): Generations | undefined {
  return generationsOfRequest().get(websiteId);
}

/**
 * The website's generation (migration 0013: bumped in the same transaction as every change to its
 * domains, dealerships, navigation, search pages, locations, special hours and content), read once
 * per request: the one the tenant lookup read, else the process's (decision 055). 'gone' when the
 * website no longer exists.
 */
export const websiteGeneration = cache(async (websiteId: number): Promise<string> => {
  return (generationsReadWith(websiteId) ?? (await currentGenerations(websiteId))).website;
});

/** Values kept per website; a website asked for more distinct keys than this starts afresh. */
export const MAX_KEYS_PER_WEBSITE = 500;

type Memo = { generation: string; values: Map<string, Promise<unknown>> };
// Per database as well: tests open a fresh one with the same website ids and generations.
const memosByDb = new WeakMap<Db, Map<number, Memo>>();

/**
 * What `load` gives for this website, kept in this process while the website's generation is the
 * one the request reads: one primary-key read instead of the query, and every replica still serves
 * what the database holds. For data the website generation covers (see websiteGeneration); the
 * value is shared between requests, so callers must not change it.
 */
export async function memoWhileWebsiteUnchanged<T>(tenant: Tenant, key: string, load: () => PromiseLike<T>): Promise<T> {
  const generation = await websiteGeneration(tenant.id);
  const db = await getDb();
  let memos = memosByDb.get(db);
  if (!memos) memosByDb.set(db, (memos = new Map()));
  let memo = memos.get(tenant.id);
  if (!memo || memo.generation !== generation) {
    memo = { generation, values: new Map() };
    memos.set(tenant.id, memo);
  }
  const known = memo.values.get(key) as Promise<T> | undefined;
  if (known) return known;
  if (memo.values.size >= MAX_KEYS_PER_WEBSITE) memo.values.clear();
  const values = memo.values;
  // A real promise: a query builder is a thenable that would run its query again on every await.
  const loading = Promise.resolve(load());
  values.set(key, loading);
  // A failed load is not kept: the next request tries again.
  loading.catch(() => {
    if (values.get(key) === loading) values.delete(key);
  });
  return loading;
}
