import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db';
import { precompiled, queryPrepared } from '@/db/prepared';
import { generationsReadWith } from '@/modules/tenancy/tenancy.memo';
import { carChanges, cars } from '../stock.schema';
import { carGenerations, dealerships, websiteGenerations } from '@/modules/tenancy/tenancy.schema';
import type { Generations } from '@/modules/tenancy/tenancy.memo';
import { locations } from '@/modules/locations/locations.schema';
import { CARD_TEXT_COLUMNS, summaryColumns, toSummary, type SummaryRow } from '../stock.queries';
import { TERM_COLUMN, type BaseColumn } from './search.columns';
import {
  AVAILABLE_STATUSES,
  groupOf,
  scopePredicate,
  SORT_DEFINITIONS,
  sortKeys,
  termFoundAsWritten,
  termPredicate,
  type FilterGroup,
  type Predicate,
  type SortColumn,
  type Value,
} from './search.definition';
import { addStats, newTally, tallyCounts, type Tally } from './search.tally';
import { isStockNumberLike, type SearchTerm } from './search.text';
import type { CarSummary } from '../stock.types';
import { MAKE_MODEL_SEPARATOR, type RangeFacet, type SearchRequest, type SearchScope, type SortOption, type TermFacet } from './search.types';

/**
 * The stock index (decision 020): each website's listed cars, the columns a search evaluates and
 * the rest of each car's card, held column by column in this process so a search counts tens of
 * thousands of cars in a few milliseconds and makes its page of hits from the same copy (decision
 * 072). Every search first brings the copies up to date (`sync`: each website's generations, and
 * the cars changed since, from the change log), so every answer is what the database held when the
 * generations were read, on every replica, as with the page cache (decision 016); a stock number
 * outside a render, what the process holds as current (decision 071).
 */

/**
 * Columns held as per-website dictionaries (each car a code into the column's distinct values),
 * as text: certified as 'true'/'false' and location and dealership ids as digits, as the SQL
 * facets key them.
 */
const DICTIONARY_COLUMNS = Object.fromEntries(Object.entries(TERM_COLUMN).map(([facet, column]) => [facet, sql`${column}::text`])) as Record<BaseColumn, SQL>;
type DictionaryColumn = keyof typeof DICTIONARY_COLUMNS;
const DICTIONARY_NAMES = Object.keys(DICTIONARY_COLUMNS) as DictionaryColumn[];

/** Numeric columns, null as NaN. Times in microseconds since the epoch, as exact as the database's. */
const NUMBER_COLUMNS = {
  id: sql`${cars.id}`,
  customRank: sql`${cars.customRank}`,
  createdUs: sql`(extract(epoch from ${cars.createdAt}) * 1000000)::int8`,
  price: sql`${cars.price}`,
  km: sql`${cars.km}`,
  year: sql`${cars.year}`,
  subscriptionPrice: sql`${cars.subscriptionPrice}`,
  photos: sql`${cars.photosCount}`,
  soldUs: sql`case when ${cars.status} = 'sold' then (extract(epoch from ${cars.soldDate}) * 1000000)::int8 end`,
} as const;
type NumberColumn = keyof typeof NUMBER_COLUMNS;
const NUMBER_NAMES = Object.keys(NUMBER_COLUMNS) as NumberColumn[];

type Dictionary = { codes: Int32Array; values: (string | null)[] };

export type WebsiteStock = {
  websiteId: number;
  generation: number;
  /** Sold cars sold at or after this instant (ms) are held; null: no sold car is. */
  soldSinceMs: number | null;
  size: number;
  numbers: Record<NumberColumn, Float64Array>;
  /** created_at in epoch ms as the SQL filter rounds it, and as its stats truncate it. */
  createdMs: Float64Array;
  createdStatsMs: Float64Array;
  text: Record<DictionaryColumn, Dictionary>;
  /** 'Make:Model' of each car. */
  makeModel: Dictionary;
  /** The cars' search_text (lowercase words, accents folded) between two spaces, for text terms. */
  searchText: string[];
  /**
   * Each whole word of search_text (between two spaces) with the cars holding it, ascending (one
   * car as a number): built on the copy's first search with a term that is not stock-number-like (`wordIndex`).
   */
  words: Words | null;
  /**
   * Each stock-number-like word of search_text (search.text.ts: stock numbers, and VINs or model
   * names of that shape) with the cars holding it, ascending (one car as a number): built with the
   * copy, so a stock-number search is a map lookup (decision 062).
   */
  stockNumbers: Map<string, number | number[]>;
  /** The cars (indexes) in each sort's order, sorted on the copy's first search with that sort (`carsInOrder`). */
  orders: Map<SortOption, Int32Array>;
  /** Each car's card columns not held above, as JSON (CARD_TEXT_COLUMNS; `cardOf`). */
  cards: string[];
  /** Cards made from this copy (`cardOf`), by car index: the pages most visitors see are made once. */
  cardsMade: Map<number, CarSummary>;
  /** The website's locations and dealerships, read with the cars (`cardOf`, and the facets' names). */
  places: Places;
};

/**
 * A website's locations (as a card shows them) and dealerships' names, read at its website
 * generation, which every change of them moves.
 */
type Places = {
  websiteGeneration: string;
  locations: Map<number, { name: string; slug: string; city: string }>;
  dealerships: Map<number, string>;
};


export type FacetNames = { locations: Map<number, string>; dealerships: Map<number, string> };

/** Cards kept made per copy: enough for the pages most visitors see, not a crawler's walk through every page. */
export const CARDS_MADE_PER_COPY = 1_000;

/** The cars of a copy kept when it is patched, by index. */
type Kept = { stock: WebsiteStock; cars: Int32Array };

/** A dictionary column: the kept cars' codes (the old dictionary grows), then the added values. */
function dictionary(added: readonly (string | null)[], kept: Kept | null, old: (stock: WebsiteStock) => Dictionary): Dictionary {
  const from = kept ? old(kept.stock) : null;
  const distinct = from ? [...from.values] : [];
  const known = new Map(distinct.map((value, code) => [value, code]));
  const keptCount = kept ? kept.cars.length : 0;
  const codes = new Int32Array(keptCount + added.length);
  for (let j = 0; j < keptCount; j++) codes[j] = from!.codes[kept!.cars[j]];
  added.forEach((value, k) => {
    let code = known.get(value);
    if (code === undefined) {
      code = distinct.length;
      known.set(value, code);
      distinct.push(value);
    }
    codes[keptCount + k] = code;
  });
  return { codes, values: distinct };
}

/** A number column (null as NaN): the kept cars' values, then the added ones. */
function numberColumn(added: readonly (number | string | null)[], kept: Kept | null, old: (stock: WebsiteStock) => Float64Array): Float64Array {
  const keptCount = kept ? kept.cars.length : 0;
  const values = new Float64Array(keptCount + added.length);
  if (kept) {
    const from = old(kept.stock);
    for (let j = 0; j < keptCount; j++) values[j] = from[kept.cars[j]];
  }
  added.forEach((v, k) => (values[keptCount + k] = v == null ? NaN : Number(v)));
  return values;
}

/** Column values as loaded: numbers first, in NUMBER_NAMES order, then DICTIONARY_NAMES, then search_text, then the card's text. */
type Columns = (number | string | null)[][];

const SEARCH_TEXT_COLUMN = NUMBER_NAMES.length + DICTIONARY_NAMES.length;
const CARD_COLUMN = SEARCH_TEXT_COLUMN + 1;
const CARD_TEXT = sql`json_build_array(${sql.join(
  CARD_TEXT_COLUMNS.map((key) => summaryColumns[key]),
  sql`, `,
)})::text`;

type SyncRow = {
  website_id: number;
  generation: number | string;
  /** 'patch': `columns` holds the changed cars; 'full': every car; 'places': no car, only the places. */
  mode: 'patch' | 'full' | 'places';
  changed: number[] | null;
  columns: Columns | null;
  website_generation: string;
  /** [id, name, slug, city] of each location, [id, name] of each dealership. */
  locations: [number, string, string, string][] | null;
  dealerships: [number, string][] | null;
};

/**
 * The cars a copy holds: shown on the dealer website, and listed for the copy's sold window (the
 * widest a search may ask for; each search then applies its own scope, scopePredicate).
 */
const listedCondition = precompiled(sql`${cars.showOnDealerWebsite} and (${cars.status} in (${sql.raw(AVAILABLE_STATUSES.map((status) => `'${status}'`).join(', '))}) or (${cars.status} = 'sold' and ${cars.soldDate} >= w.sold_since))`);
// One aggregation pass fills every array in the same row order.
const aggregates = precompiled(
  sql.join(
    [...NUMBER_NAMES.map((n) => NUMBER_COLUMNS[n]), ...DICTIONARY_NAMES.map((n) => DICTIONARY_COLUMNS[n]), sql`${cars.searchText}`, CARD_TEXT].map(
      (column) => sql`array_agg(${column})`,
    ),
    sql`, `,
  ),
);
/** Website w's places (`placesOf`). */
const placesColumns = precompiled(sql`
  (select json_agg(json_build_array(${locations.id}, ${locations.name}, ${locations.slug}, ${locations.city})) from ${locations} where ${locations.websiteId} = w.id) as locations,
  (select json_agg(json_build_array(${dealerships.id}, ${dealerships.name})) from ${dealerships} where ${dealerships.websiteId} = w.id) as dealerships`);

/**
 * One statement, one snapshot: for each website whose car generation is not the one held (-1:
 * nothing held), the generation and the cars to read: those the change log (car_changes) lists
 * since the held generation, or every listed car when the log no longer reaches back that far;
 * for a website whose cars are held but whose website generation is not, only its places
 * ('places'). Each row has the website's generation and places.
 */
function syncSql(websiteIds: readonly number[], held: readonly number[], heldPlaces: readonly string[], soldSince: readonly string[]): SQL {
  const array = (values: readonly (number | string)[], type: string) => sql`${`{${values.join(',')}}`}::${sql.raw(type)}`;
  return sql`
    select w.id as website_id, current.generation, m.mode, ch.changed, case m.mode when 'full' then whole.columns when 'patch' then changed.columns end as columns,
      site.generation::text as website_generation, ${placesColumns}
    from unnest(${array(websiteIds, 'int[]')}, ${array(held, 'int8[]')}, ${array(heldPlaces, 'int8[]')}, ${array(soldSince, 'timestamptz[]')}) as w(id, held, held_places, sold_since)
    cross join lateral (select coalesce((select ${carGenerations.generation} from ${carGenerations} where ${carGenerations.websiteId} = w.id), 0) as generation) current
    cross join lateral (select coalesce((select ${websiteGenerations.generation} from ${websiteGenerations} where ${websiteGenerations.websiteId} = w.id), 0) as generation) site
    cross join lateral (
      select case
        when current.generation = w.held then 'places'
        when w.held >= 0 and w.held < current.generation and exists (
          select 1 from ${carChanges} where ${carChanges.websiteId} = w.id and ${carChanges.generation} = w.held + 1) then 'patch'
        else 'full' end as mode
    ) m
    cross join lateral (
      select array_agg(distinct ${carChanges.carId}) as changed from ${carChanges}
      where m.mode = 'patch' and ${carChanges.websiteId} = w.id and ${carChanges.generation} > w.held
    ) ch
    cross join lateral (
      select json_build_array(${aggregates}) as columns from ${cars}
      where m.mode = 'full' and ${cars.websiteId} = w.id and ${listedCondition}
    ) whole
    cross join lateral (
      select json_build_array(${aggregates}) as columns from ${cars}
      where m.mode = 'patch' and ${cars.id} = any(ch.changed) and ${cars.websiteId} = w.id and ${listedCondition}
    ) changed
    -- A copy that is current needs nothing: no row.
    where current.generation <> w.held or site.generation <> w.held_places`;
}

/** Generations for every website of a scope, or null when one is not known. */
function generationsOf(websiteIds: readonly number[], known: (websiteId: number) => Generations | undefined): Map<number, Generations> | null {
  const found = new Map<number, Generations>();
  for (const id of websiteIds) {
    const generations = known(id);
    if (!generations) return null;
    found.set(id, generations);
  }
  return found;
}

/** The websites' generations (a website with none has generation 0, as in syncSql). */
function generationsSql(websiteIds: readonly number[]): SQL {
  return sql`select w.id as website_id, coalesce(${carGenerations.generation}, 0)::text as cars, coalesce(${websiteGenerations.generation}, 0)::text as website
    from unnest(${`{${websiteIds.join(',')}}`}::int[]) as w(id)
    left join ${carGenerations} on ${carGenerations.websiteId} = w.id left join ${websiteGenerations} on ${websiteGenerations.websiteId} = w.id`;
}

/**
 * A website's copy from loaded columns: all its cars, or (`kept`) a held copy's unchanged cars
 * followed by the changed cars read again.
 */
function toStock(websiteId: number, generation: number, soldSinceMs: number | null, places: Places, columns: Columns, kept: Kept | null = null): WebsiteStock {
  const added = (columns[0] ?? []).length;
  const column = (c: number) => columns[c] ?? new Array<null>(added).fill(null);
  const numbers = Object.fromEntries(NUMBER_NAMES.map((name, c) => [name, numberColumn(column(c), kept, (s) => s.numbers[name])])) as Record<NumberColumn, Float64Array>;
  const text = Object.fromEntries(
    DICTIONARY_NAMES.map((name, c) => [name, dictionary(column(NUMBER_NAMES.length + c) as (string | null)[], kept, (s) => s.text[name])]),
  ) as Record<DictionaryColumn, Dictionary>;
  const size = numbers.id.length;
  const keptCount = size - added;
  const makeModels = Array.from({ length: added }, (_, k) => {
    const make = text.make.values[text.make.codes[keptCount + k]];
    const model = text.model.values[text.model.codes[keptCount + k]];
    return make && model ? `${make}${MAKE_MODEL_SEPARATOR}${model}` : null;
  });
  // Padded with spaces, so a whole word is ' word ' wherever it is.
  const searchText = [...(kept ? Array.from(kept.cars, (i) => kept.stock.searchText[i]) : []), ...(column(SEARCH_TEXT_COLUMN) as (string | null)[]).map((t) => ` ${t ?? ''} `)];
  return {
    websiteId,
    generation,
    soldSinceMs,
    size,
    numbers,
    // The SQL filter rounds (numeric to bigint, half away from zero); its stats truncate (a JS Date).
    createdMs: numbers.createdUs.map((us) => Math.round(us / 1000)),
    createdStatsMs: numbers.createdUs.map((us) => Math.floor(us / 1000)),
    text,
    makeModel: dictionary(makeModels, kept, (s) => s.makeModel),
    searchText,
    words: null,
    stockNumbers: stockNumberMap(searchText, kept),
    orders: new Map(),
    cards: [...(kept ? Array.from(kept.cars, (i) => kept.stock.cards[i]) : []), ...(column(CARD_COLUMN) as string[])],
    places,
    cardsMade: new Map(),
  };
}

/** A website's places as the sync statement read them. */
function placesOf(row: SyncRow): Places {
  return {
    websiteGeneration: row.website_generation,
    locations: new Map((row.locations ?? []).map(([id, name, slug, city]) => [Number(id), { name, slug, city }])),
    dealerships: new Map((row.dealerships ?? []).map(([id, name]) => [Number(id), name])),
  };
}

/** The card columns held as text, in CARD_TEXT_COLUMNS order. */
type CardText = [string, string, string | null, string, number | null, boolean, boolean, number | null, string | null];

/**
 * Car i's card, as the stock queries' row would give it (toSummary): the searched columns from the
 * copy's arrays, the rest from its text, its location from the website's places. Frozen: the
 * pages that show it share it.
 */
export function cardOf(stock: WebsiteStock, i: number): CarSummary {
  const made = stock.cardsMade.get(i);
  if (made) return made;
  const card = makeCard(stock, i);
  if (card.image) Object.freeze(card.image);
  if (card.location) Object.freeze(card.location);
  Object.freeze(card);
  if (stock.cardsMade.size < CARDS_MADE_PER_COPY) stock.cardsMade.set(i, card);
  return card;
}

function makeCard(stock: WebsiteStock, i: number): CarSummary {
  const [slug, name, series, priceType, beforePrice, reserved, preorder, soldDateTimestamp, imageUrl] = JSON.parse(stock.cards[i]) as CardText;
  const text = (column: DictionaryColumn) => stock.text[column].values[stock.text[column].codes[i]];
  const number = (column: NumberColumn) => (Number.isNaN(stock.numbers[column][i]) ? null : stock.numbers[column][i]);
  const locationId = text('location_name');
  const place = locationId == null ? undefined : stock.places.locations.get(Number(locationId));
  return toSummary({
    id: stock.numbers.id[i],
    slug,
    name,
    make: text('make'),
    model: text('model'),
    badge: text('badge'),
    series,
    year: number('year'),
    km: number('km'),
    price: number('price'),
    priceType,
    beforePrice,
    subscriptionPrice: number('subscriptionPrice'),
    carType: text('car_type'),
    status: text('status'),
    itemType: text('item_type'),
    certified: text('certified') === 'true',
    reserved,
    preorder,
    // A copy holds only cars shown on the dealer website (listedCondition).
    showOnDealerWebsite: true,
    photosCount: number('photos'),
    tag: text('tag'),
    simpleFuel: text('simple_fuel'),
    simpleBody: text('simple_body'),
    simpleTransmission: text('simple_transmission'),
    city: text('city'),
    state: text('state'),
    createdAtTimestamp: stock.createdMs[i],
    soldDateTimestamp,
    imageUrl,
    locationName: place?.name ?? null,
    locationSlug: place?.slug ?? null,
    locationCity: place?.city ?? null,
  } as SummaryRow);
}

/** The names of the locations and dealerships a tally counted, from the copies' places. */
export function facetNames(stocks: readonly WebsiteStock[], tally: Tally): FacetNames {
  const names: FacetNames = { locations: new Map(), dealerships: new Map() };
  const counted = (facet: TermFacet) => [...(tally.counts.get(facet)?.keys() ?? [])].map(Number);
  const [locationIds, dealershipIds] = [counted('location_name'), counted('dealership_name')];
  for (const { places } of stocks) {
    for (const id of locationIds) if (places.locations.has(id)) names.locations.set(id, places.locations.get(id)!.name);
    for (const id of dealershipIds) if (places.dealerships.has(id)) names.dealerships.set(id, places.dealerships.get(id)!);
  }
  return names;
}

/** The held copy without the changed cars, plus the changed cars that are still listed. */
function patched(stock: WebsiteStock, generation: number, places: Places, changed: readonly number[], columns: Columns | null): WebsiteStock {
  const gone = new Set(changed);
  const cars: number[] = [];
  for (let i = 0; i < stock.size; i++) if (!gone.has(stock.numbers.id[i])) cars.push(i);
  const kept = { stock, cars: Int32Array.from(cars) };
  const copy = toStock(stock.websiteId, generation, stock.soldSinceMs, places, columns ?? [], kept);
  inheritOrders(copy, kept);
  return copy;
}

/**
 * A copy's words: each with the cars holding it (`cars`), and all of them in one string, one a
 * line (`lines`, word k from `starts[k]`), so a term is looked for in every word by a few native
 * indexOf calls.
 */
type Words = { cars: Map<string, number | number[]>; lines: string; starts: Int32Array; carsOf: (number | number[])[] };

/** The copy's words, built once per copy. */
function wordIndex(stock: WebsiteStock): Words {
  if (stock.words) return stock.words;
  const cars = new Map<string, number | number[]>();
  for (let i = 0; i < stock.size; i++) {
    for (const word of stock.searchText[i].split(' ')) {
      if (word === '') continue;
      const held = cars.get(word);
      if (held === undefined) cars.set(word, i);
      else if (typeof held === 'number') {
        if (held !== i) cars.set(word, [held, i]);
      } else if (held[held.length - 1] !== i) held.push(i);
    }
  }
  const starts = new Int32Array(cars.size);
  let at = 0;
  let k = 0;
  for (const word of cars.keys()) {
    starts[k++] = at;
    at += word.length + 1;
  }
  stock.words = { cars, lines: [...cars.keys()].join('\n'), starts, carsOf: [...cars.values()] };
  return stock.words;
}

/** The cars holding a word that contains `term` (which holds no space or line break), each list once. */
function* carsContaining(words: Words, term: string): Generator<number | number[]> {
  const { lines, starts, carsOf } = words;
  for (let at = lines.indexOf(term); at !== -1; ) {
    // The word the match is in: the last one starting at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= at) low = mid;
      else high = mid - 1;
    }
    yield carsOf[low];
    at = low + 1 < starts.length ? lines.indexOf(term, starts[low + 1]) : -1;
  }
}

const isLetter = (code: number) => code >= 97 && code <= 122;
const isDigit = (code: number) => code >= 48 && code <= 57;

/** Whether text[from, to) is stock-number-like (isStockNumberLike: letters, 3 or more digits, letters), read by character. */
function isStockNumberWord(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && isLetter(text.charCodeAt(i))) i++;
  const digits = i;
  while (i < to && isDigit(text.charCodeAt(i))) i++;
  if (i - digits < 3) return false;
  while (i < to && isLetter(text.charCodeAt(i))) i++;
  return i === to;
}

/** Adds car i to a word's cars (ascending, cars added in order). */
function addCar(map: Map<string, number | number[]>, word: string, i: number): void {
  const held = map.get(word);
  if (held === undefined) map.set(word, i);
  else if (typeof held === 'number') {
    if (held !== i) map.set(word, [held, i]);
  } else if (held[held.length - 1] !== i) held.push(i);
}

/**
 * Each stock-number-like word of the cars' padded texts with the cars holding it, ascending. With
 * `kept` (a patched copy), the held copy's map with its kept cars renumbered, and only the cars
 * read again (from `kept.cars.length` on) scanned.
 */
function stockNumberMap(searchText: readonly string[], kept: Kept | null): Map<string, number | number[]> {
  const map = new Map<string, number | number[]>();
  let from = 0;
  if (kept) {
    const renumbered = new Int32Array(kept.stock.size).fill(-1);
    kept.cars.forEach((old, i) => (renumbered[old] = i));
    for (const [word, cars] of kept.stock.stockNumbers) {
      // Kept cars keep their order, so the renumbered list stays ascending. A new list: the held copy's is still in use.
      if (typeof cars === 'number') {
        if (renumbered[cars] >= 0) map.set(word, renumbered[cars]);
      } else for (const old of cars) if (renumbered[old] >= 0) addCar(map, word, renumbered[old]);
    }
    from = kept.cars.length;
  }
  for (let i = from; i < searchText.length; i++) {
    const text = searchText[i];
    // Padded: a word runs from after one space to the next.
    for (let start = 1, end = text.indexOf(' ', 1); end !== -1; start = end + 1, end = text.indexOf(' ', start)) {
      if (end > start && isStockNumberWord(text, start, end)) addCar(map, text.slice(start, end), i);
    }
  }
  return map;
}

/** The cars (indexes, ascending) whose search_text holds `word` as a whole word: ' word ' in the padded text. */
function carsWithWord(stock: WebsiteStock, word: string): readonly number[] {
  const cars = isStockNumberLike(word) ? stock.stockNumbers.get(word) : wordIndex(stock).cars.get(word);
  return cars === undefined ? [] : typeof cars === 'number' ? [cars] : cars;
}

/**
 * With a stock-number-like term (matched only as a whole word), the copy's cars holding every such
 * term's word, looked up in the copy's stock-number map (no car's text is read): null when no car
 * holds them all (the copy then counts for nothing), undefined when no term is stock-number-like
 * (every car is a candidate). Every car left out fails the text condition, so it would count for
 * no hit, facet or range anyway.
 */
function stockNumberCandidates(stock: WebsiteStock, text: TextMatch | null): readonly number[] | null | undefined {
  if (!text) return undefined;
  let cars: readonly number[] | undefined;
  for (const term of text.terms) {
    if (!term.exact) continue;
    // An exact term is stock-number-like (searchTerms): one look-up in the copy's map.
    const found = stock.stockNumbers.get(term.text);
    if (found === undefined) return null;
    const holding = typeof found === 'number' ? [found] : found;
    cars = cars === undefined ? holding : cars.filter((i) => holding.includes(i));
    if (cars.length === 0) return null;
  }
  return cars;
}

/** Holds websites' stock, least recently used out first once more than maxCars are held. */
export class StockIndex {
  private readonly held = new Map<number, WebsiteStock>();
  private heldCars = 0;

  constructor(
    private readonly db: Db,
    private readonly maxCars: number,
    /** Told the generations each copy was read at (the process's held generations, decision 055). */
    private readonly learn?: (websiteId: number, generations: Generations) => void,
  ) {}

  /**
   * The scope's websites' stock as the database holds it: each copy checked against the websites'
   * generations, those this request's tenant lookup read (generationsReadWith), else those
   * `trusted` gives for every website (the process's, for a stock-number search: decision 071),
   * else one primary-key read of them. Only the copies behind (or missing) are then brought up to
   * date, by one statement reading each one's generations again and the cars changed since (or all
   * of them), or only its places when only its website generation moved. A copy holding too few
   * sold cars for this search's sold window is loaded whole.
   */
  async sync(websiteIds: readonly number[], soldSinceMs: number | null, trusted?: (websiteId: number) => Generations | undefined): Promise<WebsiteStock[]> {
    const usable = (stock: WebsiteStock | undefined): stock is WebsiteStock =>
      stock != null && (soldSinceMs == null || (stock.soldSinceMs != null && stock.soldSinceMs <= soldSinceMs));
    const copies = websiteIds.map((id) => this.held.get(id));
    // With a copy missing, every website goes through the one statement (as it reads each generation anyway).
    let stale = copies.every(usable) ? [] : websiteIds;
    if (stale.length === 0) {
      let generations = generationsOf(websiteIds, generationsReadWith) ?? (trusted ? generationsOf(websiteIds, trusted) : null);
      if (!generations) {
        const rows = await queryPrepared<{ website_id: number; cars: string; website: string }>(this.db, generationsSql(websiteIds));
        generations = new Map(rows.map((row) => [Number(row.website_id), { website: row.website, cars: row.cars }]));
        for (const [id, read] of generations) this.learn?.(id, read);
      }
      stale = websiteIds.filter((id, k) => {
        const read = generations.get(id);
        return read?.cars !== String(copies[k]!.generation) || read.website !== copies[k]!.places.websiteGeneration;
      });
      if (stale.length === 0) {
        const current = copies as WebsiteStock[];
        for (const copy of current) this.hold(copy);
        return current;
      }
    }
    const behindIds = new Set(stale);
    const ks = websiteIds.flatMap((id, k) => (behindIds.has(id) ? [k] : []));
    const held = ks.map((k) => (usable(copies[k]) ? copies[k]!.generation : -1));
    const heldPlaces = ks.map((k) => (usable(copies[k]) ? copies[k]!.places.websiteGeneration : '-1'));
    // A patched copy keeps its own sold window; a copy loaded whole takes this search's.
    const windows = websiteIds.map((_, k) => (usable(copies[k]) ? copies[k]!.soldSinceMs : soldSinceMs));
    const sinces = ks.map((k) => windows[k]).map((ms) => (ms == null ? 'infinity' : new Date(ms).toISOString()));
    const rows = await queryPrepared<SyncRow>(this.db, syncSql(stale, held, heldPlaces, sinces));
    const behind = new Map(rows.map((row) => [Number(row.website_id), row]));
    return websiteIds.map((id, k) => {
      const copy = copies[k];
      const row = behind.get(id);
      let stock: WebsiteStock;
      if (!row) {
        if (!usable(copy)) throw new Error(`stock index: no copy and no cars read for website ${id}`);
        stock = copy;
      } else {
        const places = placesOf(row);
        // Only the places moved: the same cars, their cards made again with the new places.
        if (row.mode === 'places' && usable(copy)) stock = { ...copy, places, cardsMade: new Map() };
        else if (row.mode === 'patch' && usable(copy)) stock = patched(copy, Number(row.generation), places, row.changed ?? [], row.columns);
        else stock = toStock(id, Number(row.generation), windows[k], places, row.columns ?? []);
        this.learn?.(id, { website: places.websiteGeneration, cars: String(stock.generation) });
      }
      this.hold(stock);
      return stock;
    });
  }

  /** Keeps a website's copy as the most recently used; the least recently used go beyond maxCars. */
  private hold(stock: WebsiteStock): void {
    const before = this.held.get(stock.websiteId);
    if (before) {
      this.held.delete(stock.websiteId);
      this.heldCars -= before.size;
    }
    this.held.set(stock.websiteId, stock);
    this.heldCars += stock.size;
    for (const [id, oldest] of this.held) {
      if (this.heldCars <= this.maxCars || id === stock.websiteId) break;
      this.held.delete(id);
      this.heldCars -= oldest.size;
    }
  }
}

/** Ids of the scope's locations and dealerships named in `named` filter groups. */
export type NamedIds = { location_name: ReadonlySet<number>; dealership_name: ReadonlySet<number> };

/** A car of a page of hits: where its copy holds it. */
export type PageCar = { stock: WebsiteStock; i: number };

type Counted = { tally: Tally; page: PageCar[] };

const RANGE_VALUES: Record<RangeFacet, (stock: WebsiteStock) => Float64Array> = {
  price: (s) => s.numbers.price,
  subscription_price: (s) => s.numbers.subscriptionPrice,
  km: (s) => s.numbers.km,
  year: (s) => s.numbers.year,
  created_at_timestamp: (s) => s.createdMs,
};

const RANGE_STATS: Record<RangeFacet, (stock: WebsiteStock) => Float64Array> = { ...RANGE_VALUES, created_at_timestamp: (s) => s.createdStatsMs };

/** Each dictionary value's 1 (passes) or 0 (fails, and so does null). */
function accepted(dict: Dictionary, test: (value: string) => boolean): Uint8Array {
  return Uint8Array.from(dict.values, (value) => (value != null && test(value) ? 1 : 0));
}

/** What a predicate needs beyond a copy: named ids (prefetched) and each fuzzy term's similar vocabulary words. */
type MaskContext = {
  named: NamedIds;
  similar: ReadonlyMap<string, readonly string[]>;
  /** Text masks already made for one copy, by predicate: a fuzzy term's 'contains' is both its match and its score. */
  texts?: Map<string, Uint8Array>;
};

const NO_CONTEXT: MaskContext = { named: { location_name: new Set(), dealership_name: new Set() }, similar: new Map() };

/** A term facet's dictionary column, and the text its values are held as. */
function termColumn(stock: WebsiteStock, facet: TermFacet): { dict: Dictionary; key: (value: Value) => string } {
  if (facet === 'make_model') return { dict: stock.makeModel, key: (value) => (value as readonly string[]).join(MAKE_MODEL_SEPARATOR) };
  return { dict: stock.text[facet], key: String };
}

/** The cars of a copy holding a word matched by a text predicate, as a mask. */
function textMask(predicate: Extract<Predicate, { op: 'word' | 'contains' | 'similar' }>, stock: WebsiteStock, context: MaskContext): Uint8Array {
  const key = `${predicate.op} ${predicate.text}`;
  const made = context.texts?.get(key);
  if (made) return made;
  const mask = new Uint8Array(stock.size);
  context.texts?.set(key, mask);
  const mark = (cars: number | readonly number[] | undefined) => {
    if (typeof cars === 'number') mask[cars] = 1;
    else if (cars) for (const i of cars) mask[i] = 1;
  };
  if (predicate.op === 'word') mark(carsWithWord(stock, predicate.text));
  else if (predicate.op === 'contains') {
    // A term holds no space, so it is in the text where it is in one of its words.
    for (const cars of carsContaining(wordIndex(stock), predicate.text)) mark(cars);
  } else {
    const words = wordIndex(stock);
    for (const word of context.similar.get(predicate.text) ?? []) mark(words.cars.get(word));
  }
  return mask;
}

/**
 * A predicate as a JavaScript condition on car `i`, its arrays and bounds added to `args` (named
 * a0, a1, … in the condition, so no value is ever written into the source). A null column fails, as
 * coalesce(…, false) does in SQL: null is NaN in number columns, and no dictionary value passes it.
 */
function condition(predicate: Predicate, stock: WebsiteStock, context: MaskContext, args: unknown[]): string {
  const arg = (value: unknown) => `a${args.push(value) - 1}`;
  // Dictionary columns are tested once per distinct value, then read by code.
  const byCode = (dict: Dictionary, test: (value: string) => boolean) => `${arg(accepted(dict, test))}[${arg(dict.codes)}[i]] === 1`;
  switch (predicate.op) {
    case 'in': {
      const { dict, key } = termColumn(stock, predicate.column);
      const values = new Set(predicate.values.map(key));
      return byCode(dict, (value) => values.has(value));
    }
    case 'named': {
      const ids = context.named[predicate.column];
      return byCode(stock.text[predicate.column], (id) => ids.has(Number(id)));
    }
    case 'inIgnoringCase': {
      const values = new Set(predicate.values.map((value) => value.toLowerCase()));
      return byCode(stock.text[predicate.column], (value) => values.has(value.toLowerCase()));
    }
    case 'between': {
      const values = arg(predicate.column === 'photos' ? stock.numbers.photos : RANGE_VALUES[predicate.column](stock));
      // NaN (null) compares false.
      const bounds = [
        ...(predicate.min != null ? [`${values}[i] >= ${arg(predicate.min)}`] : []),
        ...(predicate.max != null ? [`${values}[i] <= ${arg(predicate.max)}`] : []),
      ];
      return bounds.length > 0 ? `(${bounds.join(' && ')})` : 'true';
    }
    case 'since':
      // Held in microseconds; a car not sold is NaN.
      return `${arg(stock.numbers.soldUs)}[i] >= ${arg(predicate.instant.getTime() * 1000)}`;
    case 'word':
    case 'contains':
    case 'similar':
      return `${arg(textMask(predicate, stock, context))}[i] === 1`;
    case 'any':
      return predicate.of.length > 0 ? `(${predicate.of.map((p) => condition(p, stock, context, args)).join(' || ')})` : 'false';
    case 'all':
      return predicate.of.length > 0 ? `(${predicate.of.map((p) => condition(p, stock, context, args)).join(' && ')})` : 'true';
  }
}

/** What a compiled loop does with each car's test: keeps it as a mask, or marks the cars failing it. */
const LOOP_BODIES = {
  mask: (test: string) => `mask[i] = ${test} ? 1 : 0;`,
  /** Counts a filter group against each car failing it, noting the group. */
  group: (test: string) => `if (!(${test})) { fails[i]++; failed[i] = g; }`,
  /** A car failing it is out (2): the scope's test, and the text terms'. */
  out: (test: string) => `if (!(${test})) fails[i] = 2;`,
};
type LoopKind = keyof typeof LOOP_BODIES;
type Loop = (args: readonly unknown[], n: number, cars: Int32Array | null, mask: Uint8Array, fails: Uint8Array, failed: Int8Array, g: number) => void;

/** One loop per kind and shape of condition, made once: V8 optimises each, and a search reuses it with its own arrays. */
const loops = new Map<string, Loop>();

/**
 * A declared predicate (search.definition.ts) compiled over a copy into one loop over the cars,
 * whatever the predicate's depth: a filter group's or the scope's test runs over every car of every
 * copy searched, so this is the hot path. The source holds only the condition's shape; its arrays
 * and bounds are arguments.
 */
function runLoop(
  kind: LoopKind,
  predicate: Predicate,
  stock: WebsiteStock,
  context: MaskContext,
  into: { mask?: Uint8Array; fails?: Uint8Array; failed?: Int8Array; g?: number },
  /** Only these cars (the rest are out already), or every car. */
  cars: Int32Array | null = null,
): void {
  const args: unknown[] = [];
  const test = condition(predicate, stock, context, args);
  const key = `${kind} ${test}`;
  let loop = loops.get(key);
  if (!loop) {
    const names = args.map((_, k) => `a${k} = args[${k}]`).join(', ');
    const body = LOOP_BODIES[kind](test);
    loop = new Function(
      'args',
      'n',
      'cars',
      'mask',
      'fails',
      'failed',
      'g',
      `${names ? `const ${names};` : ''} if (cars === null) for (let i = 0; i < n; i++) { ${body} } else for (let j = 0; j < cars.length; j++) { const i = cars[j]; ${body} }`,
    ) as Loop;
    loops.set(key, loop);
  }
  loop(args, stock.size, cars, into.mask ?? EMPTY_MASK, into.fails ?? EMPTY_MASK, into.failed ?? EMPTY_FAILED, into.g ?? 0);
}

const EMPTY_MASK = new Uint8Array(0);
const EMPTY_FAILED = new Int8Array(0);

/** A predicate's mask over a copy: each car's 1 (passes) or 0. */
function toMask(predicate: Predicate, stock: WebsiteStock, context: MaskContext): Uint8Array {
  if (predicate.op === 'word' || predicate.op === 'contains' || predicate.op === 'similar') return textMask(predicate, stock, context);
  const mask = new Uint8Array(stock.size);
  runLoop('mask', predicate, stock, context, { mask });
  return mask;
}

/** Counts the group against each car that fails it (`fails`), noting the group (`failed`). */
function markGroup(stock: WebsiteStock, group: FilterGroup, g: number, context: MaskContext, fails: Uint8Array, failed: Int8Array, cars: Int32Array | null): void {
  runLoop('group', group.predicate, stock, context, { fails, failed, g }, cars);
}

/** Text terms and, for each, the vocabulary words (search_words) a fuzzy term is similar to. */
export type TextMatch = { terms: readonly SearchTerm[]; similar: readonly (readonly string[])[] };

function maskContext(named: NamedIds, text: TextMatch | null): MaskContext {
  return { named, similar: new Map(text ? text.terms.map((term, t) => [term.text, text.similar[t]]) : []) };
}

/**
 * Sets `fails` to 2 (out) for each car whose search_text misses a term (termPredicate). With
 * `score`, fills it for the cars that match: the terms found as written (termFoundAsWritten), the
 * relevance order.
 */
function markText(stock: WebsiteStock, text: TextMatch, search: MaskContext, fails: Uint8Array, score: Int32Array | null, cars: Int32Array | null): void {
  const context = { ...search, texts: new Map<string, Uint8Array>() };
  // Every term must match: one loop over the cars for all of them.
  runLoop('out', { op: 'all', of: text.terms.map(termPredicate) }, stock, context, { fails }, cars);
  if (!score) return;
  // Plain loops: this runs over every car of every copy a text search reads.
  for (const term of text.terms) {
    const found = toMask(termFoundAsWritten(term), stock, context);
    if (cars) {
      for (const i of cars) if (fails[i] <= 1) score[i] += found[i];
    } else for (let i = 0; i < stock.size; i++) if (fails[i] <= 1) score[i] += found[i];
  }
}

/** Sets `fails` to 2 (out) for each car the scope does not list (scopePredicate, as scopeWhere in SQL). */
function markUnlisted(stock: WebsiteStock, scope: SearchScope, fails: Uint8Array, cars: Int32Array | null): void {
  runLoop('out', scopePredicate(scope), stock, NO_CONTEXT, { fails }, cars);
}

/** Each sort column's values in a copy. */
const SORT_VALUES: Record<SortColumn, (stock: WebsiteStock) => Float64Array> = {
  custom_rank: (s) => s.numbers.customRank,
  created_at: (s) => s.numbers.createdUs,
  id: (s) => s.numbers.id,
  price: (s) => s.numbers.price,
  km: (s) => s.numbers.km,
  subscription_price: (s) => s.numbers.subscriptionPrice,
};

/** A car's key, smaller first. */
type KeyOf = (i: number) => number;

/**
 * A sort's declared keys (search.definition.ts, the tie-break included) compiled over a copy, each
 * smaller first: a descending column negated; `nullsLast` as two keys (has no value, then the
 * value); a `last` predicate as 1 where it holds.
 */
function sortKeysOf(stock: WebsiteStock, sort: SortOption): KeyOf[] {
  return sortKeys(sort).flatMap((key): KeyOf[] => {
    if ('last' in key) {
      const last = toMask(key.last, stock, NO_CONTEXT);
      return [(i) => last[i]];
    }
    const values = SORT_VALUES[key.column](stock);
    const sign = key.direction === 'desc' ? -1 : 1;
    if (!key.nullsLast) return [(i) => sign * values[i]];
    return [(i) => (Number.isNaN(values[i]) ? 1 : 0), (i) => (Number.isNaN(values[i]) ? 0 : sign * values[i])];
  });
}

/** A car's place in the order: its keys (the score's first with relevance first), compared in turn. */
/** A cursor's car: its sort keys, and its index `i` in `stock`. */
type Place = { keys: Float64Array; stock: WebsiteStock; i: number };

function before(a: Place, b: Place): boolean {
  for (let k = 0; k < a.keys.length; k++) if (a.keys[k] !== b.keys[k]) return a.keys[k] < b.keys[k];
  return false;
}

/** The copy's cars in the sort's order; sorted once per copy (a copy never changes) and sort. */
function carsInOrder(stock: WebsiteStock, sort: SortOption): Int32Array {
  let order = stock.orders.get(sort);
  if (!order) {
    order = Int32Array.from({ length: stock.size }, (_, i) => i).sort(carComparator(stock, sort));
    stock.orders.set(sort, order);
  }
  return order;
}

/** Compares two cars of a copy by the sort's order. */
function carComparator(stock: WebsiteStock, sort: SortOption): (a: number, b: number) => number {
  const keys = sortKeysOf(stock, sort).map((key) => Float64Array.from({ length: stock.size }, (_, i) => key(i)));
  return (a, b) => {
    for (const key of keys) {
      const d = key[a] - key[b];
      // NaN (no value) orders as equal, as before.
      if (d) return d;
    }
    return 0;
  };
}

/**
 * A patched copy's orders from the held copy's: its kept cars (indexes 0 to kept.length - 1, in
 * kept order) keep their order, and the few cars read again are sorted and merged in, instead of
 * sorting every car again after each change.
 */
function inheritOrders(stock: WebsiteStock, kept: Kept): void {
  const keptIndex = new Int32Array(kept.stock.size).fill(-1);
  kept.cars.forEach((old, i) => (keptIndex[old] = i));
  const added = Int32Array.from({ length: stock.size - kept.cars.length }, (_, k) => kept.cars.length + k);
  for (const [sort, heldOrder] of kept.stock.orders) {
    // Keys read as compared: the merge compares a few cars, so no key array of every car is made.
    const keys = sortKeysOf(stock, sort);
    const compare = (a: number, b: number) => {
      for (const key of keys) {
        const d = key(a) - key(b);
        // NaN (no value) orders as equal, as carComparator's.
        if (d) return d;
      }
      return 0;
    };
    const fresh = added.slice().sort(compare);
    const order = new Int32Array(stock.size);
    let n = 0;
    let f = 0;
    for (const old of heldOrder) {
      const i = keptIndex[old];
      if (i < 0) continue;
      while (f < fresh.length && compare(fresh[f], i) < 0) order[n++] = fresh[f++];
      order[n++] = i;
    }
    while (f < fresh.length) order[n++] = fresh[f++];
    stock.orders.set(sort, order);
  }
}

/**
 * Walks one copy's cars in the sort's order, stopping at each car that passes (and, with a score,
 * holds exactly that score): its place in the order is then `place`.
 */
class Cursor {
  readonly place: Place;
  private at = -1;

  constructor(
    private readonly stock: WebsiteStock,
    private readonly order: Int32Array,
    /** 0: the car passes every group (countStock's `fails`). */
    private readonly fails: Uint8Array,
    private readonly keys: readonly KeyOf[],
    /** With relevance first: this cursor's cars hold this score, and it comes before the sort's keys. */
    private readonly score: { of: Int32Array; value: number } | null,
  ) {
    this.place = { keys: new Float64Array(keys.length + (score ? 1 : 0)), stock, i: -1 };
  }

  /** Moves to the next car that passes; false when there is none. */
  advance(): boolean {
    const { order, fails, score, keys } = this;
    while (++this.at < order.length) {
      const i = order[this.at];
      if (fails[i] !== 0 || (score !== null && score.of[i] !== score.value)) continue;
      const place = this.place;
      let k = 0;
      if (score !== null) place.keys[k++] = -score.value;
      for (const key of keys) place.keys[k++] = key(i);
      place.i = i;
      return true;
    }
    return false;
  }
}

/**
 * The ids of the first `count` cars across the cursors, in order: a k-way merge (a binary heap of
 * cursors by their current car), so a page costs about `count` steps however many cars pass.
 */
function firstInOrder(cursors: Cursor[], count: number): PageCar[] {
  const heap = cursors.filter((cursor) => cursor.advance());
  const swap = (a: number, b: number) => ([heap[a], heap[b]] = [heap[b], heap[a]]);
  const down = (from: number) => {
    for (let i = from; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left].place, heap[least].place)) least = left;
      if (right < heap.length && before(heap[right].place, heap[least].place)) least = right;
      if (least === i) return;
      swap(i, least);
      i = least;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const cars: PageCar[] = [];
  while (cars.length < count && heap.length > 0) {
    const { stock, i } = heap[0].place;
    cars.push({ stock, i });
    if (!heap[0].advance()) {
      swap(0, heap.length - 1);
      heap.pop();
    }
    down(0);
  }
  return cars;
}

/** Adds one to each car's code. Hot: a plain loop in a function of its own, which V8 optimises alone. */
function countCodes(counts: Int32Array, codes: Int32Array, cars: Int32Array): void {
  for (let j = 0; j < cars.length; j++) counts[codes[cars[j]]]++;
}

/** Widens the range to the cars' values (NaN, null, never does). */
function widen(range: { min: number; max: number }, values: Float64Array, cars: Int32Array): void {
  let { min, max } = range;
  for (let j = 0; j < cars.length; j++) {
    const v = values[cars[j]];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  range.min = min;
  range.max = max;
}

/** What a term facet counts by: a dictionary column of the stock. */
function termDictionary(stock: WebsiteStock, facet: TermFacet): Dictionary {
  if (facet === 'make_model') return stock.makeModel;
  return stock.text[facet];
}


/**
 * Counts a search over held stock, with the same rules as the SQL statements: hits and the
 * total are the listed cars passing every group; a facet counts the cars failing no group or only
 * its own (disjunctive), and so do a range's min and max.
 */
export function countStock(
  stocks: readonly WebsiteStock[],
  scope: SearchScope,
  groups: readonly FilterGroup[],
  named: NamedIds,
  text: TextMatch | null,
  request: Pick<SearchRequest, 'limit' | 'offset' | 'sort'>,
  termFacets: readonly TermFacet[],
  rangeFacets: readonly RangeFacet[],
): Counted {
  const groupIndex = new Map(groups.map((g, i) => [g.key as string, i]));
  const own = (facet: TermFacet | RangeFacet) => groupIndex.get(groupOf(facet)) ?? -1;
  const tally = newTally();
  const cursors: Cursor[] = [];
  const sort = request.sort ?? scope.defaultSort;
  // 'Most relevant' puts the cars with more terms found as written first, when a term is fuzzy.
  const byScore = text != null && text.terms.some((t) => t.fuzzy) && SORT_DEFINITIONS[sort].relevanceFirst === true;
  const context = maskContext(named, text);
  for (const stock of stocks) {
    const found = stockNumberCandidates(stock, text);
    if (found === null) continue;
    // With stock numbers, only the cars holding them are counted (every other car is out: 2), and
    // each loop below goes over them alone; otherwise over every car.
    const cars = found ? Int32Array.from(found) : null;
    const fails = new Uint8Array(stock.size);
    if (cars) {
      fails.fill(2);
      for (const i of cars) fails[i] = 0;
    }
    const n = cars ? cars.length : stock.size;
    const failed = new Int8Array(stock.size);
    markUnlisted(stock, scope, fails, cars);
    const score = new Int32Array(byScore ? stock.size : 0);
    if (text) markText(stock, text, context, fails, byScore ? score : null, cars);
    groups.forEach((group, g) => markGroup(stock, group, g, context, fails, failed, cars));
    // The cars each facet counts: those failing no group (`passing`), and those failing only the
    // facet's own group (`failingOnly`, grouped by that group). Each facet then loops over its cars alone.
    const passing = new Int32Array(n);
    let passed = 0;
    const starts = new Int32Array(groups.length + 1);
    if (cars) {
      for (const i of cars) {
        if (fails[i] === 0) passing[passed++] = i;
        else if (fails[i] === 1) starts[failed[i] + 1]++;
      }
    } else {
      for (let i = 0; i < n; i++) {
        if (fails[i] === 0) passing[passed++] = i;
        else if (fails[i] === 1) starts[failed[i] + 1]++;
      }
    }
    for (let g = 0; g < groups.length; g++) starts[g + 1] += starts[g];
    const failingOnly = new Int32Array(starts[groups.length]);
    const next = starts.slice(0, groups.length);
    if (cars) {
      for (const i of cars) if (fails[i] === 1) failingOnly[next[failed[i]]++] = i;
    } else for (let i = 0; i < n; i++) if (fails[i] === 1) failingOnly[next[failed[i]]++] = i;
    tally.total += passed;
    if (passed > 0) {
      const order = carsInOrder(stock, sort);
      const keys = sortKeysOf(stock, sort);
      if (!byScore) cursors.push(new Cursor(stock, order, fails, keys, null));
      else {
        // One cursor per score the passing cars hold, each in the sort's order.
        const scores = new Set<number>();
        for (let j = 0; j < passed; j++) scores.add(score[passing[j]]);
        for (const value of scores) cursors.push(new Cursor(stock, order, fails, keys, { of: score, value }));
      }
    }
    const passingCars = passing.subarray(0, passed);
    const failingOnlyOwn = (facet: TermFacet | RangeFacet) => {
      const g = own(facet);
      return g < 0 ? failingOnly.subarray(0, 0) : failingOnly.subarray(starts[g], starts[g + 1]);
    };
    for (const facet of termFacets) {
      const { codes, values } = termDictionary(stock, facet);
      const counts = new Int32Array(values.length);
      countCodes(counts, codes, passingCars);
      countCodes(counts, codes, failingOnlyOwn(facet));
      let found: Map<string, number> | null = null;
      for (let code = 0; code < counts.length; code++) {
        const value = values[code];
        if (counts[code] === 0 || value == null || value === '') continue;
        found ??= tallyCounts(tally, facet);
        found.set(value, (found.get(value) ?? 0) + counts[code]);
      }
    }
    for (const facet of rangeFacets) {
      const values = RANGE_STATS[facet](stock);
      const range = { min: Infinity, max: -Infinity };
      widen(range, values, passingCars);
      widen(range, values, failingOnlyOwn(facet));
      const { min, max } = range;
      if (min <= max) addStats(tally, facet, { min, max });
    }
  }
  return { tally, page: firstInOrder(cursors, request.offset + request.limit).slice(request.offset) };
}

/** The distinct words of these cars' search text, in the copies that hold them. */
export function wordsOfCars(stocks: readonly WebsiteStock[], carIds: readonly number[]): string[] {
  const wanted = new Set(carIds);
  const words = new Set<string>();
  for (const stock of stocks) {
    for (let i = 0; i < stock.size; i++) {
      if (!wanted.has(stock.numbers.id[i])) continue;
      for (const word of stock.searchText[i].split(' ')) if (word !== '') words.add(word);
    }
  }
  return [...words];
}

/** A search compiled for matchStock: its filter groups, the ids its named groups select and its text terms. */
export type CompiledSearch = { groups: readonly FilterGroup[]; named: NamedIds; text: TextMatch | null };

/**
 * Which of a few cars (by id) each search finds, over held stock: the same tests countStock runs
 * (listed by the scope, every text term, every filter group), run over those cars alone, so
 * thousands of searches are tried against a website's new cars in a few milliseconds. The ids
 * each search finds come in the copy's order; a car the copies do not hold (not listed) is found
 * by none.
 */
export function matchStock(stocks: readonly WebsiteStock[], scope: SearchScope, searches: readonly CompiledSearch[], carIds: readonly number[]): number[][] {
  const found = searches.map((): number[] => []);
  const wanted = new Set(carIds);
  for (const stock of stocks) {
    const held: number[] = [];
    for (let i = 0; i < stock.size; i++) if (wanted.has(stock.numbers.id[i])) held.push(i);
    if (held.length === 0) continue;
    // The scope's test once for every search: a car it does not list is out (2).
    const fails = new Uint8Array(stock.size).fill(2);
    for (const i of held) fails[i] = 0;
    markUnlisted(stock, scope, fails, Int32Array.from(held));
    const listed = Int32Array.from(held.filter((i) => fails[i] === 0));
    if (listed.length === 0) continue;
    const failed = new Int8Array(stock.size);
    searches.forEach((search, s) => {
      const candidates = stockNumberCandidates(stock, search.text);
      if (candidates === null) return;
      const cars = candidates ? listed.filter((i) => candidates.includes(i)) : listed;
      // The loops below touch only these cars: resetting them is resetting the search.
      for (const i of cars) fails[i] = 0;
      const context = maskContext(search.named, search.text);
      if (search.text) markText(stock, search.text, context, fails, null, cars);
      search.groups.forEach((group, g) => markGroup(stock, group, g, context, fails, failed, cars));
      for (const i of cars) if (fails[i] === 0) found[s].push(stock.numbers.id[i]);
    });
  }
  return found;
}
