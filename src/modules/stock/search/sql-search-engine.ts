import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db';
import { precompiled, queryPrepared } from '@/db/prepared';
import { locations } from '@/modules/locations/locations.schema';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import { cars, searchWords } from '../stock.schema';
import type { CarSummary } from '../stock.types';
import { locationJoin, summaryColumns, toSummary, type SummaryRow } from '../stock.queries';
import { scopeWhere } from './search.scope';
import { searchTerms, type SearchTerm } from './search.text';
import { TERM_COLUMN, type BaseColumn } from './search.columns';
import { filterGroups, groupOf, namedIn, type FilterGroup, type Predicate } from './search.definition';
import { idsNamed, list, orderBy, textCondition, textScore, toSql } from './search.sql';
import { addCount, addStats, newTally, type Tally } from './search.tally';
import type { HeldGenerations } from '@/modules/tenancy/tenancy.generations';
import { cardOf, countStock, facetNames, matchStock, StockIndex, wordsOfCars, type CompiledSearch, type NamedIds, type FacetNames, type TextMatch } from './stock-index';
import {
  MAKE_MODEL_SEPARATOR,
  RANGE_FACETS,
  TERM_FACETS,
  type RangeFacet,
  type SearchEngine,
  type SearchFilters,
  type SearchRequest,
  type SearchResponse,
  type SearchScope,
  type TermFacet,
} from './search.types';

/**
 * Faceted stock search in one SQL statement (docs/decisions/007-search-in-sql.md).
 *
 * 1. `marked`: the scope's listed cars that match the text, with one boolean per active filter
 *    group; `base` keeps the cars that fail at most one group and notes which.
 * 2. Hits and the total are the cars failing none. A facet's counts and a range's min/max take the
 *    cars failing none or only that facet's own group, so they ignore their own selection
 *    (disjunctive facets, as Meilisearch and Algolia count them). make and make_model are one
 *    group: the model list nests under the makes.
 * 3. Term facets are counted in one pass by unpivoting each car into (facet, value) pairs.
 */

/** A filter group's SQL predicate, one boolean column of `marked`. */
type Group = { key: string; predicate: SQL };

/** One hit: the stock queries' summary columns as JSON, shaped by their toSummary. */
const hitJson = sql`json_build_object(${sql.join(
  Object.entries(summaryColumns).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
  sql`, `,
)})`;

/**
 * The `page` CTE: ids of the requested page of `cars` (a query of ids) in `order`, with their
 * position. Limit and offset are written into the statement, not sent as parameters, so the
 * prepared statement's plan knows how few rows it needs (an index read in order, not a sort).
 */
function pageSql(cars: SQL, request: Pick<SearchRequest, 'limit' | 'offset'>, order: SQL): SQL {
  const count = (n: number) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`a page limit or offset must be a whole number ≥ 0, not ${n}`);
    return sql.raw(String(n));
  };
  return sql`page as (
    select id, row_number() over () as position from (
      ${cars} order by ${order} limit ${count(request.limit)} offset ${count(request.offset)}
    ) ordered
  )`;
}

/** The page's cars as hits, in order. */
const hitsSql = precompiled(sql`(select json_agg(${hitJson} order by page.position)
  from page join ${cars} on ${cars.id} = page.id left join ${locations} on ${locationJoin})`);

/** Columns of `base` each term facet groups by. */
function facetColumns(facet: TermFacet): readonly BaseColumn[] {
  return facet === 'make_model' ? ['make', 'model'] : [facet];
}

const RANGE_STAT: Record<RangeFacet, string> = {
  price: 'price',
  subscription_price: 'subscription_price',
  km: 'km',
  year: 'year',
  created_at_timestamp: 'created_at',
};

type FacetRow = [mask: number, failed: number | null, ...rest: (string | number | boolean | null)[]];
type StatsRow = { failed?: number | null; n: number } & Record<string, number | string | null>;

const toMs = (value: number | string) => (typeof value === 'number' ? value : new Date(value).getTime());
const column = (name: string) => sql.identifier(`f_${name}`);

const baseColumnsByKey = new Map<string, SQL>();

/** The columns `base` selects: sort keys, range values and the facets' columns. */
function baseColumns(columns: readonly BaseColumn[]): SQL {
  const key = columns.join();
  let compiled = baseColumnsByKey.get(key);
  if (!compiled) {
    compiled = precompiled(sql`${cars.id} as id, ${cars.customRank} as custom_rank, ${cars.createdAt} as created_at,
    ${cars.price} as price, ${cars.km} as km, ${cars.subscriptionPrice} as subscription_price, ${cars.year} as year
    ${sql.join(columns.map((c) => sql`, ${TERM_COLUMN[c]} as ${column(c)}`), sql``)}`);
    baseColumnsByKey.set(key, compiled);
  }
  return compiled;
}

/**
 * JSON rows [grouping mask, failed, ...columns, count] of one grouping set per term facet. With
 * `groupIndex` (a filtered search over `base`), each facet is counted only over the cars it counts:
 * those failing no filter group, or only the facet's own group, so the many cars that fail another
 * group are not grouped for every facet. `failed` is then null in every row.
 */
function facetCountsSql(from: SQL, columns: readonly BaseColumn[], termFacets: readonly TermFacet[], groupIndex?: ReadonlyMap<string, number>): SQL {
  if (termFacets.length === 0) return sql`null`;
  const parts = new Map<number | null, TermFacet[]>();
  for (const facet of termFacets) {
    const group = groupIndex?.get(groupOf(facet)) ?? null;
    parts.set(group, [...(parts.get(group) ?? []), facet]);
  }
  const selects = [...parts].map(([group, facets]) => {
    const grouped = new Set(facets.flatMap((f) => facetColumns(f)));
    // The mask over all columns, as grouping(...columns) would give: a column outside this part is never grouped.
    const mask = sql.join(
      columns.map((c, i) => (grouped.has(c) ? sql`(grouping(${column(c)}) << ${sql.raw(String(columns.length - 1 - i))})` : sql.raw(String(1 << (columns.length - 1 - i))))),
      sql` + `,
    );
    const sets = sql.join(
      facets.map((f) => sql`(${sql.join(facetColumns(f).map(column), sql`, `)})`),
      sql`, `,
    );
    const where = !groupIndex ? sql`` : group == null ? sql`where fails = 0` : sql`where fails = 0 or failed = ${sql.raw(String(group))}`;
    const selected = sql.join(
      columns.map((c) => (grouped.has(c) ? column(c) : sql`null`)),
      sql`, `,
    );
    // Each part builds its JSON rows itself: its columns and a neighbour's need not share a type.
    return sql`select json_build_array(${mask}, null, ${selected}, count(*)) as counted from ${from} ${where} group by grouping sets (${sets})`;
  });
  return sql`(select json_agg(counted) from (${sql.join(selects, sql` union all `)}) facet_counts)`;
}

/**
 * JSON rows {failed, n, <facet>_min, <facet>_max}. With `groupIndex`, by failed group, leaving out
 * the cars that fail a group no range belongs to: they count for no total and no range.
 */
function statsSql(from: SQL, rangeFacets: readonly RangeFacet[], groupIndex?: ReadonlyMap<string, number>): SQL {
  const stats = rangeFacets.map((f) => {
    const name = sql.identifier(RANGE_STAT[f]);
    return sql`, min(${name}) as ${sql.identifier(`${f}_min`)}, max(${name}) as ${sql.identifier(`${f}_max`)}`;
  });
  const rangeGroups = rangeFacets.flatMap((f) => groupIndex?.get(groupOf(f)) ?? []);
  const where = rangeGroups.length > 0 ? sql`where fails = 0 or failed in (${sql.raw(rangeGroups.join(', '))})` : sql`where fails = 0`;
  return sql`(select json_agg(row_to_json(totals)) from (
    select ${groupIndex ? sql`failed` : sql`null::int as failed`}, count(*) as n ${sql.join(stats, sql``)}
    from ${from} ${groupIndex ? sql`${where} group by failed` : sql``}) totals)`;
}

type CountsFor = (facet: TermFacet | RangeFacet, failed: number | null) => boolean;

function tallyRows(
  tally: Tally,
  facetRows: FacetRow[] | null,
  statsRows: StatsRow[] | null,
  columns: readonly BaseColumn[],
  termFacets: readonly TermFacet[],
  rangeFacets: readonly RangeFacet[],
  countsFor: CountsFor,
) {
  const setMask = (facet: TermFacet) =>
    columns.reduce((mask, c, i) => (facetColumns(facet).includes(c) ? mask : mask | (1 << (columns.length - 1 - i))), 0);
  const facetByMask = new Map(termFacets.map((f) => [setMask(f), f]));
  for (const [mask, failed, ...rest] of facetRows ?? []) {
    const facet = facetByMask.get(mask);
    if (!facet || !countsFor(facet, failed)) continue;
    const at = (c: BaseColumn) => rest[columns.indexOf(c)];
    const key =
      facet === 'make_model'
        ? at('make') != null && at('model') != null
          ? `${at('make')}${MAKE_MODEL_SEPARATOR}${at('model')}`
          : null
        : at(facet);
    if (key == null || key === '') continue;
    addCount(tally, facet, String(key), Number(rest[columns.length]));
  }
  for (const stats of statsRows ?? []) {
    const failed = stats.failed ?? null;
    if (failed == null) tally.total += Number(stats.n);
    for (const facet of rangeFacets) {
      const min = stats[`${facet}_min`];
      const max = stats[`${facet}_max`];
      if (min == null || max == null || !countsFor(facet, failed)) continue;
      const convert = (v: number | string) => (facet === 'created_at_timestamp' ? toMs(v) : Number(v));
      addStats(tally, facet, { min: convert(min), max: convert(max) });
    }
  }
}

function namesSql(table: typeof locations | typeof dealerships, websiteIds: readonly number[]): SQL {
  return sql`(select json_agg(json_build_array(${table.id}, ${table.name})) from ${table} where ${table.websiteId} in (${list(websiteIds)}))`;
}

type Found = { hits: CarSummary[]; tally: Tally; names: FacetNames };

/** About 350 bytes a car with its card (decision 071: 29.5 MiB of heap for the 87,070 listed bench cars): 250,000 cars (85 MiB) by default. */
const DEFAULT_STOCK_INDEX_CARS = 250_000;

export class SqlSearchEngine implements SearchEngine {
  /** The searched columns held in this process, which count every search (decision 020); null when turned off. */
  private readonly index: StockIndex | null;

  /**
   * `prepared: false` sends each statement through db.execute (unprepared), for tools that record
   * the statements, such as scripts/bench/explain.ts. `stockIndexCars`: the most cars the stock
   * index holds in this process; 0 counts every search in SQL. `generations`: the generations the
   * process keeps for this database (decision 055); with them, a stock-number search whose copies
   * are at those generations is answered from the copies alone (decision 071).
   */
  constructor(
    private readonly db: Db,
    private readonly options: { prepared?: boolean; stockIndexCars?: number; generations?: HeldGenerations } = {},
  ) {
    const cars = options.stockIndexCars ?? DEFAULT_STOCK_INDEX_CARS;
    this.index = cars > 0 ? new StockIndex(db, cars, options.generations?.learn) : null;
  }

  async search(scope: SearchScope, request: SearchRequest): Promise<SearchResponse> {
    const started = performance.now();
    const { limit, offset } = request;
    const requested = new Set(request.facets ?? []);
    const termFacets = TERM_FACETS.filter((f) => requested.has(f));
    const rangeFacets = RANGE_FACETS.filter((f) => requested.has(f));
    const response: SearchResponse = {
      hits: [],
      estimatedTotalHits: 0,
      processingTimeMs: 0,
      facetDistribution: Object.fromEntries(termFacets.map((f) => [f, {}])),
      facetStats: {},
      limit,
      offset,
    };
    if (scope.websiteIds.length > 0) {
      const terms = searchTerms(request.q);
      const groups = filterGroups(request.filters ?? {});
      const counted = () =>
        this.counted(
          scope,
          request,
          terms,
          groups.map((group) => ({ key: group.key, predicate: toSql(group.predicate, scope) })),
          termFacets,
          rangeFacets,
        );
      // The stock index counts every search (decision 020); the SQL statement when the index is off,
      // and as the oracle the index is tested against (decision 032).
      const found = this.index ? await this.indexed(scope, request, terms, groups, termFacets, rangeFacets) : await counted();
      response.hits = found.hits;
      response.estimatedTotalHits = found.tally.total;
      for (const [facet, counts] of found.tally.counts) {
        const distribution = response.facetDistribution[facet]!;
        for (const [key, n] of counts) {
          const name =
            facet === 'location_name'
              ? found.names.locations.get(Number(key))
              : facet === 'dealership_name'
                ? found.names.dealerships.get(Number(key))
                : key;
          if (name) distribution[name] = (distribution[name] ?? 0) + n;
        }
      }
      for (const [facet, stats] of found.tally.stats) response.facetStats[facet] = stats;
    }
    response.processingTimeMs = Math.round(performance.now() - started);
    return response;
  }

  /**
   * Which of `carIds` each search finds in the scope: the cars searchStock would list among its
   * hits for the same text and filters, without counting or ordering anything. On the stock index,
   * one statement brings the copies up to date and each search is tested against those cars alone
   * (matchStock), after one more for all the searches' location and dealership names and fuzzy
   * terms, when any has them. Without the index, one SQL statement per search.
   */
  async matchCars(scope: SearchScope, searches: readonly { q?: string; filters?: SearchFilters }[], carIds: readonly number[]): Promise<number[][]> {
    if (searches.length === 0 || carIds.length === 0 || scope.websiteIds.length === 0) return searches.map(() => []);
    const parsed = searches.map((search) => ({ terms: searchTerms(search.q), groups: filterGroups(search.filters ?? {}) }));
    const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;
    if (!this.index) {
      const found: number[][] = [];
      for (const { terms, groups } of parsed) {
        const text = textCondition(terms, scope);
        const rows = ((await this.db.execute(sql`select ${cars.id} as id from ${cars}
          where ${scopeWhere(scope)} and ${cars.id} = any(${intArray(carIds)}) ${text ? sql`and ${text}` : sql``}
          ${sql.join(groups.map((group) => sql`and coalesce(${toSql(group.predicate, scope)}, false)`), sql` `)}`)) as unknown as { rows: { id: number }[] }).rows;
        found.push(rows.map((row) => Number(row.id)));
      }
      return found;
    }
    // What prefetch reads for one search, read for all of them in one statement: each distinct
    // named filter's ids and each distinct fuzzy term's similar words. A car matches a fuzzy term
    // through a word of its own, so only the given cars' vocabulary words are compared with the
    // terms (tens of words, not the whole vocabulary).
    const wanted = new Map<string, Extract<Predicate, { op: 'named' }>>();
    const fuzzy = new Set<string>();
    for (const { terms, groups } of parsed) {
      for (const named of groups.flatMap((group) => namedIn(group.predicate))) wanted.set(JSON.stringify([named.column, named.names]), named);
      for (const term of terms) if (term.fuzzy) fuzzy.add(term.text);
    }
    const stocks = await this.index.sync(scope.websiteIds, scope.soldSince?.getTime() ?? null);
    const idsOf = new Map<string, number[]>();
    let similarOf = new Map<string, string[]>();
    if (wanted.size > 0 || fuzzy.size > 0) {
      const named = [...wanted.values()];
      const row = await this.one<{ ids: (number[] | null)[]; similar: Record<string, string[]> | null }>(
        sql`with words as materialized (
            select ${searchWords.word} as word from ${searchWords} where ${searchWords.word} in (select jsonb_array_elements_text(${JSON.stringify(wordsOfCars(stocks, carIds))}::jsonb))
          )
          select json_build_array(${sql.join([sql`null`, ...named.map((group) => sql`(select json_agg(named.id) from ${idsNamed(group.column, scope, group.names)} as named)`)], sql`, `)}) as ids,
            (select json_object_agg(term, words) from (
              select t.term, json_agg(w.word) as words from jsonb_array_elements_text(${JSON.stringify([...fuzzy])}::jsonb) as t(term) join words w on t.term <% w.word group by t.term
            ) found) as similar`,
        'values',
      );
      [...wanted.keys()].forEach((key, k) => idsOf.set(key, row.ids[k + 1] ?? []));
      similarOf = new Map(Object.entries(row.similar ?? {}));
    }
    const compiled = parsed.map(({ terms, groups }): CompiledSearch => {
      const named: NamedIds = { location_name: new Set(), dealership_name: new Set() };
      for (const group of groups.flatMap((g) => namedIn(g.predicate))) {
        for (const id of idsOf.get(JSON.stringify([group.column, group.names])) ?? []) (named[group.column] as Set<number>).add(id);
      }
      const text: TextMatch | null = terms.length > 0 ? { terms, similar: terms.map((term) => (term.fuzzy ? (similarOf.get(term.text) ?? []) : [])) } : null;
      return { groups, named, text };
    });
    return matchStock(stocks, scope, compiled, carIds);
  }

  /** Every count from the scope's cars in one statement (see the file comment). */
  private async counted(
    scope: SearchScope,
    request: SearchRequest,
    terms: SearchTerm[],
    groups: Group[],
    termFacets: readonly TermFacet[],
    rangeFacets: readonly RangeFacet[],
  ): Promise<Found> {
    const groupIndex = new Map(groups.map((g, i) => [g.key, i]));
    // Without filter groups every car of `base` counts for every facet: no split by failed group.
    const countedBy = groups.length > 0 ? groupIndex : undefined;
    const text = textCondition(terms, scope);
    const columns = [...new Set(termFacets.flatMap((f) => facetColumns(f)))];
    const failCount = groups.length > 0 ? sql.raw(groups.map((_, i) => `(not g${i})::int`).join(' + ')) : sql`0`;
    const failedGroup = groups.length > 0 ? sql.raw(`case ${groups.map((_, i) => `when not g${i} then ${i}`).join(' ')} end`) : sql`null::int`;

    const query = sql`
      with base as materialized (
        select *, ${failCount} as fails, ${failedGroup} as failed from (
          select ${baseColumns(columns)}, ${textScore(terms, scope)} as score
            ${sql.join(groups.map((g, i) => sql`, coalesce(${g.predicate}, false) as ${sql.identifier(`g${i}`)}`), sql``)}
          from ${cars}
          where ${scopeWhere(scope)} ${text ? sql`and ${text}` : sql``}
        ) marked
        where ${failCount} <= 1
      ),
      ${pageSql(sql`select id from base where fails = 0`, request, orderBy(request.sort ?? scope.defaultSort, terms.some((t) => t.fuzzy), scope))}
      select
        ${hitsSql} as hits,
        ${facetCountsSql(sql`base`, columns, termFacets, countedBy)} as facets,
        ${statsSql(sql`base`, rangeFacets, countedBy)} as stats,
        ${termFacets.includes('location_name') ? namesSql(locations, scope.websiteIds) : sql`null`} as location_names,
        ${termFacets.includes('dealership_name') ? namesSql(dealerships, scope.websiteIds) : sql`null`} as dealership_names
    `;
    const row = await this.one<{
      hits: SummaryRow[] | null;
      facets: FacetRow[] | null;
      stats: StatsRow[] | null;
      location_names: [number, string][] | null;
      dealership_names: [number, string][] | null;
    }>(query, scope.websiteIds.length > 1 ? 'values' : 'generic');
    // A car counts for a facet when it fails no group, or only the facet's own group.
    const countsFor: CountsFor = (facet, failed) => failed == null || failed === groupIndex.get(groupOf(facet));
    const tally = newTally();
    tallyRows(tally, row.facets, row.stats, columns, termFacets, rangeFacets, countsFor);
    return {
      hits: (row.hits ?? []).map(toSummary),
      tally,
      names: { locations: new Map(row.location_names ?? []), dealerships: new Map(row.dealership_names ?? []) },
    };
  }

  /**
   * A search counted over the stock index's copies of the scope's websites (decision 020), brought
   * up to date first (`sync`), the page of hits made from the same copies: counts and cards are of
   * one snapshot, the one whose generations the copies were checked against (decision 072). A
   * search for stock numbers alone checks them against the generations this process holds
   * (decision 071), when it was given them.
   */
  private async indexed(
    scope: SearchScope,
    request: SearchRequest,
    terms: SearchTerm[],
    groups: FilterGroup[],
    termFacets: readonly TermFacet[],
    rangeFacets: readonly RangeFacet[],
  ): Promise<Found> {
    const { named, text } = await this.prefetch(scope, terms, groups);
    const lookup = terms.length > 0 && terms.every((term) => term.exact);
    const stocks = await this.index!.sync(scope.websiteIds, scope.soldSince?.getTime() ?? null, lookup ? this.options.generations?.known : undefined);
    const { tally, page } = countStock(stocks, scope, groups, named, text, request, termFacets, rangeFacets);
    return { hits: page.map((car) => cardOf(car.stock, car.i)), tally, names: facetNames(stocks, tally) };
  }

  /**
   * What the index cannot tell by itself, in one statement when needed: the ids of the scope's
   * locations and dealerships with the names the filters select, and the vocabulary words each
   * fuzzy term is similar to (pg_trgm).
   */
  private async prefetch(scope: SearchScope, terms: SearchTerm[], groups: readonly FilterGroup[]): Promise<{ named: NamedIds; text: TextMatch | null }> {
    const named: NamedIds = { location_name: new Set(), dealership_name: new Set() };
    const similarWords: string[][] = terms.map(() => []);
    const text: TextMatch | null = terms.length > 0 ? { terms, similar: similarWords } : null;
    const wanted = groups.flatMap((group) => namedIn(group.predicate));
    const fuzzy = terms.filter((term) => term.fuzzy);
    if (wanted.length === 0 && fuzzy.length === 0) return { named, text };
    const ids = (group: (typeof wanted)[number]) =>
      sql`json_build_array(${group.column}::text, (select json_agg(named.id) from ${idsNamed(group.column, scope, group.names)} as named))`;
    const similar = (term: SearchTerm) => sql`(select json_agg(${searchWords.word}) from ${searchWords} where ${term.text} <% ${searchWords.word})`;
    const row = await this.one<{ ids: [string, number[] | null][]; similar: (string[] | null)[] }>(
      sql`select json_build_array(${sql.join([sql`null`, ...wanted.map(ids)], sql`, `)}) as ids,
        json_build_array(${sql.join([sql`null`, ...fuzzy.map(similar)], sql`, `)}) as similar`,
    );
    for (const [key, found] of row.ids.slice(1)) for (const id of found ?? []) (named[key as keyof NamedIds] as Set<number>).add(id);
    fuzzy.forEach((term, k) => (similarWords[terms.indexOf(term)] = row.similar[k + 1] ?? []));
    return { named, text };
  }

  /**
   * The statement's one row. `planFor` 'values': planned for these values on every call (a filtered
   * search across websites, where counting tens of thousands of cars outweighs planning and a plan
   * for the chosen make or price range measured a quarter faster than the generic one); otherwise
   * prepared with its generic plan (decision 019).
   */
  private async one<T>(query: SQL, planFor: 'values' | 'generic' = 'generic'): Promise<T> {
    if (this.options.prepared === false || planFor === 'values') return ((await this.db.execute(query)) as unknown as { rows: T[] }).rows[0];
    return (await queryPrepared<T & Record<string, unknown>>(this.db, query))[0];
  }
}
