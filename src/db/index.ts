import 'server-only';
import path from 'node:path';
import { env } from '@/lib/env';
import { openDatabase, SERVER_TIMEOUTS, type Db, type DatabaseHandle } from './client';

export type { Db, Tx } from './client';

const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };

/** The database the environment names: the server and every script open the same one. */
export function databaseOptions() {
  return { url: env().databaseUrl, dataDir: path.join(env().dataDir, 'pglite') };
}

/** The application's database, opened (and migrated) once per process, with the server's bounds on every wait (decision 055). */
export function getDatabase(): Promise<DatabaseHandle> {
  globalForDb.__dbHandle ??= openDatabase({ ...databaseOptions(), timeouts: SERVER_TIMEOUTS }).catch((error) => {
    globalForDb.__dbHandle = undefined;
    throw error;
  });
  return globalForDb.__dbHandle;
}

/** The promise getDatabase() answers now (undefined before the first call): it changes only when the database is replaced (tests). */
export function currentDatabase(): Promise<DatabaseHandle> | undefined {
  return globalForDb.__dbHandle;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
