import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** The rows of `db.execute(…)`: node-postgres answers `{rows}`, PGlite's driver too, some drivers a bare array. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

/**
 * `insert into <table> (<columns>) select <columns> from jsonb_populate_recordset(null::<table>, $1) …`:
 * the rows travel as one JSON parameter and PostgreSQL converts each value to its column's type,
 * so the insert can be part of a larger statement (a CTE reading other CTEs, a WHERE on them),
 * which Drizzle's `insert().values()` cannot. Columns are the keys of the first row that are not
 * undefined (the others take their defaults); values must be JSON-representable (no bytea).
 */
export function insertRowsSql<T extends PgTable>(table: T, rows: Partial<T['$inferInsert']>[], tail: SQL = sql``): SQL {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  const first = rows[0] as Record<string, unknown>;
  const keys = Object.keys(first).filter((key) => first[key] !== undefined);
  const names = keys.map((key) => columns[key].name);
  const json = JSON.stringify(rows.map((row) => Object.fromEntries(keys.map((key, i) => [names[i], (row as Record<string, unknown>)[key] ?? null]))));
  const list = sql.join(names.map((name) => sql.identifier(name)), sql`, `);
  const selected = sql.join(names.map((name) => sql`r.${sql.identifier(name)}`), sql`, `);
  return sql`insert into ${table} (${list}) select ${selected} from jsonb_populate_recordset(null::${table}, ${json}::jsonb) r ${tail}`;
}
