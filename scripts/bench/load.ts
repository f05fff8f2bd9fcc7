/**
 * Builds (or reuses) the search benchmark's databases: the embedded one in a directory of its own,
 * and optionally a PostgreSQL server database. A server database is only ever wiped when it is
 * empty or was made by this benchmark; a database holding anything else is refused.
 */
import fs from 'node:fs';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type Db } from '../../src/db/client';
import { cars, dealerships, locations, websiteDomains, websites } from '../../src/db/schema';
import { renderPhotos } from '@/demo/images';
import { localMediaStore } from '../../src/lib/media';
import { GENERATOR_VERSION, generateBenchData, isBenchSlug, type BenchData } from './generate-stock';

const META_TABLE = 'bench_meta';
const CAR_CHUNK = 5_000;
/** Marks a database as the benchmark's; a row with the generator version is added once the data is complete. */
const CREATE_META = `create table if not exists ${META_TABLE} (version text not null, cars integer not null, built_at timestamptz not null default now())`;

export class RefusedDatabaseError extends Error {}

type Log = (line: string) => void;

/** The rows of a query, on either driver (Db's execute result type is driver-neutral). */
export async function selectRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

async function storedVersion(db: Db): Promise<string | null> {
  const [exists] = await selectRows<{ present: boolean }>(db, sql`select to_regclass(${`public.${META_TABLE}`}) is not null as present`);
  if (!exists?.present) return null;
  const [row] = await selectRows<{ version: string }>(db, sql.raw(`select version from ${META_TABLE} limit 1`));
  return row?.version ?? null;
}

/** Rows as JSON objects keyed by column name, for jsonb_populate_recordset. */
function toColumnJson<T extends Record<string, unknown>>(table: PgTable, rows: T[]): { columns: string[]; json: string } {
  const tableColumns = getTableColumns(table) as Record<string, { name: string }>;
  const keys = Object.keys(rows[0]).filter((key) => key in tableColumns);
  const columns = keys.map((key) => tableColumns[key].name);
  const objects = rows.map((row) => {
    const out: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      const value = row[key];
      out[columns[i]] = value instanceof Date ? value.toISOString() : value;
    });
    return out;
  });
  return { columns, json: JSON.stringify(objects) };
}

/** One INSERT … SELECT FROM jsonb_populate_recordset per chunk: a few statements for 100,000 rows, on either driver. */
export async function insertJson<T extends Record<string, unknown>>(db: Db, table: PgTable, tableName: string, rows: T[], chunk = CAR_CHUNK): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    const { columns, json } = toColumnJson(table, rows.slice(i, i + chunk));
    const list = sql.raw(columns.map((c) => `"${c}"`).join(', '));
    const statement: SQL = sql`insert into ${sql.raw(tableName)} (${list}) select ${list} from jsonb_populate_recordset(null::${sql.raw(tableName)}, ${json}::jsonb)`;
    await db.execute(statement);
  }
}

async function writeRows(db: Db, data: BenchData, log: Log): Promise<void> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await insertJson(t, websites, 'websites', data.websites);
    await insertJson(t, websiteDomains, 'website_domains', data.domains);
    await insertJson(t, dealerships, 'dealerships', data.dealerships);
    await insertJson(t, locations, 'locations', data.locations);
    for (let i = 0; i < data.cars.length; i += CAR_CHUNK * 4) {
      await insertJson(t, cars, 'cars', data.cars.slice(i, i + CAR_CHUNK * 4));
      log(`  cars ${Math.min(i + CAR_CHUNK * 4, data.cars.length).toLocaleString('en-AU')} / ${data.cars.length.toLocaleString('en-AU')}`);
    }
    for (const table of ['websites', 'dealerships', 'locations', 'cars', 'website_domains']) {
      await t.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 0) + 1 from ${table}), false)`));
    }
    await t.execute(sql.raw(CREATE_META));
    await t.execute(sql`insert into ${sql.raw(META_TABLE)} (version, cars) values (${GENERATOR_VERSION}, ${data.cars.length})`);
  });
  log(`  rows written in ${((performance.now() - started) / 1000).toFixed(1)} s; analysing…`);
  await db.execute(sql.raw('vacuum analyze'));
}

let generated: BenchData | undefined;
function benchData(log: Log): BenchData {
  if (!generated) {
    const started = performance.now();
    generated = generateBenchData();
    log(`Generated ${generated.websites.length} websites and ${generated.cars.length.toLocaleString('en-AU')} cars in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  }
  return generated;
}

/** The embedded bench database in dataDir, rebuilt when missing, stale or `rebuild` is set. */
export async function openBenchPglite(dataDir: string, options: { rebuild: boolean; log: Log }): Promise<DatabaseHandle> {
  const { log } = options;
  if (!options.rebuild && fs.existsSync(dataDir)) {
    const handle = await openDatabase({ dataDir });
    const version = await storedVersion(handle.db);
    if (version === GENERATOR_VERSION) {
      log(`PGlite: reusing ${dataDir} (generator ${version}).`);
      return handle;
    }
    await handle.close();
    log(`PGlite: ${dataDir} holds ${version ? `generator ${version}` : 'no complete bench data'}: rebuilding.`);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const started = performance.now();
  const handle = await openDatabase({ dataDir });
  log(`PGlite: building ${dataDir}…`);
  await writeRows(handle.db, benchData(log), log);
  log(`PGlite: built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return handle;
}

/**
 * The bench data in the server database at url. Refuses a database that holds tables but was not
 * made by this benchmark, or websites that are not bench websites. A stale bench database is wiped
 * (schemas public and drizzle) and rebuilt.
 */
/** On a fresh machine the bench database does not exist yet: make it, empty, on the same server. */
async function createDatabaseIfMissing(url: string, log: Log): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      log(`PostgreSQL: creating the empty database ${name}.`);
      await client.query(`create database "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

export async function openBenchServer(url: string, options: { rebuild: boolean; log: Log }): Promise<DatabaseHandle> {
  const { log } = options;
  await createDatabaseIfMissing(url, log);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let reuse = false;
  try {
    const tables = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    const names = new Set(tables.rows.map((r) => r.name));
    if (names.has('websites')) {
      const foreign = await client.query<{ slug: string }>('select slug from websites');
      const notBench = foreign.rows.map((r) => r.slug).filter((slug) => !isBenchSlug(slug));
      if (notBench.length > 0) {
        throw new RefusedDatabaseError(
          `Refusing to use ${redact(url)}: it holds websites that are not bench websites (${notBench.slice(0, 3).join(', ')}${notBench.length > 3 ? ', …' : ''}). Point DATABASE_URL at an empty database, e.g. createdb bench_search.`,
        );
      }
    }
    if (names.size > 0 && !names.has(META_TABLE)) {
      throw new RefusedDatabaseError(
        `Refusing to use ${redact(url)}: it has tables (${[...names].slice(0, 3).join(', ')}…) but was not made by this benchmark. Point DATABASE_URL at an empty database, e.g. createdb bench_search.`,
      );
    }
    if (names.has(META_TABLE) && !options.rebuild) {
      const meta = await client.query<{ version: string }>(`select version from ${META_TABLE} limit 1`);
      reuse = meta.rows[0]?.version === GENERATOR_VERSION;
    }
    if (!reuse && names.size > 0) {
      log(`PostgreSQL: wiping the ${options.rebuild ? '' : 'stale '}bench database ${redact(url)}${options.rebuild ? ' (--rebuild)' : ''}.`);
      await client.query('drop schema public cascade; create schema public; drop schema if exists drizzle cascade');
    }
    // Claimed before the migrations run, so a build that fails half-way is recognised (and wiped) next time.
    if (!reuse) await client.query(CREATE_META);
  } finally {
    await client.end();
  }
  const handle = await openDatabase({ url });
  if (reuse) {
    log(`PostgreSQL: reusing ${redact(url)} (generator ${GENERATOR_VERSION}).`);
    return handle;
  }
  const started = performance.now();
  log(`PostgreSQL: building ${redact(url)}…`);
  await writeRows(handle.db, benchData(log), log);
  log(`PostgreSQL: built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return handle;
}

/** Renders the cars' primary photos into mediaDir (files already there are kept). */
export async function writeBenchMedia(mediaDir: string, log: Log): Promise<void> {
  const data = benchData(log);
  const started = performance.now();
  const result = await renderPhotos(localMediaStore(mediaDir), data.photos.values(), { concurrency: 4 });
  if (result.written > 0) log(`Photos: ${result.written} rendered, ${result.skipped} present (${((performance.now() - started) / 1000).toFixed(1)} s).`);
}

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL)';
  }
}
