import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { useTestDatabase } from '../support/database';
import { describeError, shapeOf, typeRoundTrip } from '../support/embedded-scenarios';

/**
 * The embedded database shared by server processes (decision 046): a real cluster primary holding
 * PGlite in a temporary data directory (tests/support/embedded-cluster-primary.mjs, loading
 * src/db/embedded-host.ts as scripts/serve.mjs does) and two real server processes reaching it
 * through openDatabase() (tests/support/embedded-cluster-worker.ts).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Worker = { id: number; pid: number; port: number };
type Answer = { value?: unknown; error?: Record<string, unknown> };
/** The SQLSTATE of an error as describeError() gives it, drizzle's wrapping or not. */
const codeOf = (error: Record<string, unknown> | undefined): unknown => error?.code ?? (error?.cause ? codeOf(error.cause as Record<string, unknown>) : undefined);

describe('the embedded database shared by two server processes through the cluster primary', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-shared-'));
  let primary: ChildProcess;
  let primaryPid = 0;
  let output = '';
  let a: Worker;
  let b: Worker;
  const primaryExited = () => new Promise<number | null>((resolve) => (primary.exitCode !== null ? resolve(primary.exitCode) : primary.once('exit', (code) => resolve(code))));

  const ask = async (worker: Worker, action: string, args: Record<string, unknown> = {}): Promise<Answer> => {
    const response = await fetch(`http://127.0.0.1:${worker.port}/`, { method: 'POST', body: JSON.stringify({ action, ...args }) });
    return v8.deserialize(Buffer.from(await response.arrayBuffer())) as Answer;
  };
  const value = async <T = unknown>(worker: Worker, action: string, args: Record<string, unknown> = {}): Promise<T> => {
    const answer = await ask(worker, action, args);
    if (answer.error) throw new Error(`${action} failed: ${JSON.stringify(answer.error)}`);
    return answer.value as T;
  };
  const rows = <T = Record<string, unknown>>(worker: Worker, text: string) => value<T[]>(worker, 'execute', { text });

  beforeAll(async () => {
    primary = spawn(process.execPath, [path.join(ROOT, 'tests/support/embedded-cluster-primary.mjs')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    primary.stderr!.on('data', (chunk) => (errors += chunk));
    const workers: Worker[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the cluster did not start: ${output} ${errors}`)), 90_000);
      primary.once('exit', () => reject(new Error(`the primary exited: ${output} ${errors}`)));
      primary.stdout!.on('data', (chunk) => {
        output += chunk;
        for (const [, kind, json] of output.matchAll(/^@@(primary|worker) (.*)$/gm)) {
          if (kind === 'primary') primaryPid = JSON.parse(json).pid;
          else if (!workers.some((w) => w.id === JSON.parse(json).id)) workers.push(JSON.parse(json));
        }
        if (primaryPid && workers.length === 2) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    [a, b] = workers.sort((x, y) => x.id - y.id);
    await rows(a, 'create table counter (id int primary key, n int not null)');
    await rows(a, 'insert into counter values (1, 0)');
    await rows(b, 'create table steps (seq serial primary key, worker text, step text, xid bigint)');
    // The cluster's own start is allowed 90 s above (a primary and two processes compiling TypeScript
    // on a busy shared machine); the hook waits a little longer than that.
  }, 120_000);

  afterAll(async () => {
    if (primary.exitCode === null && primary.signalCode === null) {
      primary.kill('SIGKILL');
      await primaryExited();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}.lock`, { force: true });
  });

  it('gives each server process a client of the primary, not a PGlite of its own', async () => {
    const [infoA, infoB] = await Promise.all([value(a, 'info'), value(b, 'info')]);
    expect(infoA).toEqual({ pid: a.pid, kind: 'pglite', client: 'EmbeddedDatabaseClient', statementTag: `w${a.id}_` });
    expect(infoB).toEqual({ pid: b.pid, kind: 'pglite', client: 'EmbeddedDatabaseClient', statementTag: `w${b.id}_` });
    // The lock names the primary: only it opened the directory.
    expect(fs.readFileSync(`${path.join(dataDir, 'pglite')}.lock`, 'utf8')).toBe(String(primaryPid));
  });

  it('runs concurrent transactions of the two processes one after the other, and commits both', async () => {
    const returned = await Promise.all([value<number>(a, 'increment', { me: 'a', pauseMs: 300 }), value<number>(b, 'increment', { me: 'b', pauseMs: 300 })]);
    expect(returned.sort()).toEqual([0, 1]);
    expect(await rows(a, 'select n from counter')).toEqual([{ n: 2 }]);
    const steps = await rows<{ worker: string; step: string; xid: string }>(b, "select worker, step, xid::text from steps where step in ('read', 'wrote') order by seq");
    expect(steps.map((s) => s.step)).toEqual(['read', 'wrote', 'read', 'wrote']);
    // No statement of one transaction between two of the other's.
    expect(steps[0].worker).toBe(steps[1].worker);
    expect(steps[2].worker).toBe(steps[3].worker);
    expect(steps[0].worker).not.toBe(steps[2].worker);
    expect(steps[0].xid).toBe(steps[1].xid);
    expect(steps[2].xid).toBe(steps[3].xid);
    expect(steps[0].xid).not.toBe(steps[2].xid);
  });

  it('leaves nothing of a transaction that rolls back, savepoints included, and keeps what a committed one kept', async () => {
    expect((await ask(a, 'roll back', { me: 'a' })).error).toMatchObject({ message: 'changed my mind' });
    expect((await ask(b, 'tx.rollback', { me: 'b' })).error).toMatchObject({ class: 'TransactionRollbackError' });
    const failed = await ask(a, 'fail inside', { me: 'a' });
    expect(failed.error).toMatchObject({ cause: { code: '22012', message: 'division by zero', class: 'DatabaseError' } });
    await value(b, 'roll back a savepoint', { me: 'b' });
    expect(await rows(b, "select worker, step from steps where step not in ('read', 'wrote') order by seq")).toEqual([{ worker: 'b', step: 'outer, kept' }]);
    expect(await rows(a, 'select n from counter')).toEqual([{ n: 2 }]);
  });

  it('answers a unique violation with the error PGlite gives in-process (23505, its constraint and detail)', async () => {
    await value(a, 'website', { slug: 'twin-motors' });
    const remote = (await ask(b, 'website', { slug: 'twin-motors' })).error;

    const local = await useTestDatabase();
    await local.db.insert(websites).values({ slug: 'twin-motors', name: 'twin-motors', config: {} });
    const inProcess = await local.db
      .insert(websites)
      .values({ slug: 'twin-motors', name: 'twin-motors', config: {} })
      .returning({ id: websites.id })
      .then(() => null, describeError);

    expect(remote).toMatchObject({ class: 'DrizzleQueryError', cause: { class: 'DatabaseError', code: '23505', constraint: expect.stringContaining('slug'), detail: 'Key (slug)=(twin-motors) already exists.' } });
    expect(remote).toEqual(inProcess);
  });

  it('returns every type as in-process PGlite does (Dates, strings, json, bytea, numeric, bigint, arrays, null)', async () => {
    const remote = await value<Awaited<ReturnType<typeof typeRoundTrip>>>(a, 'types');
    const local = await typeRoundTrip((await useTestDatabase()).db);
    expect(shapeOf(remote)).toEqual(shapeOf(local));
    expect(remote).toEqual(local);
    // What drizzle expects of each path, so the comparison above compares something.
    const [full, empty] = remote.select;
    expect(full.at).toEqual(new Date('2026-03-04T05:06:07.089Z'));
    expect(full.atText).toBe('2026-03-04 05:06:07.089+00');
    expect(full.blob).toBeInstanceOf(Buffer);
    expect([...full.blob!]).toEqual([0, 1, 2, 127, 128, 255]);
    expect(full.big).toBe(9007199254740993n);
    expect(full.amount).toBe('12345678901234567890.123');
    expect(full.times).toEqual([new Date('2026-01-01T00:00:00.000Z'), new Date('2026-12-31T23:59:59.999Z')]);
    expect(full.doc).toEqual({ a: [1, 'two', null], nested: { b: true }, text: 'ünïcødé 🚗' });
    expect(Object.values(empty).filter((v) => v !== null)).toEqual([2]);
    const raw = remote.execute[0] as Record<string, unknown>;
    expect(typeof raw.at).toBe('string');
    expect(typeof raw.big).toBe('bigint');
    expect(raw.blob).toBeInstanceOf(Uint8Array);
    expect((remote.query[0] as Record<string, unknown>).at).toBeInstanceOf(Date);
    expect(remote.exec[1]).toEqual([{ n: 2, total: '9007199254740993' }]);
    expect(remote.parameters[0]).toMatchObject({ big: 9007199254740993n, same_instant: true, nothing: null, numbers: [1, 2] });
  });

  it('runs prepared statements of the same text from both processes, each under its own name, and one never drops the other’s', async () => {
    const [fromA, fromB] = await Promise.all([value<{ twice_shared: number }[][]>(a, 'prepared', { values: [1, 2, 3] }), value<{ twice_shared: number }[][]>(b, 'prepared', { values: [4, 5, 6] })]);
    expect(fromA).toEqual([[{ twice_shared: 2 }], [{ twice_shared: 4 }], [{ twice_shared: 6 }]]);
    expect(fromB).toEqual([[{ twice_shared: 8 }], [{ twice_shared: 10 }], [{ twice_shared: 12 }]]);
    const shared = () => rows<{ name: string }>(a, "select name from pg_prepared_statements where statement like '%twice_shared%' order by name");
    const names = (await shared()).map((row) => row.name);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(new RegExp(`^stmt_w${a.id}_[0-9a-f]{24}$`));
    expect(names[1]).toBe(names[0].replace(`stmt_w${a.id}_`, `stmt_w${b.id}_`));

    // a prepares more than it keeps: its least recently used statements go, b's stays.
    await value(a, 'prepare many', { count: 130 });
    const count = async (worker: Worker) => (await rows<{ n: number }>(b, `select count(*)::int as n from pg_prepared_statements where starts_with(name, 'stmt_w${worker.id}_')`))[0].n;
    expect(await count(a)).toBeLessThanOrEqual(100);
    expect((await shared()).map((row) => row.name)).toEqual([names[1]]);
    expect(await value(b, 'prepared', { values: [7] })).toEqual([[{ twice_shared: 14 }]]);
    expect(await value(a, 'prepared', { values: [8] })).toEqual([[{ twice_shared: 16 }]]);
  });

  it("passes the database's notifications to every server process: a change one makes reaches the other's website generations within a second (decision 055)", async () => {
    const [{ id }] = await value<{ id: number }[]>(a, 'website', { slug: 'notified-motors' });
    const before = await value<{ website: string; cars: string }>(b, 'generations', { websiteId: id });
    const changedAt = Date.now();
    await rows(a, `update websites set name = 'Notified Motors' where id = ${id}`);
    let after = before;
    while (after.website === before.website && Date.now() - changedAt < 2_000) {
      await sleep(20);
      after = await value(b, 'generations', { websiteId: id });
    }
    expect(BigInt(after.website)).toBeGreaterThan(BigInt(before.website));
    expect(after.cars).toBe(before.cars);
    expect(Date.now() - changedAt).toBeLessThan(1_000);
    // The last test counts the websites the others left.
    await rows(a, `delete from websites where id = ${id}`);
  });

  it('bounds the waits (decision 055): a statement queued behind another process\'s transaction gives up after 6 s (57014), and a transaction left idle 10 s is rolled back (25P03)', async () => {
    const idling = ask(a, 'idle', { me: 'a', pauseMs: 11_000 });
    await sleep(300);
    const started = Date.now();
    const queued = await ask(b, 'execute', { text: 'select count(*)::int as n from steps' });
    expect(codeOf(queued.error)).toBe('57014');
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_500);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(codeOf((await idling).error)).toBe('25P03');
    // Nothing of the rolled-back transaction stays, and the database answers again.
    expect(await rows(b, "select step from steps where step in ('before idling', 'after idling')")).toEqual([]);
  }, 30_000);

  it('rolls back the open transaction of a process killed inside it, and the other process goes on within a second', async () => {
    expect(await value(a, 'hold', { me: 'a' })).toBe('holding');
    let answeredAt = 0;
    const waiting = rows(b, "insert into steps (worker, step) values ('b', 'after the kill') returning step").then((result) => {
      answeredAt = Date.now();
      return result;
    });
    await sleep(500);
    expect(answeredAt).toBe(0); // a's transaction holds the database
    const killedAt = Date.now();
    process.kill(a.pid, 'SIGKILL');
    expect(await waiting).toEqual([{ step: 'after the kill' }]);
    expect(answeredAt - killedAt).toBeLessThan(1000);
    expect(await rows(b, "select worker, step from steps where step in ('partial', 'after the kill') order by seq")).toEqual([{ worker: 'b', step: 'after the kill' }]);
    // The dead process's prepared statements are dropped; the living one's stay.
    for (let i = 0; i < 20 && (await rows(b, `select 1 from pg_prepared_statements where starts_with(name, 'stmt_w${a.id}_')`)).length > 0; i++) await sleep(100);
    expect(await rows(b, `select count(*)::int as n from pg_prepared_statements where starts_with(name, 'stmt_w${a.id}_')`)).toEqual([{ n: 0 }]);
    expect((await rows<{ n: number }>(b, `select count(*)::int as n from pg_prepared_statements where starts_with(name, 'stmt_w${b.id}_')`))[0].n).toBeGreaterThan(0);
  });

  it('refuses an operator script while the primary holds the database, naming the holder', async () => {
    const run = promisify(execFile);
    const failure = await run(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', path.join(ROOT, 'scripts/apikey-create.ts'), '--dealership', 'anyone'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      timeout: 60_000,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`The embedded database at ${path.join(dataDir, 'pglite')} is in use by process ${primaryPid}`);
  });

  it('closes the database cleanly on SIGTERM with every commit in it', async () => {
    primary.kill('SIGTERM');
    expect(await primaryExited()).toBe(0);
    expect(output).toMatch(new RegExp(`@@exit \\{"id":${b.id},`));
    expect(fs.existsSync(`${path.join(dataDir, 'pglite')}.lock`)).toBe(false);
    const reopened = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      expect(rowsOf(await reopened.db.execute(sql`select n from counter`))).toEqual([{ n: 2 }]);
      expect(rowsOf(await reopened.db.execute(sql`select step from steps where worker = 'b' and step not in ('read', 'wrote') order by seq`))).toEqual([{ step: 'outer, kept' }, { step: 'after the kill' }]);
      expect(rowsOf(await reopened.db.execute(sql`select slug from websites`))).toEqual([{ slug: 'twin-motors' }]);
    } finally {
      await reopened.close();
    }
  });
});
