import { describe, expect, it } from 'vitest';
import { FACETS, pageCount, RANGE_FACETS, TERM_FACETS } from './search.types';

describe('pageCount (SPEC §7: pages = ceil(total / limit))', () => {
  it.each([
    [0, 24, 0],
    [1, 24, 1],
    [23, 24, 1],
    [24, 24, 1],
    [25, 24, 2],
    [100, 100, 1],
    [101, 100, 2],
    [61, 1, 61],
  ])('%i results at %i a page make %i pages', (total, limit, pages) => {
    expect(pageCount(total, limit)).toBe(pages);
  });

  it('gives 0 pages for a limit of 0 or less rather than Infinity', () => {
    expect(pageCount(10, 0)).toBe(0);
    expect(pageCount(10, -5)).toBe(0);
  });
});

describe('facets (SPEC §3 Search facets)', () => {
  it('has the range facets of the spec and no facet twice', () => {
    expect([...RANGE_FACETS].sort()).toEqual(['created_at_timestamp', 'km', 'price', 'subscription_price', 'year']);
    expect(new Set(FACETS).size).toBe(FACETS.length);
    expect(FACETS).toHaveLength(TERM_FACETS.length + RANGE_FACETS.length);
  });
});
