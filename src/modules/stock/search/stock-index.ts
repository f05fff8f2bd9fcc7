import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db';
import { carGenerations, cars } from '../stock.schema';
import { MIN_SHOWN_PRICE } from '../stock.rules';
import { groupOf, type FilterGroup } from './search.filters';
import { addCount, addStats, newTally, type Tally } from './search.tally';
import { MAKE_MODEL_SEPARATOR, type RangeFacet, type SearchRequest, type SearchScope, type SortOption, type TermFacet } from './search.types';

/**
 * The stock index (decision 020): each website's listed cars, the columns a filtered search
 * evaluates, held column by column in this process so a search counts tens of thousands of cars in
 * a few milliseconds. A copy is used only while its website's car generation (bumped in the same
 * transaction as every change to the website's cars) is the one the database holds: the search
 * statement reads the generations with the page of hits, and a search that finds one changed loads
 * that website again and counts again. So every answer is what the database holds, on every
 * replica, as with the page cache (decision 016).
 */

/**
 * Columns held as per-website dictionaries (each car a code into the column's distinct values):
 * certified as 'true'/'false' and location and dealership ids as text, as the SQL facets key them.
 */
const DICTIONARY_COLUMNS = {
  car_type: sql`${cars.carType}`,
  make: sql`${cars.make}`,
  model: sql`${cars.model}`,
  colour: sql`${cars.colour}`,
  simple_body: sql`${cars.simpleBody}`,
  simple_transmission: sql`${cars.simpleTransmission}`,
  simple_drive: sql`${cars.simpleDrive}`,
  simple_fuel: sql`${cars.simpleFuel}`,
  status: sql`${cars.status}`,
  badge: sql`${cars.badge}`,
  city: sql`${cars.city}`,
  state: sql`${cars.state}`,
  item_type: sql`${cars.itemType}`,
  tag: sql`${cars.tag}`,
  certified: sql`${cars.certified}::text`,
  location: sql`${cars.locationId}::text`,
  dealership: sql`${cars.dealershipId}::text`,
} as const;
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
};

const AVAILABLE = new Set(['in_stock', 'coming_soon']);

function dictionary(values: readonly (string | null)[]): Dictionary {
  const codes = new Int32Array(values.length);
  const known = new Map<string | null, number>();
  const distinct: (string | null)[] = [];
  values.forEach((value, i) => {
    let code = known.get(value);
    if (code === undefined) {
      code = distinct.length;
      known.set(value, code);
      distinct.push(value);
    }
    codes[i] = code;
  });
  return { codes, values: distinct };
}

const toNumbers = (values: readonly (number | string | null)[] | undefined, size: number) =>
  Float64Array.from(values ?? new Array<null>(size).fill(null), (v) => (v == null ? NaN : Number(v)));

type LoadedRow = { website_id: number; generation: number | string; columns: ((number | string | null)[] | null)[] | null };

/** One statement: each website's generation and listed cars, read in the same snapshot. */
function loadSql(websiteIds: readonly number[], soldSinceMs: number | null): SQL {
  const available = sql`${cars.status} in ('in_stock', 'coming_soon')`;
  const listed =
    soldSinceMs == null
      ? available
      : sql`(${available} or (${cars.status} = 'sold' and ${cars.soldDate} >= ${new Date(soldSinceMs).toISOString()}::timestamptz))`;
  // One aggregation pass fills every array in the same row order.
  const aggregates = [...NUMBER_NAMES.map((n) => NUMBER_COLUMNS[n]), ...DICTIONARY_NAMES.map((n) => DICTIONARY_COLUMNS[n])].map(
    (column) => sql`array_agg(${column})`,
  );
  return sql`
    select w.id as website_id, coalesce(${carGenerations.generation}, 0) as generation,
      (select json_build_array(${sql.join(aggregates, sql`, `)})
        from ${cars} where ${cars.websiteId} = w.id and ${cars.showOnDealerWebsite} and ${listed}) as columns
    from unnest(${`{${websiteIds.join(',')}}`}::int[]) as w(id)
    left join ${carGenerations} on ${carGenerations.websiteId} = w.id`;
}

function toStock(row: LoadedRow, soldSinceMs: number | null): WebsiteStock {
  const columns = row.columns ?? [];
  const size = (columns[0] ?? []).length;
  const numbers = Object.fromEntries(NUMBER_NAMES.map((name, i) => [name, toNumbers(columns[i] ?? undefined, size)])) as Record<NumberColumn, Float64Array>;
  const text = Object.fromEntries(
    DICTIONARY_NAMES.map((name, i) => [name, dictionary((columns[NUMBER_NAMES.length + i] as (string | null)[] | null) ?? new Array<null>(size).fill(null))]),
  ) as Record<DictionaryColumn, Dictionary>;
  const make = text.make;
  const model = text.model;
  const makeModels = Array.from({ length: size }, (_, i) => {
    const a = make.values[make.codes[i]];
    const b = model.values[model.codes[i]];
    return a && b ? `${a}${MAKE_MODEL_SEPARATOR}${b}` : null;
  });
  // The SQL filter rounds (numeric to bigint, half away from zero); its stats truncate (a JS Date).
  const createdMs = numbers.createdUs.map((us) => Math.round(us / 1000));
  const createdStatsMs = numbers.createdUs.map((us) => Math.floor(us / 1000));
  return {
    websiteId: Number(row.website_id),
    generation: Number(row.generation),
    soldSinceMs,
    size,
    numbers,
    createdMs,
    createdStatsMs,
    text,
    makeModel: dictionary(makeModels),
  };
}

/** Holds websites' stock, least recently used out first once more than maxCars are held. */
export class StockIndex {
  private readonly held = new Map<number, WebsiteStock>();
  private heldCars = 0;
  private readonly loading = new Map<number, Promise<WebsiteStock>>();

  constructor(
    private readonly db: Db,
    private readonly maxCars: number,
  ) {}

  /**
   * The scope's websites' stock, loading what is not held (or holds too few sold cars). Whether a
   * held copy is current is checked by the caller, against the generations its statement reads.
   */
  async stocks(websiteIds: readonly number[], soldSinceMs: number | null): Promise<WebsiteStock[]> {
    const usable = (stock: WebsiteStock | undefined) =>
      stock != null && (soldSinceMs == null || (stock.soldSinceMs != null && stock.soldSinceMs <= soldSinceMs));
    const missing = websiteIds.filter((id) => !usable(this.held.get(id)) && !this.loading.has(id));
    if (missing.length > 0) {
      const loaded = this.load(missing, soldSinceMs);
      for (const id of missing) {
        const one = loaded.then((stocks) => stocks.get(id)!);
        this.loading.set(id, one);
        void one.then(
          () => this.loading.delete(id),
          () => this.loading.delete(id),
        );
      }
    }
    return Promise.all(
      websiteIds.map(async (id) => {
        const pending = this.loading.get(id);
        let stock = pending ? await pending : this.held.get(id);
        // Loaded by another search for a later sold window: load again for this one.
        if (!usable(stock)) stock = (await this.load([id], soldSinceMs)).get(id)!;
        this.touch(stock!);
        return stock!;
      }),
    );
  }

  /** Drops held websites whose cars changed, so the next search loads them again. */
  forget(websiteIds: readonly number[]): void {
    for (const id of websiteIds) {
      const stock = this.held.get(id);
      if (stock) {
        this.held.delete(id);
        this.heldCars -= stock.size;
      }
    }
  }

  private async load(websiteIds: readonly number[], soldSinceMs: number | null): Promise<Map<number, WebsiteStock>> {
    const result = await this.db.execute(loadSql(websiteIds, soldSinceMs));
    const stocks = new Map<number, WebsiteStock>();
    for (const row of (result as unknown as { rows: LoadedRow[] }).rows) {
      const stock = toStock(row, soldSinceMs);
      stocks.set(stock.websiteId, stock);
      this.forget([stock.websiteId]);
      this.held.set(stock.websiteId, stock);
      this.heldCars += stock.size;
    }
    this.evict();
    return stocks;
  }

  /** Marks a website's stock as just used (a Map keeps insertion order). */
  private touch(stock: WebsiteStock): void {
    if (this.held.get(stock.websiteId) !== stock) return;
    this.held.delete(stock.websiteId);
    this.held.set(stock.websiteId, stock);
  }

  private evict(): void {
    for (const [id, stock] of this.held) {
      if (this.heldCars <= this.maxCars) break;
      this.held.delete(id);
      this.heldCars -= stock.size;
    }
  }
}

/** Ids of the scope's locations and dealerships named in `named` filter groups. */
export type NamedIds = { location_name: ReadonlySet<number>; dealership_name: ReadonlySet<number> };

type Counted = { tally: Tally; pageIds: number[] };

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

/**
 * Counts the group against each car that fails it (`fails`), noting the group (`failed`). A null
 * column fails, as coalesce(…, false) does in SQL. One plain loop per group: this is the hot path.
 */
function markGroup(stock: WebsiteStock, group: FilterGroup, g: number, named: NamedIds, fails: Uint8Array, failed: Int8Array): void {
  const n = stock.size;
  if (group.kind === 'range') {
    const values = RANGE_VALUES[group.key](stock);
    const min = group.min ?? -Infinity;
    const max = group.max ?? Infinity;
    for (let i = 0; i < n; i++) {
      // NaN (null) compares false.
      if (!(values[i] >= min && values[i] <= max)) {
        fails[i]++;
        failed[i] = g;
      }
    }
    return;
  }
  if (group.kind === 'make') {
    const whole = new Set(group.wholeMakes);
    const pairs = new Set(group.makeModels.map(([make, model]) => `${make}${MAKE_MODEL_SEPARATOR}${model}`));
    const byMake = accepted(stock.text.make, (make) => whole.has(make));
    const byPair = accepted(stock.makeModel, (pair) => pairs.has(pair));
    const makes = stock.text.make.codes;
    const makeModels = stock.makeModel.codes;
    for (let i = 0; i < n; i++) {
      if (byMake[makes[i]] === 0 && byPair[makeModels[i]] === 0) {
        fails[i]++;
        failed[i] = g;
      }
    }
    return;
  }
  let dict: Dictionary;
  let test: (value: string) => boolean;
  if (group.kind === 'named') {
    const ids = named[group.key];
    dict = stock.text[group.key === 'location_name' ? 'location' : 'dealership'];
    test = (id) => ids.has(Number(id));
  } else if (group.kind === 'flags') {
    dict = stock.text.certified;
    test = (value) => group.flags.includes(value === 'true');
  } else {
    const values = new Set(group.values);
    dict = stock.text[group.key];
    test = (value) => values.has(value);
  }
  const pass = accepted(dict, test);
  const codes = dict.codes;
  for (let i = 0; i < n; i++) {
    if (pass[codes[i]] === 0) {
      fails[i]++;
      failed[i] = g;
    }
  }
}

/** Sets `fails` to 2 (out) for each car the scope does not list: the JS twin of scopeWhere (search.scope.ts). */
function markUnlisted(stock: WebsiteStock, scope: SearchScope, fails: Uint8Array): void {
  const status = stock.text.status;
  const available = accepted(status, (value) => AVAILABLE.has(value));
  const soldSinceUs = scope.soldSince ? scope.soldSince.getTime() * 1000 : Infinity;
  const lowered = (dict: Dictionary, wanted: readonly string[]) => {
    const set = new Set(wanted.map((w) => w.toLowerCase()));
    return wanted.length === 0 ? null : accepted(dict, (value) => set.has(value.toLowerCase()));
  };
  const city = lowered(stock.text.city, scope.cities);
  const make = lowered(stock.text.make, scope.makes);
  const minPhotos = scope.minPhotos ?? -Infinity;
  const { soldUs, photos } = stock.numbers;
  const statuses = status.codes;
  const cities = stock.text.city.codes;
  const makes = stock.text.make.codes;
  for (let i = 0; i < stock.size; i++) {
    const listed =
      (available[statuses[i]] === 1 || soldUs[i] >= soldSinceUs) &&
      photos[i] >= minPhotos &&
      (city == null || city[cities[i]] === 1) &&
      (make == null || make[makes[i]] === 1);
    if (!listed) fails[i] = 2;
  }
}

type SortKeys = { k0: (stock: WebsiteStock, i: number) => number; k1: (stock: WebsiteStock, i: number) => number };

/**
 * A sort's first two keys, smaller first, as orderBy in sql-search-engine.ts orders: k0 puts cars
 * last ('Enquire for price.' cars for price:asc, cars without a subscription price), k1 is the
 * sorted value. Ties go to the newest car, then the highest id.
 */
function sortKeys(sort: SortOption): SortKeys {
  const none = () => 0;
  const value = (column: (s: WebsiteStock) => Float64Array, sign: 1 | -1) => (s: WebsiteStock, i: number) => sign * column(s)[i];
  const subscription = (s: WebsiteStock) => s.numbers.subscriptionPrice;
  const withoutSubscription = (s: WebsiteStock, i: number) => (Number.isNaN(s.numbers.subscriptionPrice[i]) ? 1 : 0);
  switch (sort) {
    case 'custom_rank:desc':
      return { k0: none, k1: value((s) => s.numbers.customRank, -1) };
    case 'created_at_timestamp:desc':
      return { k0: none, k1: none };
    case 'price:asc':
      return { k0: (s, i) => (s.numbers.price[i] <= MIN_SHOWN_PRICE ? 1 : 0), k1: value((s) => s.numbers.price, 1) };
    case 'price:desc':
      return { k0: none, k1: value((s) => s.numbers.price, -1) };
    case 'km:asc':
      return { k0: none, k1: value((s) => s.numbers.km, 1) };
    case 'km:desc':
      return { k0: none, k1: value((s) => s.numbers.km, -1) };
    case 'subscription_price:asc':
      return { k0: withoutSubscription, k1: (s, i) => (withoutSubscription(s, i) ? 0 : s.numbers.subscriptionPrice[i]) };
    case 'subscription_price:desc':
      return { k0: withoutSubscription, k1: (s, i) => (withoutSubscription(s, i) ? 0 : -subscription(s)[i]) };
  }
}

type Candidate = { k0: number; k1: number; createdUs: number; id: number };

function before(a: Candidate, b: Candidate): boolean {
  if (a.k0 !== b.k0) return a.k0 < b.k0;
  if (a.k1 !== b.k1) return a.k1 < b.k1;
  if (a.createdUs !== b.createdUs) return a.createdUs > b.createdUs;
  return a.id > b.id;
}

/** Keeps the first `size` candidates in order: most are refused by one comparison with the last kept. */
class FirstOnes {
  readonly kept: Candidate[] = [];
  private readonly probe: Candidate = { k0: 0, k1: 0, createdUs: 0, id: 0 };
  constructor(private readonly size: number) {}

  offer(k0: number, k1: number, createdUs: number, id: number): void {
    const kept = this.kept;
    const probe = Object.assign(this.probe, { k0, k1, createdUs, id });
    if (this.size === 0 || (kept.length === this.size && !before(probe, kept[kept.length - 1]))) return;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (before(kept[mid], probe)) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, { k0, k1, createdUs, id });
    if (kept.length > this.size) kept.pop();
  }
}

/** What a term facet counts by: a dictionary column of the stock. */
function termDictionary(stock: WebsiteStock, facet: TermFacet): Dictionary {
  if (facet === 'make_model') return stock.makeModel;
  if (facet === 'location_name') return stock.text.location;
  if (facet === 'dealership_name') return stock.text.dealership;
  return stock.text[facet];
}

type TermCount = { facet: TermFacet; codes: Int32Array; values: (string | null)[]; counts: Int32Array };
type RangeCount = { facet: RangeFacet; values: Float64Array; min: number; max: number };

/**
 * Counts a filtered search over held stock, with the same rules as the SQL statement: hits and the
 * total are the listed cars passing every group; a facet counts the cars failing no group or only
 * its own (disjunctive), and so do a range's min and max.
 */
export function countStock(
  stocks: readonly WebsiteStock[],
  scope: SearchScope,
  groups: readonly FilterGroup[],
  named: NamedIds,
  request: Pick<SearchRequest, 'limit' | 'offset' | 'sort'>,
  termFacets: readonly TermFacet[],
  rangeFacets: readonly RangeFacet[],
): Counted {
  const groupIndex = new Map(groups.map((g, i) => [g.key as string, i]));
  const own = (facet: TermFacet | RangeFacet) => groupIndex.get(groupOf(facet)) ?? -1;
  const tally = newTally();
  const page = new FirstOnes(request.offset + request.limit);
  const { k0, k1 } = sortKeys(request.sort ?? scope.defaultSort);
  for (const stock of stocks) {
    const fails = new Uint8Array(stock.size);
    const failed = new Int8Array(stock.size);
    markUnlisted(stock, scope, fails);
    groups.forEach((group, g) => markGroup(stock, group, g, named, fails, failed));
    const terms: TermCount[] = termFacets.map((facet) => {
      const { codes, values } = termDictionary(stock, facet);
      return { facet, codes, values, counts: new Int32Array(values.length) };
    });
    const ranges: RangeCount[] = rangeFacets.map((facet) => ({ facet, values: RANGE_STATS[facet](stock), min: Infinity, max: -Infinity }));
    // A car failing one group counts only for that group's facets.
    const termsOf = groups.map((_, g) => terms.filter((t) => own(t.facet) === g));
    const rangesOf = groups.map((_, g) => ranges.filter((r) => own(r.facet) === g));
    const { id, createdUs } = stock.numbers;
    for (let i = 0; i < stock.size; i++) {
      const carFails = fails[i];
      if (carFails > 1) continue;
      if (carFails === 0) {
        tally.total++;
        page.offer(k0(stock, i), k1(stock, i), createdUs[i], id[i]);
      }
      for (const term of carFails === 0 ? terms : termsOf[failed[i]]) term.counts[term.codes[i]]++;
      for (const range of carFails === 0 ? ranges : rangesOf[failed[i]]) {
        const v = range.values[i];
        if (v < range.min) range.min = v;
        if (v > range.max) range.max = v;
      }
    }
    for (const term of terms) {
      term.counts.forEach((n, code) => {
        const value = term.values[code];
        if (n > 0 && value != null && value !== '') addCount(tally, term.facet, value, n);
      });
    }
    for (const range of ranges) if (range.min <= range.max) addStats(tally, range.facet, { min: range.min, max: range.max });
  }
  return { tally, pageIds: page.kept.slice(request.offset).map((c) => c.id) };
}
