import type { SORT_OPTIONS } from '@/modules/tenancy/tenancy.config';
import type { CarSummary } from '../stock.types';

/**
 * The stock search contract (SPEC §7 'Search service'). Client-safe: plain types and constants.
 * The SQL engine implements it today; a dedicated engine (Meilisearch, Typesense) could later.
 */

/** Facets counted by value (SPEC §3 'Search facets'). make_model values are 'Make:Model'. */
export const TERM_FACETS = [
  'location_name',
  'car_type',
  'make',
  'make_model',
  'model',
  'colour',
  'simple_body',
  'simple_transmission',
  'simple_drive',
  'simple_fuel',
  'dealership_name',
  'status',
  'badge',
  'city',
  'state',
  'item_type',
  'tag',
  'certified',
] as const;

/** Facets with a minimum and maximum (SPEC §3). created_at_timestamp is epoch milliseconds. */
export const RANGE_FACETS = ['price', 'subscription_price', 'km', 'year', 'created_at_timestamp'] as const;

export const FACETS = [...TERM_FACETS, ...RANGE_FACETS] as const;

export type TermFacet = (typeof TERM_FACETS)[number];
export type RangeFacet = (typeof RANGE_FACETS)[number];
export type Facet = (typeof FACETS)[number];
export type SortOption = (typeof SORT_OPTIONS)[number];

/** Separator of make_model values: 'Toyota:HiLux'. */
export const MAKE_MODEL_SEPARATOR = ':';

export type Range = { min?: number; max?: number };

/** Selected values: OR within a facet, AND across facets. Ranges are inclusive. */
export type SearchFilters = Partial<Record<TermFacet, string[]>> & Partial<Record<RangeFacet, Range>>;

export type SearchRequest = {
  /** Free text over make, model, badge, series, colour, stock number and VIN. */
  q?: string;
  filters?: SearchFilters;
  /** Facets to count; facetDistribution and facetStats hold only these. */
  facets?: readonly Facet[];
  /** Defaults to the website's default sort. */
  sort?: SortOption;
  limit: number;
  offset: number;
};

export type FacetStats = { min: number; max: number };

/** SPEC §7 response of one search query. */
export type SearchResponse = {
  hits: CarSummary[];
  estimatedTotalHits: number;
  processingTimeMs: number;
  /** Per facet, value → number of cars; a facet's own selection is ignored (disjunctive). */
  facetDistribution: Partial<Record<TermFacet, Record<string, number>>>;
  facetStats: Partial<Record<RangeFacet, FacetStats>>;
  limit: number;
  offset: number;
};

/**
 * Which cars a search may see: the websites, and the rules that make a car listed there
 * (SPEC §4, §7: shown on the dealer website, and available or sold since soldSince), plus the
 * website's standing filters (SPEC §9).
 */
export type SearchScope = {
  websiteIds: readonly number[];
  /** Sold cars with a sold date at or after this instant are listed; null lists no sold car. */
  soldSince: Date | null;
  minPhotos: number | null;
  cities: readonly string[];
  makes: readonly string[];
  defaultSort: SortOption;
};

export interface SearchEngine {
  search(scope: SearchScope, request: SearchRequest): Promise<SearchResponse>;
  /** For each search, which of `carIds` it finds (the ids among its hits). */
  matchCars(scope: SearchScope, searches: readonly Pick<SearchRequest, 'q' | 'filters'>[], carIds: readonly number[]): Promise<number[][]>;
}

/** SPEC §7: pages = ceil(total / limit). */
export function pageCount(total: number, limit: number): number {
  return limit > 0 ? Math.ceil(total / limit) : 0;
}
