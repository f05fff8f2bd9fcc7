import type { FacetStats, RangeFacet, TermFacet } from './search.types';

/** Counts by raw value (location and dealership ids, 'Make:Model'), before names are put on. */
export type Tally = { counts: Map<TermFacet, Map<string, number>>; stats: Map<RangeFacet, FacetStats>; total: number };

export function newTally(): Tally {
  return { counts: new Map(), stats: new Map(), total: 0 };
}

export function addCount(tally: Tally, facet: TermFacet, key: string, n: number) {
  const counts = tally.counts.get(facet) ?? new Map<string, number>();
  counts.set(key, (counts.get(key) ?? 0) + n);
  tally.counts.set(facet, counts);
}

export function addStats(tally: Tally, facet: RangeFacet, found: FacetStats) {
  const known = tally.stats.get(facet);
  tally.stats.set(facet, known ? { min: Math.min(known.min, found.min), max: Math.max(known.max, found.max) } : found);
}
