import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { carImages, cars } from '../stock.schema';
import type { CarSummary } from '../stock.types';
import { scopeWhere } from './search.scope';
import { cleanFilterValue, searchTerms, type SearchTerm } from './search.text';
import {
  MAKE_MODEL_SEPARATOR,
  RANGE_FACETS,
  TERM_FACETS,
  type FacetStats,
  type RangeFacet,
  type SearchEngine,
  type SearchFilters,
  type SearchRequest,
  type SearchResponse,
  type SearchScope,
  type SortOption,
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

/**
 * Column of each term facet in `base`. Location and dealership facets group by id and are named
 * afterwards (several ids may share a name); make_model groups by (make, model).
 */
const TERM_COLUMN: Record<TermFacet, SQL> = {
  location_name: sql`${cars.locationId}`,
  car_type: sql`${cars.carType}`,
  make: sql`${cars.make}`,
  make_model: sql`${cars.model}`,
  model: sql`${cars.model}`,
  colour: sql`${cars.colour}`,
  simple_body: sql`${cars.simpleBody}`,
  simple_transmission: sql`${cars.simpleTransmission}`,
  simple_drive: sql`${cars.simpleDrive}`,
  simple_fuel: sql`${cars.simpleFuel}`,
  dealership_name: sql`${cars.dealershipId}`,
  status: sql`${cars.status}`,
  badge: sql`${cars.badge}`,
  city: sql`${cars.city}`,
  state: sql`${cars.state}`,
  item_type: sql`${cars.itemType}`,
  tag: sql`${cars.tag}`,
  certified: sql`${cars.certified}`,
};

const RANGE_COLUMN: Record<RangeFacet, SQL> = {
  price: sql`${cars.price}`,
  subscription_price: sql`${cars.subscriptionPrice}`,
  km: sql`${cars.km}`,
  year: sql`${cars.year}`,
  created_at_timestamp: sql`(extract(epoch from ${cars.createdAt}) * 1000)::bigint`,
};

/** Filter group of a facet: make and make_model filter together. */
function groupOf(facet: TermFacet | RangeFacet): string {
  return facet === 'make_model' ? 'make' : facet;
}

type Group = { key: string; predicate: SQL };

const list = (values: readonly (string | number | boolean)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

function cleanValues(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).map(cleanFilterValue).filter(Boolean))];
}

/** Ids of the scope's locations or dealerships with one of these names. */
function idsNamed(table: typeof locations | typeof dealerships, scope: SearchScope, names: string[]): SQL {
  return sql`(select ${table.id} from ${table} where ${table.websiteId} in (${list(scope.websiteIds)}) and ${table.name} in (${list(names)}))`;
}

/**
 * The active filter groups. A car passes the make group when its make:model is selected, or its
 * make is selected and none of that make's models is.
 */
function filterGroups(scope: SearchScope, filters: SearchFilters): Group[] {
  const groups: Group[] = [];
  const makes = cleanValues(filters.make);
  const makeModels = cleanValues(filters.make_model)
    .map((value) => value.split(MAKE_MODEL_SEPARATOR))
    .filter((parts): parts is [string, string] => parts.length === 2 && parts.every(Boolean));
  if (makes.length > 0 || makeModels.length > 0) {
    const narrowed = new Set(makeModels.map(([make]) => make));
    const wholeMakes = makes.filter((make) => !narrowed.has(make));
    const parts: SQL[] = [];
    if (makeModels.length > 0) {
      parts.push(sql`(${cars.make}, ${cars.model}) in (${sql.join(makeModels.map(([make, model]) => sql`(${make}, ${model})`), sql`, `)})`);
    }
    if (wholeMakes.length > 0) parts.push(sql`${cars.make} in (${list(wholeMakes)})`);
    groups.push({ key: 'make', predicate: parts.length > 0 ? sql`(${sql.join(parts, sql` or `)})` : sql`false` });
  }
  for (const facet of TERM_FACETS) {
    if (facet === 'make' || facet === 'make_model') continue;
    const values = cleanValues(filters[facet]);
    if (values.length === 0) continue;
    let predicate: SQL;
    if (facet === 'location_name') predicate = sql`${cars.locationId} in ${idsNamed(locations, scope, values)}`;
    else if (facet === 'dealership_name') predicate = sql`${cars.dealershipId} in ${idsNamed(dealerships, scope, values)}`;
    else if (facet === 'certified') {
      const flags = values.filter((v) => v === 'true' || v === 'false').map((v) => v === 'true');
      predicate = flags.length > 0 ? sql`${cars.certified} in (${list(flags)})` : sql`false`;
    } else predicate = sql`${TERM_COLUMN[facet]} in (${list(values)})`;
    groups.push({ key: facet, predicate });
  }
  for (const facet of RANGE_FACETS) {
    const range = filters[facet];
    if (!range) continue;
    const bounds: SQL[] = [];
    if (range.min != null) bounds.push(sql`${RANGE_COLUMN[facet]} >= ${range.min}`);
    if (range.max != null) bounds.push(sql`${RANGE_COLUMN[facet]} <= ${range.max}`);
    if (bounds.length > 0) groups.push({ key: facet, predicate: sql.join(bounds, sql` and `) });
  }
  return groups;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every term must match: stock-number-like terms as a whole word, others as a substring or fuzzily. */
function textCondition(terms: SearchTerm[]): SQL | undefined {
  if (terms.length === 0) return undefined;
  return sql.join(
    terms.map((term) => {
      if (term.exact) return sql`${cars.searchText} ~ ${`(^| )${term.text}( |$)`}`;
      const substring = sql`${cars.searchText} like ${likePattern(term.text)}`;
      return term.fuzzy ? sql`(${substring} or ${term.text} <% ${cars.searchText})` : substring;
    }),
    sql` and `,
  );
}

/** Relevance: the number of terms found as written (not only fuzzily). */
function textScore(terms: SearchTerm[]): SQL {
  if (!terms.some((t) => t.fuzzy)) return sql`0`;
  return sql.join(
    terms.map((t) => sql`(${cars.searchText} like ${likePattern(t.text)})::int`),
    sql` + `,
  );
}

function orderBy(sort: SortOption, withScore: boolean): SQL {
  const keys: string[] = withScore ? ['score desc'] : [];
  const newest = ['created_at desc', 'id desc'];
  switch (sort) {
    case 'custom_rank:desc':
      keys.push('custom_rank desc', ...newest);
      break;
    case 'created_at_timestamp:desc':
      keys.push(...newest);
      break;
    case 'price:asc':
    case 'price:desc':
    case 'km:asc':
    case 'km:desc':
    case 'subscription_price:asc':
    case 'subscription_price:desc': {
      const [field, direction] = sort.split(':');
      keys.push(`${field} ${direction} nulls last`, ...newest);
      break;
    }
  }
  return sql.raw(keys.join(', '));
}

const firstImageUrl = sql`coalesce(${cars.primaryImageUrl}, (
  select ${carImages.url} from ${carImages}
  where ${carImages.websiteId} = ${cars.websiteId} and ${carImages.carId} = ${cars.id}
  order by ${carImages.position}, ${carImages.id} limit 1))`;

const epochMs = (column: SQL | typeof cars.createdAt) => sql`(extract(epoch from ${column}) * 1000)::bigint`;

/** One hit as CarSummary's fields (image and location are shaped in toSummary). */
const hitJson = sql`json_build_object(
  'id', ${cars.id}, 'slug', ${cars.slug}, 'name', ${cars.name}, 'make', ${cars.make}, 'model', ${cars.model},
  'badge', ${cars.badge}, 'series', ${cars.series}, 'year', ${cars.year}, 'km', ${cars.km},
  'price', ${cars.price}, 'priceType', ${cars.priceType}, 'beforePrice', ${cars.beforePrice},
  'subscriptionPrice', ${cars.subscriptionPrice}, 'carType', ${cars.carType}, 'status', ${cars.status},
  'itemType', ${cars.itemType}, 'certified', ${cars.certified}, 'reserved', ${cars.reserved},
  'preorder', ${cars.preorder}, 'showOnDealerWebsite', ${cars.showOnDealerWebsite},
  'photosCount', ${cars.photosCount}, 'tag', ${cars.tag}, 'simpleFuel', ${cars.simpleFuel},
  'simpleBody', ${cars.simpleBody}, 'simpleTransmission', ${cars.simpleTransmission},
  'city', ${cars.city}, 'state', ${cars.state},
  'createdAtTimestamp', ${epochMs(cars.createdAt)},
  'soldDateTimestamp', ${epochMs(sql`${cars.soldDate}`)},
  'imageUrl', ${firstImageUrl},
  'locationName', ${locations.name}, 'locationSlug', ${locations.slug}, 'locationCity', ${locations.city}
)`;

type HitRow = Omit<CarSummary, 'image' | 'location'> & {
  imageUrl: string | null;
  locationName: string | null;
  locationSlug: string | null;
  locationCity: string | null;
};

function toSummary(row: HitRow): CarSummary {
  const { imageUrl, locationName, locationSlug, locationCity, ...car } = row;
  return {
    ...car,
    createdAtTimestamp: Number(car.createdAtTimestamp),
    soldDateTimestamp: car.soldDateTimestamp == null ? null : Number(car.soldDateTimestamp),
    image: imageUrl ? { url: imageUrl, thumbnailUrl: null, width: null, height: null, alt: car.name } : null,
    location: locationName != null ? { name: locationName, slug: locationSlug ?? '', city: locationCity ?? '' } : null,
  };
}

const locationJoin = sql`left join ${locations} on ${locations.websiteId} = ${cars.websiteId} and ${locations.id} = ${cars.locationId}`;

/** Columns of `base` each term facet groups by. */
function facetColumns(facet: TermFacet): readonly TermFacet[] {
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
type StatsRow = { failed: number | null; n: number } & Record<string, number | string | null>;
type ResultRow = {
  hits: HitRow[] | null;
  facets: FacetRow[] | null;
  stats: StatsRow[] | null;
  location_names: [number, string][] | null;
  dealership_names: [number, string][] | null;
};

const toMs = (value: number | string) => (typeof value === 'number' ? value : new Date(value).getTime());

export class SqlSearchEngine implements SearchEngine {
  constructor(private readonly db: Db) {}

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
    if (scope.websiteIds.length === 0) return { ...response, processingTimeMs: Math.round(performance.now() - started) };

    const terms = searchTerms(request.q);
    const groups = filterGroups(scope, request.filters ?? {});
    const groupIndex = new Map(groups.map((g, i) => [g.key, i]));
    const text = textCondition(terms);
    const columns = [...new Set(termFacets.flatMap((f) => facetColumns(f)))];
    const column = (name: string) => sql.identifier(`f_${name}`);

    const failCount = groups.length > 0 ? sql.raw(groups.map((_, i) => `(not g${i})::int`).join(' + ')) : sql`0`;
    const failedGroup = groups.length > 0 ? sql.raw(`case ${groups.map((_, i) => `when not g${i} then ${i}`).join(' ')} end`) : sql`null::int`;
    const groupingSets = termFacets.map((f) => sql`(${sql.join(facetColumns(f).map(column), sql`, `)})`);
    const rangeStats = rangeFacets.map((f) => {
      const name = RANGE_STAT[f];
      return sql`, min(${sql.identifier(name)}) as ${sql.identifier(`${f}_min`)}, max(${sql.identifier(name)}) as ${sql.identifier(`${f}_max`)}`;
    });
    const scopeIds = list(scope.websiteIds);
    const names = (table: typeof locations | typeof dealerships) =>
      sql`(select json_agg(json_build_array(${table.id}, ${table.name})) from ${table} where ${table.websiteId} in (${scopeIds}))`;

    const query = sql`
      with base as materialized (
        select *, ${failCount} as fails, ${failedGroup} as failed from (
          select ${cars.id} as id, ${cars.customRank} as custom_rank, ${cars.createdAt} as created_at,
            ${cars.price} as price, ${cars.km} as km, ${cars.subscriptionPrice} as subscription_price,
            ${cars.year} as year, ${textScore(terms)} as score
            ${sql.join(columns.map((c) => sql`, ${TERM_COLUMN[c]} as ${column(c)}`), sql``)}
            ${sql.join(groups.map((g, i) => sql`, coalesce(${g.predicate}, false) as ${sql.identifier(`g${i}`)}`), sql``)}
          from ${cars}
          where ${scopeWhere(scope)} ${text ? sql`and ${text}` : sql``}
        ) marked
        where ${failCount} <= 1
      ),
      page as (
        select id, row_number() over () as position from (
          select id from base where fails = 0
          order by ${orderBy(request.sort ?? scope.defaultSort, terms.some((t) => t.fuzzy))}
          limit ${limit} offset ${offset}
        ) ordered
      )
      select
        (select json_agg(${hitJson} order by page.position)
          from page join ${cars} on ${cars.id} = page.id ${locationJoin}) as hits,
        ${
          groupingSets.length > 0
            ? sql`(select json_agg(json_build_array(mask, failed, ${sql.join(columns.map(column), sql`, `)}, n)) from (
                select grouping(${sql.join(columns.map(column), sql`, `)}) as mask, failed,
                  ${sql.join(columns.map(column), sql`, `)}, count(*) as n
                from base group by failed, grouping sets (${sql.join(groupingSets, sql`, `)})) facet_counts)`
            : sql`null`
        } as facets,
        (select json_agg(row_to_json(totals)) from (
          select failed, count(*) as n ${sql.join(rangeStats, sql``)} from base group by failed) totals) as stats,
        ${termFacets.includes('location_name') ? names(locations) : sql`null`} as location_names,
        ${termFacets.includes('dealership_name') ? names(dealerships) : sql`null`} as dealership_names
    `;

    const result = await this.db.execute(query);
    const row = (result as unknown as { rows: ResultRow[] }).rows[0];

    // A car counts for a facet when it fails no group, or only the facet's own group.
    const countsFor = (facet: TermFacet | RangeFacet, failed: number | null) =>
      failed == null || failed === groupIndex.get(groupOf(facet));

    const locationNames = new Map(row?.location_names ?? []);
    const dealershipNames = new Map(row?.dealership_names ?? []);
    const setMask = (facet: TermFacet) =>
      columns.reduce((mask, c, i) => (facetColumns(facet).includes(c) ? mask : mask | (1 << (columns.length - 1 - i))), 0);
    const facetByMask = new Map(termFacets.map((f) => [setMask(f), f]));
    for (const [mask, failed, ...rest] of row?.facets ?? []) {
      const facet = facetByMask.get(mask);
      if (!facet || !countsFor(facet, failed)) continue;
      const n = Number(rest[columns.length]);
      const at = (c: TermFacet) => rest[columns.indexOf(c)];
      let value: string | number | boolean | null | undefined;
      if (facet === 'make_model') value = at('make') != null && at('model') != null ? `${at('make')}${MAKE_MODEL_SEPARATOR}${at('model')}` : null;
      else if (facet === 'location_name') value = locationNames.get(Number(at(facet)));
      else if (facet === 'dealership_name') value = dealershipNames.get(Number(at(facet)));
      else value = at(facet);
      if (value == null || value === '') continue;
      const distribution = response.facetDistribution[facet]!;
      distribution[String(value)] = (distribution[String(value)] ?? 0) + n;
    }

    for (const stats of row?.stats ?? []) {
      if (stats.failed == null) response.estimatedTotalHits = Number(stats.n);
      for (const facet of rangeFacets) {
        const min = stats[`${facet}_min`];
        const max = stats[`${facet}_max`];
        if (min == null || max == null || !countsFor(facet, stats.failed)) continue;
        const found = { min: facet === 'created_at_timestamp' ? toMs(min) : Number(min), max: facet === 'created_at_timestamp' ? toMs(max) : Number(max) };
        const known: FacetStats | undefined = response.facetStats[facet];
        response.facetStats[facet] = known ? { min: Math.min(known.min, found.min), max: Math.max(known.max, found.max) } : found;
      }
    }
    response.hits = (row?.hits ?? []).map(toSummary);
    response.processingTimeMs = Math.round(performance.now() - started);
    return response;
  }
}
