import type { FacetStats, RangeFacet, TermFacet } from './search.types';

/** Counts by raw value (location and dealership ids, 'Make:Model'), before names are put on. */
export type Tally = { counts: Map<TermFacet, Map<string, number>>; stats: Map<RangeFacet, FacetStats>; total: number };

export function newTally(): Tally {
  return { counts: new Map(), stats: new Map(), total: 0 };
}

/** The facet's counts, added to the tally on first use. */
export function tallyCounts(tally: Tally, facet: TermFacet): Map<string, number> {
  let counts = tally.counts.get(facet);
  if (!counts) {
    counts = new Map();
    tally.counts.set(facet, counts);
  }
  return counts;
}

export function addCount(tally: Tally, facet: TermFacet, key: string, n: number) {
  const counts = tallyCounts(tally, facet);
  counts.set(key, (counts.get(key) ?? 0) + n);
}

export function addStats(tally: Tally, facet: RangeFacet, found: FacetStats) {
  const known = tally.stats.get(facet);
  tally.stats.set(facet, known ? { min: Math.min(known.min, found.min), max: Math.max(known.max, found.max) } : found);
}
