import 'server-only';
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Runs a large statement that is sent again and again with other values (a stock search) as a
 * prepared statement whose generic plan PostgreSQL keeps, so it is parsed and planned once per
 * connection instead of on every call. Planning was over half the time of a one-website search
 * (docs/decisions/019-prepared-search-statements.md).
 *
 * PREPARE/EXECUTE in SQL works alike on PGlite (whose API has no named statements) and on a server
 * connection. EXECUTE cannot take bound parameters, so the values are written as literals: numbers,
 * booleans, dates and strings only, strings as E'' literals with backslashes and quotes escaped.
 *
 * When server processes share the embedded database (decision 046), they all prepare on its one
 * session: each names its statements with its own tag (the client's `statementTag`), so a process
 * never runs, nor deallocates as least recently used, a statement another process prepared, and
 * the primary drops a dead process's statements by their tag.
 */

/** Prepared statements kept per connection; the least recently used is deallocated beyond this. */
const STATEMENTS_PER_CONNECTION = 100;

type Row = Record<string, unknown>;
/** One connection: runs a simple-protocol message (several statements) and gives each one's rows. */
type Connection = { key: object; tag: string; run: (text: string) => Promise<Row[][]> };
/** PGlite, or a server process's client of the embedded database the primary holds (src/db/embedded-client.ts). */
type PgliteClient = { exec: (text: string) => Promise<{ rows: Row[] }[]>; statementTag?: string };
type PoolClient = { query: (text: string) => Promise<{ rows: Row[] } | { rows: Row[] }[]>; release: (error?: Error) => void };
type Pool = { connect: () => Promise<PoolClient> };

const dialect = new PgDialect();
/**
 * Per connection: statement text → the name it is prepared under, in least-recently-used order.
 * Kept on globalThis: Next bundles this module into each route's server code, and the routes share
 * one database connection (PGlite) or pool, so they must share what is prepared on it too.
 */
const globalState = globalThis as unknown as { __preparedStatements?: WeakMap<object, Map<string, Promise<string>>> };
const prepared = (globalState.__preparedStatements ??= new WeakMap());

/**
 * A fragment without parameters rendered to SQL text once, so each search does not walk its
 * column objects again (building the statement was a measurable part of a one-website search).
 */
export function precompiled(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length > 0) throw new Error('a precompiled SQL fragment cannot hold parameters');
  return sql.raw(text);
}

export async function queryPrepared<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const client = (db as unknown as { $client: PgliteClient | Pool }).$client;
  if ('connect' in client) {
    const pooled = await client.connect();
    try {
      return (await runPrepared({ key: pooled, tag: '', run: async (message) => [await pooled.query(message)].flat().map((r) => r.rows) }, text, params)) as T[];
    } finally {
      pooled.release();
    }
  }
  return (await runPrepared({ key: client, tag: client.statementTag ?? '', run: async (message) => (await client.exec(message)).map((r) => r.rows) }, text, params)) as T[];
}

async function runPrepared(connection: Connection, text: string, params: unknown[]): Promise<Row[]> {
  const values = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
  for (let attempt = 0; ; attempt++) {
    const name = await statementName(connection, text);
    try {
      // For this call only (the settings end with the message's implicit transaction): the generic
      // plan, and no parallel workers, whose start-up costs more than these statements save.
      const results = await connection.run(
        `SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('max_parallel_workers_per_gather', '0', true); EXECUTE ${name}${values}`,
      );
      return results[results.length - 1];
    } catch (error) {
      // 26000: no such prepared statement (the connection was reset, or another call evicted it).
      if ((error as { code?: unknown }).code !== '26000' || attempt > 0) throw error;
      prepared.get(connection.key)?.delete(text);
    }
  }
}

/**
 * The name `text` is prepared under on this connection, preparing it first if needed. A
 * connection runs its messages in the order they are sent, so the least recently used statement
 * is deallocated after its own PREPARE and before the new one.
 */
function statementName(connection: Connection, text: string): Promise<string> {
  let statements = prepared.get(connection.key);
  if (!statements) prepared.set(connection.key, (statements = new Map()));
  const known = statements.get(text);
  if (known) {
    statements.delete(text);
    statements.set(text, known);
    return known;
  }
  if (statements.size >= STATEMENTS_PER_CONNECTION) {
    const [oldest] = statements.keys();
    statements.delete(oldest);
    // It may be gone already (the connection was reset): nothing to do then.
    connection.run(`DEALLOCATE ${nameOf(connection.tag, oldest)}`).catch(() => undefined);
  }
  const name = nameOf(connection.tag, text);
  const preparing = connection.run(`PREPARE ${name} AS ${text}`).then(
    () => name,
    (error: unknown) => {
      // 42P05: already prepared on this connection (by a caller that did not record it here). The
      // name is this process's tag and a hash of the text, so it is this very statement.
      if ((error as { code?: unknown }).code === '42P05') return name;
      statements.delete(text);
      throw error;
    },
  );
  statements.set(text, preparing);
  return preparing;
}

/** The start of the names of the statements prepared with `tag`. */
export const statementNamePrefix = (tag: string) => `stmt_${tag}`;
const nameOf = (tag: string, text: string) => `${statementNamePrefix(tag)}${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

function quote(text: string): string {
  if (text.includes('\0')) throw new TypeError('a string sent to PostgreSQL cannot contain a NUL character');
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A parameter value as an SQL literal. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot send ${value} to PostgreSQL`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return quote(value.toISOString());
  if (typeof value === 'string') return quote(value);
  throw new TypeError(`cannot send a ${typeof value} parameter as a literal`);
}
