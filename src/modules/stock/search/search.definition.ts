import { MIN_SHOWN_PRICE } from '../stock.rules';
import { cleanFilterValue, type SearchTerm } from './search.text';
import {
  MAKE_MODEL_SEPARATOR,
  RANGE_FACETS,
  TERM_FACETS,
  type RangeFacet,
  type SearchFilters,
  type SearchScope,
  type SortOption,
  type TermFacet,
} from './search.types';

/**
 * Every search rule, declared once (decision 062): which cars a scope lists, what each facet's
 * filter keeps, what a text term matches, and how each sort orders. Each rule is a `Predicate` (or a list of sort keys) over named
 * columns; the SQL statement (search.sql.ts, `toSql`) and the stock index (stock-index.ts,
 * `toMask`) each compile it, so neither writes a rule of its own. Pure and client-safe.
 */

/** A column both engines know by this name: a facet's column, a sort's, or one the scope reads. */
export type Column = TermFacet | RangeFacet | SortColumn | 'photos' | 'sold_date';
export type SortColumn = 'custom_rank' | 'created_at' | 'id' | 'price' | 'km' | 'subscription_price';
/** A value a term facet compares: text, a flag, or a (make, model) pair. */
export type Value = string | boolean | readonly [string, string];

/**
 * A rule about one car. A null column never matches (SQL's coalesce(…, false)); there is no
 * negation, so SQL's three-valued logic and the index's two values agree.
 */
export type Predicate =
  /** The column's value is one of these (none: nothing matches). */
  | { op: 'in'; column: TermFacet; values: readonly Value[] }
  /** The column holds the id of one of the scope's locations or dealerships with one of these names. */
  | { op: 'named'; column: 'location_name' | 'dealership_name'; names: readonly string[] }
  /** The column's value is one of these, ignoring case (both sides lowered: the same whatever the database's ctype). */
  | { op: 'inIgnoringCase'; column: 'city' | 'make'; values: readonly string[] }
  /** min ≤ value ≤ max, either bound left out when null. */
  | { op: 'between'; column: RangeFacet | 'photos'; min: number | null; max: number | null }
  /** The column's instant is at or after this one. */
  | { op: 'since'; column: 'sold_date'; instant: Date }
  /** The car's search_text holds `text` as a whole word. */
  | { op: 'word'; text: string }
  /** The car's search_text contains `text`. */
  | { op: 'contains'; text: string }
  /** The car's search_text holds, as a whole word, a vocabulary word (search_words) similar to `text` (pg_trgm). */
  | { op: 'similar'; text: string }
  /** At least one of these (none: nothing matches). */
  | { op: 'any'; of: readonly Predicate[] }
  /** Every one of these (none: every car matches). */
  | { op: 'all'; of: readonly Predicate[] };

/** Statuses listed whatever the date (SPEC §4); sold cars are listed for the website's sold window. */
export const AVAILABLE_STATUSES = ['in_stock', 'coming_soon'] as const;

/**
 * Which of its websites' cars shown on the dealer website a scope lists (SPEC §4, §7, §9): those in
 * stock or coming soon, or sold since scope.soldSince, with the website's standing filters
 * (minimum photos, cities, makes; cities and makes ignoring case). Which websites, and only cars
 * shown on the dealer website, is where each engine reads: the statement's WHERE, the index's copies.
 */
export function scopePredicate(scope: Pick<SearchScope, 'soldSince' | 'minPhotos' | 'cities' | 'makes'>): Predicate {
  const available: Predicate = { op: 'in', column: 'status', values: AVAILABLE_STATUSES };
  const of: Predicate[] = [
    scope.soldSince
      ? {
          op: 'any',
          of: [available, { op: 'all', of: [{ op: 'in', column: 'status', values: ['sold'] }, { op: 'since', column: 'sold_date', instant: scope.soldSince }] }],
        }
      : available,
  ];
  if (scope.minPhotos != null) of.push({ op: 'between', column: 'photos', min: scope.minPhotos, max: null });
  if (scope.cities.length > 0) of.push({ op: 'inIgnoringCase', column: 'city', values: scope.cities });
  if (scope.makes.length > 0) of.push({ op: 'inIgnoringCase', column: 'make', values: scope.makes });
  return { op: 'all', of };
}

/** How a facet filters: its filter group's kind. */
type FacetKind =
  /** The car's value is one of the selected ones. */
  | 'term'
  /** 'true' / 'false' values of a boolean column; anything else selects nothing. */
  | 'bool'
  /** Location or dealership names, matched by the ids of the scope's locations or dealerships so named. */
  | 'named'
  /** Makes and models filter together (see `makeGroup`). */
  | 'make'
  | 'range';

/** Each facet's kind, and the filter group it belongs to (make_model is the make group's). */
export const FACET_DEFINITIONS: Record<TermFacet | RangeFacet, { kind: FacetKind; group: TermFacet | RangeFacet }> = {
  location_name: { kind: 'named', group: 'location_name' },
  car_type: { kind: 'term', group: 'car_type' },
  make: { kind: 'make', group: 'make' },
  make_model: { kind: 'make', group: 'make' },
  model: { kind: 'term', group: 'model' },
  colour: { kind: 'term', group: 'colour' },
  simple_body: { kind: 'term', group: 'simple_body' },
  simple_transmission: { kind: 'term', group: 'simple_transmission' },
  simple_drive: { kind: 'term', group: 'simple_drive' },
  simple_fuel: { kind: 'term', group: 'simple_fuel' },
  dealership_name: { kind: 'named', group: 'dealership_name' },
  status: { kind: 'term', group: 'status' },
  badge: { kind: 'term', group: 'badge' },
  city: { kind: 'term', group: 'city' },
  state: { kind: 'term', group: 'state' },
  item_type: { kind: 'term', group: 'item_type' },
  tag: { kind: 'term', group: 'tag' },
  certified: { kind: 'bool', group: 'certified' },
  price: { kind: 'range', group: 'price' },
  subscription_price: { kind: 'range', group: 'subscription_price' },
  km: { kind: 'range', group: 'km' },
  year: { kind: 'range', group: 'year' },
  created_at_timestamp: { kind: 'range', group: 'created_at_timestamp' },
};

/**
 * A search's filters as filter groups: a car passes a group when it passes its predicate; it is a
 * hit when it passes every group. A facet counts the cars failing no group or only its own
 * (disjunctive facets). Both engines evaluate these.
 */
export type FilterGroup = { key: TermFacet | RangeFacet; predicate: Predicate };

/** Filter group of a facet: make and make_model filter together. */
export function groupOf(facet: TermFacet | RangeFacet): TermFacet | RangeFacet {
  return FACET_DEFINITIONS[facet].group;
}

function cleanValues(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map(cleanFilterValue).filter(Boolean))];
}

/**
 * make and make_model: a car passes when its (make, model) is selected, or its make is and none of
 * that make's models is. A 'Make:Model' value is split at the first separator (a model may hold
 * one); a value without both matches nothing.
 */
function makeGroup(filters: SearchFilters): FilterGroup | null {
  const makes = cleanValues(filters.make);
  const makeModelValues = cleanValues(filters.make_model);
  if (makes.length === 0 && makeModelValues.length === 0) return null;
  const makeModels = makeModelValues.flatMap((value) => {
    const at = value.indexOf(MAKE_MODEL_SEPARATOR);
    const model = value.slice(at + 1);
    return at > 0 && model ? [[value.slice(0, at), model] as const] : [];
  });
  const narrowed = new Set(makeModels.map(([make]) => make));
  const wholeMakes = makes.filter((make) => !narrowed.has(make));
  const of: Predicate[] = [];
  if (makeModels.length > 0) of.push({ op: 'in', column: 'make_model', values: makeModels });
  if (wholeMakes.length > 0) of.push({ op: 'in', column: 'make', values: wholeMakes });
  return { key: 'make', predicate: { op: 'any', of } };
}

/** The filter groups of a search's filters, in a fixed order: make, the other term facets in TERM_FACETS order, then ranges. */
export function filterGroups(filters: SearchFilters): FilterGroup[] {
  const make = makeGroup(filters);
  const groups: FilterGroup[] = make ? [make] : [];
  for (const facet of TERM_FACETS) {
    const { kind } = FACET_DEFINITIONS[facet];
    if (kind === 'make') continue;
    const values = cleanValues(filters[facet]);
    if (values.length === 0) continue;
    if (kind === 'named') {
      groups.push({ key: facet, predicate: { op: 'named', column: facet as 'location_name' | 'dealership_name', names: values } });
    } else if (kind === 'bool') {
      const flags = values.filter((v) => v === 'true' || v === 'false').map((v) => v === 'true');
      groups.push({ key: facet, predicate: { op: 'in', column: facet, values: flags } });
    } else groups.push({ key: facet, predicate: { op: 'in', column: facet, values } });
  }
  for (const facet of RANGE_FACETS) {
    const range = filters[facet];
    if (range && (range.min != null || range.max != null)) {
      groups.push({ key: facet, predicate: { op: 'between', column: facet, min: range.min ?? null, max: range.max ?? null } });
    }
  }
  return groups;
}

/** The name look-ups (locations, dealerships) in a predicate. */
export function namedIn(predicate: Predicate): Extract<Predicate, { op: 'named' }>[] {
  if (predicate.op === 'named') return [predicate];
  return predicate.op === 'any' || predicate.op === 'all' ? predicate.of.flatMap(namedIn) : [];
}

/**
 * What a text term matches (SPEC §5, search.text.ts): a stock-number-like term only as a whole
 * word; any other as a substring, and a fuzzy one also by holding a similar vocabulary word. Every
 * term must match.
 */
export function termPredicate(term: SearchTerm): Predicate {
  if (term.exact) return { op: 'word', text: term.text };
  const asWritten = termFoundAsWritten(term);
  return term.fuzzy ? { op: 'any', of: [asWritten, { op: 'similar', text: term.text }] } : asWritten;
}

/** Relevance: a term counts 1 where this matches (the term found as written, not only fuzzily). */
export function termFoundAsWritten(term: SearchTerm): Predicate {
  return { op: 'contains', text: term.text };
}

/**
 * A sort key: a column in a direction (`nullsLast`: cars without a value after the others either
 * way), or a predicate whose cars go after the others (`last`).
 */
export type SortKey = { column: SortColumn; direction: 'asc' | 'desc'; nullsLast?: true } | { last: Predicate };

/** Ties in every sort go to the newest car, then the highest id. */
export const TIE_BREAK: readonly SortKey[] = [
  { column: 'created_at', direction: 'desc' },
  { column: 'id', direction: 'desc' },
];

/**
 * The visitor's sorts (SPEC §5). `relevanceFirst`: with a fuzzy term, cars with more terms found as
 * written come first ('most relevant'). TIE_BREAK follows every sort's keys.
 */
export const SORT_DEFINITIONS: Record<SortOption, { keys: readonly SortKey[]; relevanceFirst?: true }> = {
  'custom_rank:desc': { keys: [{ column: 'custom_rank', direction: 'desc' }], relevanceFirst: true },
  'created_at_timestamp:desc': { keys: [] },
  // 'Enquire for price.' cars (price 10 or less, SPEC §5) after the priced ones, not first.
  'price:asc': {
    keys: [
      { last: { op: 'between', column: 'price', min: null, max: MIN_SHOWN_PRICE } },
      { column: 'price', direction: 'asc' },
    ],
  },
  'price:desc': { keys: [{ column: 'price', direction: 'desc' }] },
  'km:asc': { keys: [{ column: 'km', direction: 'asc' }] },
  'km:desc': { keys: [{ column: 'km', direction: 'desc' }] },
  // Cars without a subscription price come last either way.
  'subscription_price:asc': { keys: [{ column: 'subscription_price', direction: 'asc', nullsLast: true }] },
  'subscription_price:desc': { keys: [{ column: 'subscription_price', direction: 'desc', nullsLast: true }] },
};

/** A sort's keys in order, the tie-break included. */
export function sortKeys(sort: SortOption): readonly SortKey[] {
  return [...SORT_DEFINITIONS[sort].keys, ...TIE_BREAK];
}
