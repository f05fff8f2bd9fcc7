import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '@/db/client';

/**
 * What the process-kill tests share (leads-reliability, checkout-crash): a database a child
 * process can open too, and a child that runs real application code until it prints a marker,
 * then is killed with SIGKILL.
 *
 * The database is a fresh one on the TEST_DATABASE_URL server for the postgres project, or a PGlite
 * data directory of its own otherwise. PGlite allows one process at a time: the test closes its
 * handle before the child starts and opens it again after the kill (a dead holder's lock is taken
 * over, src/db/client.ts).
 */
export type CrashDatabase = {
  /** Opens it in this process and makes it the one getDb() returns. */
  open: () => Promise<DatabaseHandle>;
  /** Whether only one process may have it open (PGlite): close before the child runs. */
  exclusive: boolean;
  /** How the child finds it: CRASH_DB_URL or CRASH_DATA_DIR. */
  childEnv: Record<string, string>;
  /** Dropped (server) or deleted (data directory). */
  remove: () => Promise<void>;
};

export async function createCrashDatabase(prefix: string): Promise<CrashDatabase> {
  const setCurrent = (opened: DatabaseHandle) => {
    (globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(opened);
    return opened;
  };
  if (process.env.TEST_DB_KIND === 'postgres') {
    const { Client } = await import('pg');
    const name = `test_${prefix}_${process.pid}`;
    const admin = async (statement: string) => {
      const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(statement);
      await client.end();
    };
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    return {
      open: async () => setCurrent(await openDatabase({ url: url.toString(), poolSize: 3 })),
      exclusive: false,
      childEnv: { CRASH_DB_URL: url.toString(), CRASH_DATA_DIR: '' },
      remove: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  return {
    open: async () => setCurrent(await openDatabase({ dataDir })),
    exclusive: true,
    childEnv: { CRASH_DB_URL: '', CRASH_DATA_DIR: dataDir },
    remove: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}.lock`, { force: true });
    },
  };
}

/** In the child: the database the parent named, made the one getDb() returns. */
export async function openCrashDatabaseInChild(): Promise<DatabaseHandle> {
  const handle = await openDatabase(process.env.CRASH_DB_URL ? { url: process.env.CRASH_DB_URL, poolSize: 2 } : { dataDir: process.env.CRASH_DATA_DIR! });
  (globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
  return handle;
}

/** A running child of startChild: what it printed so far, and its end. */
export type Child = { process: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | null> };

/**
 * Runs `script` in a child Node process (node itself with tsx as a loader and the react-server
 * condition, as package.json's scripts run; not the tsx CLI, which would run the script in a
 * grandchild a kill would miss) and resolves once its output satisfies `ready`.
 */
export async function startChild(script: string, env: Record<string, string>, ready: (output: string) => boolean, timeoutMs = 60_000): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', script], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child never got there: ${output} ${errors}`)), timeoutMs);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (ready(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`child exited early: ${output} ${errors}`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { process: child, output: () => output, exited };
}

/** Kills a child with SIGKILL and waits for its end; throws if something else ended it first. */
export async function killChild(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  const signal = await child.exited;
  if (signal !== 'SIGKILL') throw new Error(`child ended by ${signal}, not by SIGKILL: ${child.output()}`);
}

/** startChild, then SIGKILL as soon as it is ready; answers everything it printed. */
export async function runUntilKilled(script: string, env: Record<string, string>, ready: (output: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const child = await startChild(script, env, ready, timeoutMs);
  await killChild(child);
  return child.output();
}
