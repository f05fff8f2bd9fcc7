import fs from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@/db/client';

const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };

/** Databases this test file opened; tests/support/setup.ts closes (and drops) them after the file. */
const openHandles: DatabaseHandle[] = [];

export async function closeTestDatabases(): Promise<void> {
  globalForDb.__dbHandle = undefined;
  for (const handle of openHandles.splice(0)) await handle.close();
}

/**
 * Gives this test file a database of its own and makes it the one getDb() returns: an in-memory
 * PGlite, or a new database on the TEST_DATABASE_URL server for the postgres project. Never the
 * demo data directory. Closed, and dropped on the server, after the file's tests.
 *
 * Each is a copy of the run's migrated template (tests/support/template-database.ts), opened by
 * openDatabase(), whose migrations then find nothing to do. Tests of migrating an empty database
 * open one themselves (openDatabase with a data directory or URL of their own).
 */
export async function useTestDatabase(): Promise<DatabaseHandle> {
  const handle = process.env.TEST_DB_KIND === 'postgres' ? await openServerDatabase() : await openMemoryDatabase();
  globalForDb.__dbHandle = Promise.resolve(handle);
  openHandles.push(handle);
  return handle;
}

async function openMemoryDatabase(): Promise<DatabaseHandle> {
  const template = inject('pgliteTemplatePath');
  if (!template) throw new Error('no PGlite template: vitest.config.ts runs tests/support/template-database.ts as globalSetup');
  return openDatabase({ dataDir: null, loadDataDir: new Blob([await fs.promises.readFile(template)]) });
}

async function openServerDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB_KIND=postgres needs TEST_DATABASE_URL');
  const template = inject('postgresTemplateName');
  if (!template) throw new Error('no template database: vitest.config.ts runs tests/support/template-database.ts as globalSetup');
  const { Client } = await import('pg');
  const name = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 5 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}
