import 'server-only';
import { gte, sql, type SQL } from 'drizzle-orm';
import { locations } from '@/modules/locations/locations.schema';
import { dealerships } from '@/modules/tenancy/tenancy.schema';
import { cars, searchWords } from '../stock.schema';
import { TERM_COLUMN } from './search.columns';
import { SORT_DEFINITIONS, sortKeys, termFoundAsWritten, termPredicate, type Column, type Predicate, type SortKey, type Value } from './search.definition';
import type { SearchTerm } from './search.text';
import type { RangeFacet, SearchScope, SortOption, TermFacet } from './search.types';

/**
 * The declared search rules (search.definition.ts) compiled to SQL, for the statement of decision
 * 007 (sql-search-engine.ts). The stock index compiles the same declarations (stock-index.ts).
 */

/** Each range facet's value in the cars table: created_at_timestamp in epoch milliseconds, rounded as ::bigint rounds. */
export const RANGE_COLUMN: Record<RangeFacet, SQL> = {
  price: sql`${cars.price}`,
  subscription_price: sql`${cars.subscriptionPrice}`,
  km: sql`${cars.km}`,
  year: sql`${cars.year}`,
  created_at_timestamp: sql`(extract(epoch from ${cars.createdAt}) * 1000)::bigint`,
};

/** A term facet's column in the cars table; make_model is the (make, model) pair. */
function termColumn(facet: TermFacet): SQL {
  return facet === 'make_model' ? sql`(${cars.make}, ${cars.model})` : TERM_COLUMN[facet];
}

/** Where a predicate's columns are read: the cars table, or the `base` CTE's columns by name (sorting). */
export type ColumnsOf = (column: Column) => SQL;

/** Columns the scope reads besides the facets'. */
const SCOPE_COLUMN = { photos: sql`${cars.photosCount}`, sold_date: sql`${cars.soldDate}` };

export const CAR_COLUMNS: ColumnsOf = (column) =>
  column in SCOPE_COLUMN
    ? SCOPE_COLUMN[column as keyof typeof SCOPE_COLUMN]
    : column in RANGE_COLUMN
      ? RANGE_COLUMN[column as RangeFacet]
      : termColumn(column as TermFacet);
const BASE_COLUMNS: ColumnsOf = (column) => sql`${sql.identifier(column)}`;

export const list = (values: readonly (string | number | boolean)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

const valueSql = (value: Value) => (Array.isArray(value) ? sql`(${list(value as readonly [string, string])})` : sql`${value}`);

/** Ids of the scope's locations or dealerships with one of these names. */
export function idsNamed(column: 'location_name' | 'dealership_name', scope: Pick<SearchScope, 'websiteIds'>, names: readonly string[]): SQL {
  const table = column === 'location_name' ? locations : dealerships;
  return sql`(select ${table.id} from ${table} where ${table.websiteId} in (${list(scope.websiteIds)}) and ${table.name} in (${list(names)}))`;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A regular expression matching, as a whole word, any word of the vocabulary (search_words) that
 * the text is similar to; null when there is none. Words are letters and digits only, so they need
 * no escaping in the expression. The misspelling is compared with a few thousand words, not with
 * every car's text.
 */
function similarWordsPattern(text: string): SQL {
  return sql`(select '(^| )(' || string_agg(${searchWords.word}, '|') || ')( |$)' from ${searchWords} where ${text} <% ${searchWords.word})`;
}

/** A predicate as SQL (null where a column is null: callers coalesce it to false). */
export function toSql(predicate: Predicate, scope: Pick<SearchScope, 'websiteIds'>, columns: ColumnsOf = CAR_COLUMNS): SQL {
  switch (predicate.op) {
    case 'in':
      return predicate.values.length > 0 ? sql`${columns(predicate.column)} in (${sql.join(predicate.values.map(valueSql), sql`, `)})` : sql`false`;
    case 'named':
      return sql`${columns(predicate.column)} in ${idsNamed(predicate.column, scope, predicate.names)}`;
    case 'inIgnoringCase':
      return predicate.values.length > 0
        ? sql`lower(${columns(predicate.column)}) in (${sql.join(
            predicate.values.map((value) => sql`lower(${value})`),
            sql`, `,
          )})`
        : sql`false`;
    case 'since':
      // Through drizzle's column, which writes the instant as the timestamp column takes it.
      return gte(cars.soldDate, predicate.instant)!;
    case 'between': {
      const bounds: SQL[] = [];
      if (predicate.min != null) bounds.push(sql`${columns(predicate.column)} >= ${predicate.min}`);
      if (predicate.max != null) bounds.push(sql`${columns(predicate.column)} <= ${predicate.max}`);
      return bounds.length > 0 ? sql.join(bounds, sql` and `) : sql`true`;
    }
    case 'word':
      return sql`${cars.searchText} ~ ${`(^| )${predicate.text}( |$)`}`;
    case 'contains':
      return sql`${cars.searchText} like ${likePattern(predicate.text)}`;
    case 'similar':
      return sql`${cars.searchText} ~ ${similarWordsPattern(predicate.text)}`;
    case 'any':
      return predicate.of.length > 0 ? sql`(${sql.join(
        predicate.of.map((p) => toSql(p, scope, columns)),
        sql` or `,
      )})` : sql`false`;
    case 'all':
      return predicate.of.length > 0 ? sql`(${sql.join(
        predicate.of.map((p) => toSql(p, scope, columns)),
        sql` and `,
      )})` : sql`true`;
  }
}

/** Every term must match (termPredicate); undefined without terms. */
export function textCondition(terms: readonly SearchTerm[], scope: SearchScope): SQL | undefined {
  if (terms.length === 0) return undefined;
  return sql.join(
    terms.map((term) => toSql(termPredicate(term), scope)),
    sql` and `,
  );
}

/** Relevance: the number of terms found as written (termFoundAsWritten), when a term is fuzzy; else 0. */
export function textScore(terms: readonly SearchTerm[], scope: SearchScope): SQL {
  if (!terms.some((t) => t.fuzzy)) return sql`0`;
  return sql.join(
    terms.map((t) => sql`(${toSql(termFoundAsWritten(t), scope)})::int`),
    sql` + `,
  );
}

function sortKeySql(key: SortKey, scope: SearchScope): SQL {
  if ('last' in key) return sql`${toSql(key.last, scope, BASE_COLUMNS)} asc`;
  return sql`${BASE_COLUMNS(key.column)} ${sql.raw(key.direction)}${sql.raw(key.nullsLast ? ' nulls last' : '')}`;
}

/** The ORDER BY of `base` (its columns by name) for a sort; relevance first with a fuzzy term when the sort says so. */
export function orderBy(sort: SortOption, withScore: boolean, scope: SearchScope): SQL {
  const keys = sortKeys(sort).map((key) => sortKeySql(key, scope));
  if (withScore && SORT_DEFINITIONS[sort].relevanceFirst) keys.unshift(sql`score desc`);
  return sql.join(keys, sql`, `);
}
