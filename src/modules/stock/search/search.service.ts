import 'server-only';
import { getDatabase } from '@/db';
import { heldGenerationsOf } from '@/modules/tenancy/tenancy.generations';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { scopeForTenant } from './search.scope';
import { SqlSearchEngine } from './sql-search-engine';
import type { SearchEngine, SearchRequest, SearchResponse } from './search.types';

/**
 * One engine per database handle in the process, kept on globalThis: Next bundles this module into
 * each route's server code, and the routes should share one stock index (decision 020).
 */
const globalEngines = globalThis as unknown as { __searchEngines?: WeakMap<object, SearchEngine> };

/** The platform's search engine: SQL on the application database. */
export async function getSearchEngine(): Promise<SearchEngine> {
  const handle = await getDatabase();
  const engines = (globalEngines.__searchEngines ??= new WeakMap());
  let engine = engines.get(handle.db);
  if (!engine) engines.set(handle.db, (engine = new SqlSearchEngine(handle.db, { generations: heldGenerationsOf(handle) })));
  return engine;
}

/** Searches the stock a website's visitors may see at `now`. */
export async function searchStock(tenant: Tenant, request: SearchRequest, now = new Date()): Promise<SearchResponse> {
  return (await getSearchEngine()).search(scopeForTenant(tenant, now), request);
}

/**
 * For each search (text and filters, as searchStock takes them), which of a few cars of the website
 * it finds at `now`: the cars among its hits. The alerts sweep's test of new stock against saved searches.
 */
export async function matchCars(tenant: Tenant, searches: readonly Pick<SearchRequest, 'q' | 'filters'>[], carIds: readonly number[], now = new Date()): Promise<number[][]> {
  return (await getSearchEngine()).matchCars(scopeForTenant(tenant, now), searches, carIds);
}
