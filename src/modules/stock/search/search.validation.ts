import { z } from 'zod';
import { SORT_OPTIONS } from '@/modules/tenancy/tenancy.config';
import { FACETS, RANGE_FACETS, TERM_FACETS, type RangeFacet, type SearchFilters, type SortOption, type TermFacet } from './search.types';
import { cleanFilterValue, MAX_QUERY_LENGTH } from './search.text';

/**
 * Search input, client-safe. Two doorways:
 * - searchRequestSchema: the JSON body of POST /api/search, strict (an unknown key or a wrong
 *   type is a 400 naming the field).
 * - parseSearchParams / searchParamsFor: the search page's query string, lenient (anything
 *   unusable is dropped, never an error), and the one way its links are written.
 */

/** SPEC §9: default search page limit 100. */
export const API_DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 100;
/** Deeper than any visitor pages; keeps OFFSET scans bounded. */
export const MAX_OFFSET = 10_000;
export const MAX_VALUES_PER_FILTER = 50;
const MAX_VALUE_LENGTH = 200;
const MAX_PAGE = 1_000;

const filterValue = z.string().max(MAX_VALUE_LENGTH).transform(cleanFilterValue);
/** Range bounds are whole numbers the columns can hold: int4, or epoch milliseconds for created_at_timestamp. */
const INT4_MAX = 2_147_483_647;
export const RANGE_BOUND: Record<RangeFacet, number> = {
  price: INT4_MAX,
  subscription_price: INT4_MAX,
  km: INT4_MAX,
  year: INT4_MAX,
  created_at_timestamp: 8_640_000_000_000_000,
};

const rangeOf = (facet: RangeFacet) => {
  const bound = z.number().int().min(-RANGE_BOUND[facet]).max(RANGE_BOUND[facet]).optional();
  return z
    .object({ min: bound, max: bound })
    .strict()
    .refine((r) => r.min == null || r.max == null || r.min <= r.max, { message: 'min must not be above max' });
};

const filtersSchema = z
  .object({
    ...(Object.fromEntries(TERM_FACETS.map((f) => [f, z.array(filterValue).max(MAX_VALUES_PER_FILTER).optional()])) as Record<
      TermFacet,
      z.ZodOptional<z.ZodArray<typeof filterValue>>
    >),
    ...(Object.fromEntries(RANGE_FACETS.map((f) => [f, rangeOf(f).optional()])) as Record<
      RangeFacet,
      z.ZodOptional<ReturnType<typeof rangeOf>>
    >),
  })
  .strict();

export const searchRequestSchema = z
  .object({
    q: z.string().max(MAX_QUERY_LENGTH * 2).optional(),
    filters: filtersSchema.optional(),
    facets: z.array(z.enum(FACETS)).max(FACETS.length).optional(),
    sort: z.enum(SORT_OPTIONS).optional(),
    limit: z.number().int().min(1).max(MAX_LIMIT).default(API_DEFAULT_LIMIT),
    offset: z.number().int().min(0).max(MAX_OFFSET).default(0),
  })
  .strict();

export type SearchRequestInput = z.input<typeof searchRequestSchema>;

/** What the search page's URL holds. */
export type SearchState = {
  q?: string;
  filters: SearchFilters;
  sort?: SortOption;
  page: number;
};

type RawParams = Record<string, string | string[] | undefined>;

const list = (value: string | string[] | undefined): string[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
const first = (value: string | string[] | undefined): string | undefined => list(value)[0];

/** A whole number within the facet's bounds (decimals rounded), or undefined. */
function rangeParam(value: string | string[] | undefined, facet: RangeFacet): number | undefined {
  const text = first(value)?.trim();
  if (!text || !/^-?\d{1,16}(\.\d+)?$/.test(text)) return undefined;
  const n = Math.round(Number(text));
  return Math.abs(n) <= RANGE_BOUND[facet] ? n : undefined;
}

/** The search page's query string → state. Unknown keys, bad numbers and unknown sorts are dropped. */
export function parseSearchParams(params: RawParams, sortOptions: readonly SortOption[]): SearchState {
  const filters: SearchFilters = {};
  for (const facet of TERM_FACETS) {
    const values = [
      ...new Set(
        list(params[facet])
          .filter((v) => v.length <= MAX_VALUE_LENGTH)
          .map(cleanFilterValue)
          .filter(Boolean),
      ),
    ].slice(0, MAX_VALUES_PER_FILTER);
    if (values.length > 0) filters[facet] = values;
  }
  for (const facet of RANGE_FACETS) {
    let min = rangeParam(params[`${facet}_min`], facet);
    let max = rangeParam(params[`${facet}_max`], facet);
    if (min != null && max != null && min > max) [min, max] = [max, min];
    if (min != null || max != null) filters[facet] = { ...(min != null && { min }), ...(max != null && { max }) };
  }
  const q = first(params.q)
    ?.slice(0, MAX_QUERY_LENGTH)
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim();
  const sort = first(params.sort) as SortOption | undefined;
  const pageText = first(params.page)?.trim() ?? '';
  const page = /^\d{1,6}$/.test(pageText) ? Number(pageText) : 1;
  return {
    ...(q && { q }),
    filters,
    ...(sort && sortOptions.includes(sort) && { sort }),
    page: page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

/**
 * State → query string, keys in a fixed order so each state has one URL. The default sort and
 * page 1 are left out.
 */
export function searchParamsFor(state: SearchState, defaultSort?: SortOption): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  for (const facet of TERM_FACETS) for (const value of [...(state.filters[facet] ?? [])].sort()) params.append(facet, value);
  for (const facet of RANGE_FACETS) {
    const r = state.filters[facet];
    if (r?.min != null) params.set(`${facet}_min`, String(r.min));
    if (r?.max != null) params.set(`${facet}_max`, String(r.max));
  }
  if (state.sort && state.sort !== defaultSort) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

export function searchHref(path: string, state: SearchState, defaultSort?: SortOption): string {
  const query = searchParamsFor(state, defaultSort).toString();
  return query ? `${path}?${query}` : path;
}

/** Number of selected filter values (ranges count once each). */
export function activeFilterCount(filters: SearchFilters): number {
  let n = 0;
  for (const facet of TERM_FACETS) n += filters[facet]?.length ?? 0;
  for (const facet of RANGE_FACETS) if (filters[facet]) n += 1;
  return n;
}
