import 'server-only';
import { getDb } from '@/db';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { scopeForTenant } from './search.scope';
import { SqlSearchEngine } from './sql-search-engine';
import type { SearchEngine, SearchRequest, SearchResponse } from './search.types';

let engine: SearchEngine | undefined;

/** The platform's search engine: SQL on the application database. */
export async function getSearchEngine(): Promise<SearchEngine> {
  engine ??= new SqlSearchEngine(await getDb());
  return engine;
}

/** Searches the stock a website's visitors may see at `now`. */
export async function searchStock(tenant: Tenant, request: SearchRequest, now = new Date()): Promise<SearchResponse> {
  return (await getSearchEngine()).search(scopeForTenant(tenant, now), request);
}
