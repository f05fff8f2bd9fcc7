import 'server-only';
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { logger } from '@/lib/logger';
import { HOST_ENV } from './embedded-wire';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the modules see, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
};

export const MIGRATIONS_DIR = path.join(process.cwd(), 'drizzle');

/**
 * Typo tolerance of stock search (pg_trgm's `<%`, default 0.6): at 0.5 'toyta' finds Toyota and
 * 'skoda' finds Škoda. Set on every connection so the trigram index applies it.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.5;

/**
 * Settings of every connection. work_mem: a search across many websites groups tens of thousands
 * of cars for its facet counts; at the default 4 MB those sorts spill to disk. jit: a PostgreSQL
 * server compiles any plan estimated above 100,000 to machine code, which took 40-90 ms on each
 * search across websites (their estimates are high, their work a few ms); PGlite has no JIT.
 */
export const SESSION_SETTINGS: Record<string, string> = {
  'pg_trgm.word_similarity_threshold': String(WORD_SIMILARITY_THRESHOLD),
  work_mem: '16MB',
  jit: 'off',
};

/**
 * Opens the database: a node-postgres pool when a URL is given, otherwise PGlite persisted in
 * dataDir (or in memory when dataDir is null). Applies any pending migrations before returning.
 *
 * loadDataDir (tests only, in memory): starts from a PGlite dumpDataDir() tarball of a database
 * this function already opened, migrated, instead of from initdb; the migrations still run, so
 * a dump that is behind them is brought up to date rather than used as it is.
 *
 * In a server process of scripts/serve.mjs whose cluster primary holds that data directory for its
 * server processes (decision 046), a client of the primary's PGlite instead: the primary has
 * migrated it and set the session up.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string | null;
  poolSize?: number;
  loadDataDir?: Blob;
}): Promise<DatabaseHandle> {
  if (options.url) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: Object.entries(SESSION_SETTINGS)
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' '),
    });
    // An idle connection the server drops (restart, failover, a dropped database) emits 'error' on
    // the pool; unhandled, that would end the process. The pool replaces it on the next query.
    pool.on('error', (error) => logger.warn({ err: error }, 'database connection lost'));
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if (options.dataDir && heldByPrimary(options.dataDir)) {
    const [{ drizzle }, { EmbeddedDatabaseClient }] = await Promise.all([import('drizzle-orm/pglite'), import('./embedded-client')]);
    const client = new EmbeddedDatabaseClient();
    const db = drizzle(client as unknown as import('@electric-sql/pglite').PGlite, { schema });
    return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const releaseLock = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  const client = await PGlite.create({
    dataDir: options.dataDir ?? undefined,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  await client.exec(
    Object.entries(SESSION_SETTINGS)
      .map(([name, value]) => `set ${name} = '${value}';`)
      .join('\n'),
  );
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

/** Whether this is a server process whose cluster primary holds `dataDir` for it (src/db/embedded-host.ts). */
function heldByPrimary(dataDir: string): boolean {
  const held = process.env[HOST_ENV];
  return Boolean(held) && cluster.isWorker && held === path.resolve(dataDir);
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/**
 * PGlite corrupts a directory two processes write to, so each holder leaves its pid beside it.
 * A lock left by a process that has died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = `${dataDir}.lock`;
  try {
    const holder = Number(fs.readFileSync(lockFile, 'utf8'));
    if (holder && holder !== process.pid && processIsAlive(holder)) {
      throw new DataDirLockedError(
        `The embedded database at ${dataDir} is in use by process ${holder} (probably the running server). ` +
          'Stop it first, or set DATABASE_URL to use a PostgreSQL server that many processes can share.',
      );
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) throw error;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
