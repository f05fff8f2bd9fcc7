import { describe, expect, it } from 'vitest';
import { SORT_OPTIONS } from '@/modules/tenancy/tenancy.config';
import {
  activeFilterCount,
  API_DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_OFFSET,
  MAX_VALUES_PER_FILTER,
  parseSearchParams,
  searchHref,
  searchParamsFor,
  searchRequestSchema,
  type SearchState,
} from './search.validation';
import { FACETS, RANGE_FACETS, TERM_FACETS, type SortOption } from './search.types';

const SORTS: readonly SortOption[] = ['custom_rank:desc', 'created_at_timestamp:desc', 'price:desc', 'price:asc', 'km:asc'];

/** Where each issue points, as the route reports it: the path, or the unknown keys at that path. */
function problems(input: unknown): string[] {
  const parsed = searchRequestSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const at = issue.path.join('.');
    return issue.code === 'unrecognized_keys' ? `${at}${at ? '.' : ''}${issue.keys.join(',')}` : at;
  });
}

/** URLSearchParams → the shape Next.js gives searchParams (repeated keys become arrays). */
function raw(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

describe('searchRequestSchema (POST /api/search body, strict)', () => {
  it('fills limit 100 and offset 0 for an empty body', () => {
    expect(API_DEFAULT_LIMIT).toBe(100);
    expect(searchRequestSchema.parse({})).toEqual({ limit: 100, offset: 0 });
  });

  it('accepts a full request', () => {
    const request = {
      q: 'hilux',
      filters: { make: ['Toyota'], make_model: ['Toyota:HiLux'], price: { min: 10_000, max: 50_000 }, year: { min: 2020 } },
      facets: [...FACETS],
      sort: 'price:asc',
      limit: 24,
      offset: 48,
    };
    expect(searchRequestSchema.parse(request)).toEqual(request);
  });

  it('accepts every term facet and range facet as a filter', () => {
    const filters = Object.fromEntries([
      ...TERM_FACETS.map((f) => [f, ['x']]),
      ...RANGE_FACETS.map((f) => [f, { min: 1, max: 2 }]),
    ]);
    expect(searchRequestSchema.safeParse({ filters }).success).toBe(true);
  });

  it('refuses an unknown key at the top level, naming it', () => {
    expect(problems({ website_id: 2 })).toEqual(['website_id']);
    expect(problems({ q: 'x', websiteIds: [1, 2], tenant: 'b' })).toEqual(['websiteIds,tenant']);
    const parsed = searchRequestSchema.safeParse({ website_id: 2 });
    expect(parsed.error?.issues[0].message).toContain('website_id');
  });

  it('refuses an unknown filter key, naming it', () => {
    expect(problems({ filters: { bogus: ['x'] } })).toEqual(['filters.bogus']);
    expect(problems({ filters: { website_id: ['1'] } })).toEqual(['filters.website_id']);
    expect(problems({ filters: { price: { min: 1, gt: 2 } } })).toEqual(['filters.price.gt']);
    expect(problems({ filters: { make_model: ['A:B'], km_min: 5 } })).toEqual(['filters.km_min']);
  });

  it.each<[string, unknown, string]>([
    ['q as a number', { q: 5 }, 'q'],
    ['q as an array', { q: ['a'] }, 'q'],
    ['q over 200 characters', { q: 'x'.repeat(201) }, 'q'],
    ['limit as text', { limit: '10' }, 'limit'],
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['limit fractional', { limit: 1.5 }, 'limit'],
    ['limit null', { limit: null }, 'limit'],
    ['offset negative', { offset: -1 }, 'offset'],
    ['offset 10001', { offset: 10_001 }, 'offset'],
    ['offset as text', { offset: '0' }, 'offset'],
    ['offset fractional', { offset: 0.5 }, 'offset'],
    ['offset infinite', { offset: Infinity }, 'offset'],
    ['sort unknown', { sort: 'price:up' }, 'sort'],
    ['sort as SQL', { sort: 'price; drop table cars' }, 'sort'],
    ['facets unknown', { facets: ['make', 'website_id'] }, 'facets.1'],
    ['facets as text', { facets: 'make' }, 'facets'],
    ['filters as array', { filters: [] }, 'filters'],
    ['filters as text', { filters: 'make=Toyota' }, 'filters'],
    ['term filter as text', { filters: { make: 'Toyota' } }, 'filters.make'],
    ['term filter value as number', { filters: { make: [5] } }, 'filters.make.0'],
    ['term filter value as object', { filters: { colour: [{ $ne: null }] } }, 'filters.colour.0'],
    ['term filter value over 200 characters', { filters: { make: ['x'.repeat(201)] } }, 'filters.make.0'],
    ['more than 50 values', { filters: { make: Array.from({ length: 51 }, (_, i) => `m${i}`) } }, 'filters.make'],
    ['range as number', { filters: { price: 5 } }, 'filters.price'],
    ['range bound as text', { filters: { price: { min: '5' } } }, 'filters.price.min'],
    ['range bound as NaN text', { filters: { km: { max: 'NaN' } } }, 'filters.km.max'],
    ['range bound infinite', { filters: { year: { max: Infinity } } }, 'filters.year.max'],
    ['range bound NaN', { filters: { year: { min: NaN } } }, 'filters.year.min'],
    ['min above max', { filters: { price: { min: 50_000, max: 10_000 } } }, 'filters.price'],
  ])('refuses %s', (_label, input, field) => {
    expect(problems(input)).toContain(field);
  });

  it('bounds limit at 100 and offset at 10000, inclusive', () => {
    expect(MAX_LIMIT).toBe(100);
    expect(MAX_OFFSET).toBe(10_000);
    expect(searchRequestSchema.parse({ limit: 100, offset: 10_000 })).toMatchObject({ limit: 100, offset: 10_000 });
    expect(searchRequestSchema.parse({ limit: 1 }).limit).toBe(1);
  });

  it('accepts equal min and max, and open ranges', () => {
    expect(searchRequestSchema.safeParse({ filters: { price: { min: 5, max: 5 } } }).success).toBe(true);
    expect(searchRequestSchema.safeParse({ filters: { price: { min: 5 } } }).success).toBe(true);
    expect(searchRequestSchema.safeParse({ filters: { price: {} } }).success).toBe(true);
  });

  it('removes double quotes and control characters from filter values', () => {
    const parsed = searchRequestSchema.parse({ filters: { make: ['"Toyota"', 'Ma\u0000zda'], location_name: ['  "North" Yard '] } });
    expect(parsed.filters).toEqual({ make: ['Toyota', 'Mazda'], location_name: ['North Yard'] });
    expect(MAX_VALUES_PER_FILTER).toBe(50);
  });
});

describe('parseSearchParams (the search page URL, lenient)', () => {
  it('gives page 1 and no filters for an empty query string', () => {
    expect(parseSearchParams({}, SORTS)).toEqual({ filters: {}, page: 1 });
  });

  it('ignores unknown keys', () => {
    expect(parseSearchParams({ website_id: '2', foo: 'bar', make_model_x: 'A', 'price[min]': '5', utm_source: 'x' }, SORTS)).toEqual({
      filters: {},
      page: 1,
    });
  });

  it('reads term facets, one or many values, without duplicates or blanks', () => {
    const state = parseSearchParams({ make: ['Toyota', 'Mazda', 'Toyota', '', '  '], car_type: 'used', make_model: 'Toyota:HiLux' }, SORTS);
    expect(state.filters).toEqual({ make: ['Toyota', 'Mazda'], car_type: ['used'], make_model: ['Toyota:HiLux'] });
  });

  it('removes double quotes and control characters from filter values', () => {
    expect(parseSearchParams({ make: ['"Toyota"', '""', 'Ma\u0000zda'] }, SORTS).filters).toEqual({ make: ['Toyota', 'Mazda'] });
  });

  it('drops values over 200 characters and keeps at most 50', () => {
    expect(parseSearchParams({ make: ['x'.repeat(201), 'ok'] }, SORTS).filters).toEqual({ make: ['ok'] });
    const many = Array.from({ length: 80 }, (_, i) => `m${i}`);
    expect(parseSearchParams({ make: many }, SORTS).filters.make).toHaveLength(50);
  });

  it('reads ranges from _min and _max, dropping bad numbers', () => {
    expect(parseSearchParams({ price_min: '10000', price_max: '50000', year_min: '2018' }, SORTS).filters).toEqual({
      price: { min: 10_000, max: 50_000 },
      year: { min: 2018 },
    });
    expect(parseSearchParams({ km_max: ' 80000 ' }, SORTS).filters).toEqual({ km: { max: 80_000 } });
    for (const bad of ['abc', '', ' ', '1e5', '0x10', 'Infinity', 'NaN', '10,000', '$100', '1.', '.5', '--1', '5-', '1 2']) {
      expect(parseSearchParams({ price_min: bad }, SORTS).filters, bad).toEqual({});
    }
    expect(parseSearchParams({ price_min: 'abc', price_max: '900' }, SORTS).filters).toEqual({ price: { max: 900 } });
  });

  it('swaps min and max when min is above max', () => {
    expect(parseSearchParams({ price_min: '50000', price_max: '10000' }, SORTS).filters).toEqual({ price: { min: 10_000, max: 50_000 } });
    expect(parseSearchParams({ year_min: '2024', year_max: '2024' }, SORTS).filters).toEqual({ year: { min: 2024, max: 2024 } });
  });

  it('takes the first value of a repeated range bound, q, page or sort', () => {
    expect(parseSearchParams({ price_min: ['5', '7'] }, SORTS).filters).toEqual({ price: { min: 5 } });
    expect(parseSearchParams({ q: ['hilux', 'corolla'], page: ['3', '9'], sort: ['price:asc', 'km:asc'] }, SORTS)).toEqual({
      q: 'hilux',
      filters: {},
      sort: 'price:asc',
      page: 3,
    });
  });

  it.each<[string | string[], number]>([
    ['2', 2],
    ['1', 1],
    [' 7 ', 7],
    ['1000', 1000],
    ['0', 1],
    ['-1', 1],
    ['1.5', 1],
    ['2e3', 1],
    ['abc', 1],
    ['', 1],
    ['1234567', 1],
    ['99999999999999999999', 1],
    [['x', '2'], 1],
  ])('reads page %j as %i', (page, expected) => {
    expect(parseSearchParams({ page }, SORTS).page).toBe(expected);
  });

  it("keeps only a sort among the website's options", () => {
    expect(parseSearchParams({ sort: 'price:asc' }, SORTS).sort).toBe('price:asc');
    expect(parseSearchParams({ sort: 'km:desc' }, SORTS).sort).toBeUndefined();
    expect(parseSearchParams({ sort: 'km:desc' }, [...SORT_OPTIONS]).sort).toBe('km:desc');
    expect(parseSearchParams({ sort: 'price' }, SORTS).sort).toBeUndefined();
    expect(parseSearchParams({ sort: "price:asc'; drop table cars" }, SORTS).sort).toBeUndefined();
    expect(parseSearchParams({ sort: 'price:asc' }, []).sort).toBeUndefined();
  });

  it('trims q, turns control characters into spaces, bounds it at 100 characters and drops a blank one', () => {
    expect(parseSearchParams({ q: '  hilux\u0000sr5 ' }, SORTS).q).toBe('hilux sr5');
    expect(parseSearchParams({ q: 'x'.repeat(500) }, SORTS).q).toHaveLength(100);
    expect(parseSearchParams({ q: '   ' }, SORTS)).not.toHaveProperty('q');
    expect(parseSearchParams({ q: '' }, SORTS)).not.toHaveProperty('q');
  });
});

describe('searchParamsFor and searchHref (one URL per state)', () => {
  const states: SearchState[] = [
    { filters: {}, page: 1 },
    { q: 'hilux sr5', filters: {}, page: 2 },
    {
      q: 'Škoda & co',
      filters: {
        location_name: ['North Yard'],
        car_type: ['demo', 'new'],
        make: ['Mazda', 'Toyota'],
        make_model: ['Toyota:HiLux'],
        colour: ['Red / Black'],
        dealership_name: ["O'Brien Motors"],
        price: { min: 10_000, max: 50_000 },
        km: { max: 80_000 },
        year: { min: 2018 },
        subscription_price: { min: 99 },
      },
      sort: 'km:asc',
      page: 12,
    },
    { filters: { created_at_timestamp: { min: 1_700_000_000_000 }, price: { min: -5 } }, sort: 'price:desc', page: 1 },
  ];

  it.each(states.map((state, i) => [i, state] as const))('round-trips state %i', (_i, state) => {
    expect(parseSearchParams(raw(searchParamsFor(state)), SORT_OPTIONS)).toEqual(state);
  });

  it('writes keys in a fixed order whatever order the state was built in', () => {
    const a: SearchState = {
      page: 2,
      sort: 'price:asc',
      filters: { year: { max: 2020, min: 2010 }, make: ['Toyota', 'Audi'], car_type: ['used'] },
      q: 'x',
    };
    const b: SearchState = {
      q: 'x',
      filters: { car_type: ['used'], make: ['Audi', 'Toyota'], year: { min: 2010, max: 2020 } },
      sort: 'price:asc',
      page: 2,
    };
    const text = searchParamsFor(a).toString();
    expect(text).toBe('q=x&car_type=used&make=Audi&make=Toyota&year_min=2010&year_max=2020&sort=price%3Aasc&page=2');
    expect(searchParamsFor(b).toString()).toBe(text);
  });

  it('leaves out page 1 and the default sort', () => {
    expect(searchParamsFor({ filters: {}, sort: 'custom_rank:desc', page: 1 }, 'custom_rank:desc').toString()).toBe('');
    expect(searchParamsFor({ filters: {}, sort: 'custom_rank:desc', page: 1 }, 'price:asc').toString()).toBe('sort=custom_rank%3Adesc');
  });

  it('gives the bare path for an empty state and the query otherwise', () => {
    expect(searchHref('/search/used-cars', { filters: {}, page: 1 })).toBe('/search/used-cars');
    expect(searchHref('/search/used-cars', { filters: { make: ['Toyota'] }, page: 3 })).toBe('/search/used-cars?make=Toyota&page=3');
  });

  it('encodes values so they cannot break out of the query string', () => {
    const href = searchHref('/search/used-cars', { filters: { make: ['A&sort=x', 'B#c'] }, page: 1 });
    expect(parseSearchParams(raw(new URL(href, 'http://x').searchParams), SORTS).filters).toEqual({ make: ['A&sort=x', 'B#c'] });
  });
});

describe('activeFilterCount', () => {
  it('counts term values one each and ranges once each', () => {
    expect(activeFilterCount({})).toBe(0);
    expect(activeFilterCount({ make: ['Toyota', 'Mazda'], make_model: ['Toyota:HiLux'], price: { min: 1, max: 2 }, km: { max: 5 } })).toBe(5);
    expect(activeFilterCount({ make: [] })).toBe(0);
  });
});
