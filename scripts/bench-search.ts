// `npm run bench:search`: stock search on 100,000 cars across 50 websites (scripts/bench/).
//   1. builds (or reuses) the bench data in .bench-data/search/pglite, and in DATABASE_URL when set
//      (an empty database or one this benchmark made; anything else is refused);
//   2. times a fixed query mix through SqlSearchEngine.search(), per website and across all, and
//      prints p50/p95/p99 per kind;
//   3. serves the search page from a production build (.next-bench) on 127.0.0.1:3300 with the
//      embedded bench data and measures it with autocannon (20 connections, 20 s, three runs per
//      mode, the median reported); with
//      DATABASE_URL, again with the server on that database;
//   4. writes the figures to docs/benchmarks.md (its own section only).
// Options: --rebuild (regenerate the data), --no-http (skip 3), --quick (few iterations, 5 s of
// load, nothing written), --no-write (print only), --only <text> (only the kinds whose name holds
// the text, e.g. --only 'stock number'; no load test, nothing written). scripts/bench/explain.ts shows the plans of a kind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { SqlSearchEngine } from '../src/modules/stock/search/sql-search-engine';
import { heldGenerationsOf } from '../src/modules/tenancy/tenancy.generations';
import { BENCH_NOW, CARS_PER_WEBSITE, GENERATOR_VERSION, WEBSITE_COUNT } from './bench/generate-stock';
import { buildIfNeeded, get, loadTest, ROOT, startServer, waitForServer, type LoadMode, type LoadResult } from './bench/http';
import { openBenchPglite, openBenchServer, RefusedDatabaseError, selectRows, writeBenchMedia } from './bench/load';
import { queryKinds, runKind, type KindResult, type Scope } from './bench/queries';
import { BUSY_LOAD, kindMet, machine, renderSection, summaryLines, targetMs, writeSection, type DatabaseFigures, type Report } from './bench/report';

const { values: args } = parseArgs({
  options: {
    rebuild: { type: 'boolean', default: false },
    'no-http': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});

const DATA_ROOT = path.join(ROOT, '.bench-data', 'search');
const PGLITE_DIR = path.join(DATA_ROOT, 'pglite');
const MEDIA_DIR = path.join(DATA_ROOT, 'media');
const PORT = 3300;
const SEARCH_PATH = '/search/new-used-and-demo-cars';
const ITERATIONS: Record<Scope, { warmup: number; iterations: number }> = args.quick
  ? { 'one website': { warmup: WEBSITE_COUNT, iterations: 20 }, 'all websites': { warmup: 1, iterations: 5 } }
  : // One warm-up run per website, so per-website caches are as warm as on a site with visitors.
    { 'one website': { warmup: WEBSITE_COUNT, iterations: 200 }, 'all websites': { warmup: 5, iterations: 50 } };
const LOAD_MODES: LoadMode[] = ['same URL', 'new URL each time'];
const LOAD = { connections: 20, durationS: args.quick ? 5 : 20, warmupRequests: 20 };
/** Load runs per mode, the median reported: one 20 s run on this machine moves by ±20 % from the next. */
const LOAD_RUNS = args.quick ? 1 : 3;

const log = (line: string) => console.log(line);
const databaseUrl = process.env.DATABASE_URL || undefined;

function printTable(label: string, results: KindResult[]): void {
  console.log(`\n${label}`);
  const width = Math.max(...results.map((r) => r.kind.length));
  console.log(`  ${'scope'.padEnd(12)}  ${'query'.padEnd(width)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'hits'.padStart(6)}  target`);
  for (const r of results) {
    console.log(
      `  ${r.scope.padEnd(12)}  ${r.kind.padEnd(width)}  ${r.p50.toFixed(2).padStart(8)}  ${r.p95.toFixed(2).padStart(8)}  ${r.p99.toFixed(2).padStart(8)}  ${String(r.medianHits).padStart(6)}  ${kindMet(r) ? 'met' : `MISSED (p95 > ${targetMs(r)} ms)`}`,
    );
  }
}

/** Times the whole query mix on one database. */
async function measure(handle: DatabaseHandle, label: string): Promise<DatabaseFigures> {
  const db = handle.db;
  const ids = (await selectRows<{ id: number }>(db, sql`select id from websites order by id`)).map((r) => Number(r.id));
  // A few listed stock numbers per website, for the stock-number kind.
  const stockRows = await selectRows<{ website_id: number; stocknum: string }>(
    db,
    sql`select website_id, stocknum from cars where show_on_dealer_website and status = 'in_stock' and id % 101 = 0 order by id`,
  );
  const stocknums = new Map<number, string[]>();
  for (const row of stockRows) stocknums.set(Number(row.website_id), [...(stocknums.get(Number(row.website_id)) ?? []), row.stocknum]);
  const stocknumFor = (i: number) => {
    const list = stocknums.get(ids[i % ids.length]) ?? [''];
    return list[Math.floor(i / ids.length) % list.length];
  };

  // A dealer's update: one car's price changed (by 1, back and forth) and the website's stock version
  // bumped, in one transaction.
  const stockChange = async (i: number) => {
    const websiteId = ids[i % ids.length];
    await db.transaction(async (tx) => {
      await tx.execute(sql`update cars set price = price # 1, updated_at = now() where id = (select min(id) from cars where website_id = ${websiteId})`);
      await tx.execute(sql`update websites set stock_version = stock_version + 1 where id = ${websiteId}`);
    });
  };

  // As getSearchEngine() makes it: with the generations this process keeps for the database.
  const engine = new SqlSearchEngine(db, { generations: heldGenerationsOf(handle) });
  const results: KindResult[] = [];
  for (const scope of ['one website', 'all websites'] as const) {
    for (const kind of queryKinds(stocknumFor, stockChange)) {
      if (args.only && !kind.name.includes(args.only)) continue;
      const result = await runKind(engine, kind, scope, { websiteIds: ids, now: BENCH_NOW, ...ITERATIONS[scope] });
      results.push(result);
      process.stdout.write(`  ${label} · ${scope} · ${kind.name}: p95 ${result.p95.toFixed(2)} ms\n`);
    }
  }
  printTable(label, results);
  return { label, results };
}

async function serverVersion(handle: DatabaseHandle): Promise<string> {
  const [row] = await selectRows<{ v: string }>(handle.db, sql`select current_setting('server_version') as v`);
  return row?.v ?? 'unknown';
}

/** The search page served from one database (the embedded bench data, or the server's), under autocannon. */
async function measureSearchPage(slug: string, label: string, databaseEnv: { DATABASE_URL: string }): Promise<Report['loads']> {
  const host = `${slug}.localhost:${PORT}`;
  const url = `http://127.0.0.1:${PORT}${SEARCH_PATH}`;
  const logFile = path.join(DATA_ROOT, `server-${databaseEnv.DATABASE_URL ? 'postgres' : 'pglite'}.log`);
  log(`\nSearch page on ${label}: ${url} (Host: ${host}); server output in ${path.relative(ROOT, logFile)}.`);
  const server = startServer(PORT, { DATA_DIR: DATA_ROOT, MEDIA_DIR, DEMO_MODE: '1', PORT: String(PORT), ...databaseEnv }, logFile);
  try {
    await waitForServer(url, host, server);
    const { status, body } = await get(url, host);
    if (status !== 200) throw new Error(`the search page answered ${status}; see ${logFile}`);
    log(`  answers 200 (${Math.round(Buffer.byteLength(body) / 1024)} KiB); autocannon, ${LOAD.connections} connections for ${LOAD.durationS} s…`);
    const results: Report['loads'] = [];
    for (const mode of LOAD_MODES) {
      const runs: LoadResult[] = [];
      for (let run = 0; run < LOAD_RUNS; run++) {
        const result = await loadTest(url, host, mode, LOAD);
        log(
          `  ${mode} (page cache: ${result.pageCache}), run ${run + 1} of ${LOAD_RUNS}: ${result.requestsPerSecond.toFixed(1)} requests/s, latency p50 ${result.latencyP50} ms, ` +
            `p99 ${result.latencyP99} ms, ${result.non2xx} non-2xx, ${result.errors} errors.`,
        );
        runs.push(result);
      }
      const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
      results.push({ label, mode, result: sorted[Math.floor(sorted.length / 2)], runs: runs.map((r) => r.requestsPerSecond) });
    }
    return results;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadStart = os.loadavg()[0];
  if (loadStart > BUSY_LOAD) {
    log(`Warning: the 1-minute load average is ${loadStart.toFixed(2)}: something else is using the CPU, so the figures will be pessimistic.`);
  }
  fs.mkdirSync(DATA_ROOT, { recursive: true });
  const databases: DatabaseFigures[] = [];
  let pgliteVersion = 'unknown';
  let postgresVersion: string | null = null;
  let benchSlug = '';

  const pglite = await openBenchPglite(PGLITE_DIR, { rebuild: args.rebuild, log });
  try {
    pgliteVersion = `${readPackageVersion('@electric-sql/pglite')} (PostgreSQL ${await serverVersion(pglite)})`;
    const [first] = await selectRows<{ slug: string }>(pglite.db, sql`select slug from websites order by id limit 1`);
    benchSlug = first?.slug ?? '';
    databases.push(await measure(pglite, `PGlite ${pgliteVersion}`));
  } finally {
    await pglite.close();
  }

  if (databaseUrl) {
    const server = await openBenchServer(databaseUrl, { rebuild: args.rebuild, log });
    try {
      postgresVersion = await serverVersion(server);
      databases.push(await measure(server, `PostgreSQL ${postgresVersion.split(' ')[0]} server`));
    } finally {
      await server.close();
    }
  } else {
    log('DATABASE_URL is not set: the PostgreSQL server part is skipped.');
  }

  const loads: Report['loads'] = [];
  let loadSkipped: string | null = null;
  if (args['no-http'] || args.only) {
    loadSkipped = args.only ? '--only' : '--no-http';
  } else {
    await writeBenchMedia(MEDIA_DIR, log);
    await buildIfNeeded();
    loads.push(...(await measureSearchPage(benchSlug, 'PGlite', { DATABASE_URL: '' })));
    if (databaseUrl) loads.push(...(await measureSearchPage(benchSlug, 'PostgreSQL server', { DATABASE_URL: databaseUrl })));
  }

  const report: Report = {
    date: new Date(),
    machine: machine({ postgres: postgresVersion, pglite: pgliteVersion, loadStart }),
    dataset:
      `${WEBSITE_COUNT} websites × ${CARS_PER_WEBSITE.toLocaleString('en-AU')} cars = ${(WEBSITE_COUNT * CARS_PER_WEBSITE).toLocaleString('en-AU')} cars ` +
      `(generator \`${GENERATOR_VERSION}\`, scripts/bench/generate-stock.ts: Australian makes and models from the demo catalogue, ` +
      'about 84 % in stock, 5 % coming soon, 11 % sold, 3 % hidden from the dealer website; 1–3 dealerships and yards per website). ' +
      `Listed cars are counted at ${BENCH_NOW.toISOString().slice(0, 10)} (the data's 'now'), sold ones for 3 days.`,
    databases,
    loads,
    loadSkipped,
  };
  console.log('\nSummary');
  for (const line of summaryLines(report)) console.log(`  ${line}`);
  if (args.quick || args['no-write'] || args.only) {
    console.log('\n(docs/benchmarks.md not written: --quick, --no-write or --only)');
  } else {
    const file = writeSection(ROOT, renderSection(report));
    console.log(`\nWrote ${path.relative(ROOT, file)}.`);
  }
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

function readPackageVersion(name: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof RefusedDatabaseError ? error.message : error);
  process.exit(1);
});
