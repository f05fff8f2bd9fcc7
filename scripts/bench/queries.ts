/**
 * The fixed query mix of the stock-search benchmark, timed through SearchEngine.search().
 */
import type { Facet, SearchEngine, SearchRequest, SearchScope, SortOption } from '../../src/modules/stock/search/search.types';
import { FACETS } from '../../src/modules/stock/search/search.types';
import { SORT_OPTIONS, websiteConfigSchema } from '../../src/modules/tenancy/tenancy.config';
import { facetsForSidebar } from '../../src/modules/stock/search/search.view';

/** The facets the search page's sidebar asks for (every filter of the default website config). */
export const SIDEBAR_FACETS: readonly Facet[] = facetsForSidebar(websiteConfigSchema.parse({}), []);

export const PAGE_SIZE = 24;
/** Listed when the data is queried: sold cars count for 3 days (the default includeSoldCarsDays). */
const SOLD_WINDOW_MS = 3 * 86_400_000;

export type Scope = 'one website' | 'all websites';
export type Kind = {
  name: string;
  request: (i: number) => SearchRequest;
  /** Untimed work before each run of the query (warm-up runs too). */
  prepare?: (i: number) => Promise<void>;
};

/** make + body + price range combinations that exist in the generated stock. */
const THREE_FILTERS: ReadonlyArray<{ make: string; body: string; min: number; max: number }> = [
  { make: 'Toyota', body: 'SUV', min: 25_000, max: 70_000 },
  { make: 'Mazda', body: 'SUV', min: 20_000, max: 50_000 },
  { make: 'Ford', body: 'Ute', min: 30_000, max: 80_000 },
  { make: 'Hyundai', body: 'Hatchback', min: 10_000, max: 35_000 },
  { make: 'Kia', body: 'SUV', min: 15_000, max: 60_000 },
  { make: 'Mitsubishi', body: 'Ute', min: 15_000, max: 55_000 },
];

/** Misspelt searches a visitor types: each should still find cars by trigram similarity. */
const TYPO_QUERIES = ['toyta hilux', 'corola', 'mazda cx5', 'hyundia tucson', 'ford rangr', 'mitsubishi outlandr', 'landcrusier'];

/**
 * The kinds of query, each a function of the iteration number so consecutive iterations vary their
 * values (and, for one website, their website: see scopeFor). `stocknum(i)` gives an existing stock
 * number of the website iteration i queries; `stockChange(i)` changes a car of that website the way
 * a dealer's update does, so the next search cannot reuse anything counted before the change.
 */
export function queryKinds(stocknum: (i: number) => string, stockChange: (i: number) => Promise<void>): Kind[] {
  const ui = (extra: Partial<SearchRequest>): SearchRequest => ({ facets: SIDEBAR_FACETS, limit: PAGE_SIZE, offset: 0, ...extra });
  const threeFilters = (i: number) => {
    const f = THREE_FILTERS[i % THREE_FILTERS.length];
    return ui({ filters: { make: [f.make], simple_body: [f.body], price: { min: f.min, max: f.max } } });
  };
  const kinds: Kind[] = [
    { name: 'no filter', request: () => ui({}) },
    { name: 'no filter, just after a stock change', request: () => ui({}), prepare: stockChange },
    { name: '3 filters (make, body, price)', request: threeFilters },
    // The stock index (decision 020) loads a changed website's cars again before counting.
    { name: '3 filters, just after a stock change', request: threeFilters, prepare: stockChange },
    { name: 'text with a typo', request: (i) => ui({ q: TYPO_QUERIES[i % TYPO_QUERIES.length] }) },
    { name: 'stock number', request: (i) => ui({ q: stocknum(i) }) },
    { name: 'every facet', request: () => ({ facets: FACETS, limit: PAGE_SIZE, offset: 0 }) },
  ];
  for (const sort of SORT_OPTIONS) kinds.push({ name: `sort ${sort}`, request: () => ui({ sort: sort as SortOption }) });
  kinds.push({ name: 'page 40', request: () => ui({ offset: 39 * PAGE_SIZE }) });
  return kinds;
}

export function scopeFor(scope: Scope, websiteIds: readonly number[], i: number, now: Date): SearchScope {
  return {
    websiteIds: scope === 'one website' ? [websiteIds[i % websiteIds.length]] : websiteIds,
    soldSince: new Date(now.getTime() - SOLD_WINDOW_MS),
    minPhotos: null,
    cities: [],
    makes: [],
    defaultSort: 'custom_rank:desc',
  };
}

export type KindResult = {
  kind: string;
  scope: Scope;
  iterations: number;
  p50: number;
  p95: number;
  p99: number;
  /** Median estimatedTotalHits, as a sanity check that the query finds what it should. */
  medianHits: number;
};

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export async function runKind(
  engine: SearchEngine,
  kind: Kind,
  scope: Scope,
  options: { websiteIds: readonly number[]; now: Date; warmup: number; iterations: number },
): Promise<KindResult> {
  const { websiteIds, now, warmup, iterations } = options;
  for (let i = 0; i < warmup; i++) {
    await kind.prepare?.(i);
    await engine.search(scopeFor(scope, websiteIds, i, now), kind.request(i));
  }
  const times: number[] = [];
  const hits: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const searchScope = scopeFor(scope, websiteIds, i, now);
    const request = kind.request(i);
    await kind.prepare?.(i);
    const started = performance.now();
    const response = await engine.search(searchScope, request);
    times.push(performance.now() - started);
    hits.push(response.estimatedTotalHits);
  }
  times.sort((a, b) => a - b);
  hits.sort((a, b) => a - b);
  return {
    kind: kind.name,
    scope,
    iterations,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    medianHits: percentile(hits, 50),
  };
}
