import 'server-only';
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { logger } from '@/lib/logger';
import { HOST_ENV } from './embedded-wire';
import { listenInProcess, listenOnServer, type NotificationEvents, type Subscription } from './notifications';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type the modules see, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type DatabaseHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** LISTEN on a channel: on a server a connection of its own; on the embedded database its own delivery (src/db/notifications.ts). */
  subscribe: (channel: string, events: NotificationEvents) => Promise<Subscription>;
  close: () => Promise<void>;
};

/**
 * How long the server waits on the database (decision 055). A stalled or refusing database then
 * costs a request seconds, not the length of the stall: the error is one isDatabaseUnavailable()
 * reads as 'try again', and the visitor gets the friendly 503.
 * - connectMs: to open a connection, and to wait for a free one when the pool is busy.
 * - statementMs: PostgreSQL's statement_timeout (a slow statement, or one waiting on a lock).
 * - readMs: node-postgres's own wait for an answer: a stalled network never delivers the server's
 *   timeout, so the client gives up a second after the server would have.
 * - idleInTransactionMs: idle_in_transaction_session_timeout (a transaction whose process stopped
 *   talking holds its locks no longer than this).
 */
export type DatabaseTimeouts = { connectMs: number; statementMs: number; readMs: number; idleInTransactionMs: number };

export const SERVER_TIMEOUTS: DatabaseTimeouts = { connectMs: 3_000, statementMs: 5_000, readMs: 6_000, idleInTransactionMs: 10_000 };

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
  /** Bounds on every wait (the server passes SERVER_TIMEOUTS); none for operator scripts and migrations. */
  timeouts?: DatabaseTimeouts;
}): Promise<DatabaseHandle> {
  if (options.url) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const poolOf = (max: number, timeouts: DatabaseTimeouts | undefined) => {
      const pool = new Pool({
        connectionString: options.url,
        max,
        connectionTimeoutMillis: options.timeouts?.connectMs,
        options: Object.entries(SESSION_SETTINGS)
          .map(([name, value]) => `-c ${name}=${value}`)
          .join(' '),
        ...(timeouts && {
          statement_timeout: timeouts.statementMs,
          query_timeout: timeouts.readMs,
          idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
          keepAlive: true,
          keepAliveInitialDelayMillis: 10_000,
        }),
      });
      // An idle connection the server drops (restart, failover, a dropped database) emits 'error' on
      // the pool; unhandled, that would end the process. The pool replaces it on the next query.
      pool.on('error', (error) => logger.warn({ err: error }, 'database connection lost'));
      // A connection dropped while checked out between two queries emits 'error' on the client
      // itself, where the pool does not listen (seen once in CI as an uncaught exception while the
      // fault test terminated the database's backends); its next query fails and the pool drops it.
      pool.on('connect', (client) => client.on('error', (error) => logger.warn({ err: error }, 'database connection lost while in use')));
      if (timeouts) pool.on('connect', dropConnectionAfterReadTimeout);
      return pool;
    };
    // Migrations may run longer than a statement's bounds (an index on a large table): their own connection, only its opening bounded.
    const migrations = poolOf(1, undefined);
    try {
      await migrate(drizzle(migrations, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await migrations.end();
    }
    const pool = poolOf(options.poolSize ?? 10, options.timeouts);
    const db = drizzle(pool, { schema });
    const url = options.url;
    const connectMs = options.timeouts?.connectMs ?? SERVER_TIMEOUTS.connectMs;
    return handleOf(db, 'postgres', async (channel, events) => listenOnServer(url, channel, events, connectMs), () => pool.end());
  }
  if (options.dataDir && heldByPrimary(options.dataDir)) {
    const [{ drizzle }, { EmbeddedDatabaseClient }] = await Promise.all([import('drizzle-orm/pglite'), import('./embedded-client')]);
    const client = new EmbeddedDatabaseClient(options.timeouts);
    const db = drizzle(client as unknown as import('@electric-sql/pglite').PGlite, { schema });
    return handleOf(db, 'pglite', (channel, events) => listenInProcess((name, callback) => client.listen(name, callback), channel, events), () => client.close());
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
  return handleOf(
    db,
    'pglite',
    (channel, events) => listenInProcess((name, callback) => client.listen(name, callback), channel, events),
    async () => {
      await client.close();
      releaseLock();
    },
  );
}

/** A handle whose close() ends its subscriptions first. */
function handleOf(db: unknown, kind: DatabaseHandle['kind'], subscribe: DatabaseHandle['subscribe'], close: () => Promise<void>): DatabaseHandle {
  const subscriptions = new Set<Promise<Subscription>>();
  return {
    db: db as Db,
    kind,
    subscribe: (channel, events) => {
      const subscription = subscribe(channel, events);
      subscriptions.add(subscription);
      return subscription;
    },
    close: async () => {
      await Promise.allSettled([...subscriptions].map(async (subscription) => (await subscription).close()));
      await close();
    },
  };
}

/**
 * node-postgres gives up on an unanswered statement (query_timeout) but keeps the connection, with
 * the statement still in flight: inside a transaction the connection goes back to the pool that
 * way and the next statement queues behind the lost one. A connection that timed out is closed
 * instead, so the pool opens a fresh one.
 */
function dropConnectionAfterReadTimeout(client: import('pg').PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout') {
          (client as unknown as { connection?: { stream?: { destroy: () => void } } }).connection?.stream?.destroy();
        }
      });
    }
    return result;
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
