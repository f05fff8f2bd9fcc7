import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '@/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** pglite project: a PGlite dumpDataDir() tarball of a migrated, empty database. */
    pgliteTemplatePath?: string;
    /** postgres project: a migrated, empty database on the TEST_DATABASE_URL server. */
    postgresTemplateName?: string;
  }
}

/**
 * Vitest globalSetup of each project (vitest.config.ts): migrates one empty database per test run,
 * which useTestDatabase() (tests/support/database.ts) copies for every test file instead of running
 * initdb and every migration again (3-5 s a file on PGlite). The template is made by the product's
 * own openDatabase(), so its migrations and extensions are exactly the product's; the copies are
 * migrated again when opened (a no-op unless the template is behind). Removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  return project.config.env?.TEST_DB_KIND === 'postgres' ? postgresTemplate(project) : pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const handle = await openDatabase({ dataDir: null });
  let dump: Blob;
  try {
    // openDatabase's handle shows only the drizzle database; drizzle keeps the client it wraps.
    dump = await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
  } finally {
    await handle.close();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitest-db-template-'));
  const file = path.join(dir, 'pglite.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplatePath', file);
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('the postgres project needs TEST_DATABASE_URL');
  const { Client } = await import('pg');
  const admin = async (statement: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const name = `test_template_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await admin(`CREATE DATABASE "${name}"`);
  const drop = () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    // Closed before any copy is made: CREATE DATABASE ... TEMPLATE refuses a template in use.
    const handle = await openDatabase({ url: url.toString(), poolSize: 1 });
    await handle.close();
  } catch (error) {
    await drop();
    throw error;
  }
  project.provide('postgresTemplateName', name);
  return drop;
}
