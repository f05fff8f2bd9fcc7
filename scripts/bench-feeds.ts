/**
 * npm run bench:feeds — how long one website's vehicle-ad feeds take with 100,000 cars.
 *
 * Builds one dealer website holding the search benchmark's 100,000 generated cars
 * (scripts/bench/generate-stock.ts, all moved to its first website) in an embedded database under
 * .bench-data/feeds, and, when BENCH_DATABASE_URL names one, in that PostgreSQL server database
 * (refused unless it is empty or holds only bench websites). Then produces /feeds/meta-vehicles.csv
 * and /feeds/google-vehicles.xml as the route streams them (feedChunks: a page of 1,000 cars per
 * query and chunk), timing the first chunk and the whole file, and how far the JavaScript heap
 * grows while it streams. One more run checks the files: the CSV read back with csv-parse, every Google
 * item counted. Figures go to docs/benchmarks.md; `--no-write` only prints them.
 */
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { feedChunks } from '../src/modules/feeds/feeds.stream';
import type { FeedKind } from '../src/modules/feeds/feeds.types';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import type { Tenant } from '../src/modules/tenancy/tenancy.types';
import { BENCH_NOW } from './bench/generate-stock';
import { selectRows } from './bench/load';
import { measureOnEachDatabase, writeOneWebsite } from './bench/one-website';
import { BUSY_LOAD, cpuName, writeSection } from './bench/report';

const ROOT = path.resolve(import.meta.dirname, '..');
const PGLITE_DIR = path.join(ROOT, '.bench-data', 'feeds', 'pglite');
const RUNS = 3;
const HOST = 'bench.localhost';
const args = new Set(process.argv.slice(2));
const log = (line: string) => console.log(line);

type Timing = { feed: string; firstChunkMs: number; totalMs: number; items: number; bytes: number; heapGrowthMiB: number };
type Figures = { database: string; cars: number; timings: Timing[] };

// A full collection after each chunk of the checking run shows the live heap, not garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Streams one feed as the route does, keeping only counts. */
async function stream(tenant: Tenant, kind: FeedKind, check: boolean) {
  const started = performance.now();
  let firstChunkMs = 0;
  let bytes = 0;
  let items = 0;
  if (check) collectGarbage();
  const heapAtStart = process.memoryUsage().heapUsed;
  let peakHeap = heapAtStart;
  let header: string[] | null = null;
  for await (const chunk of feedChunks(tenant, HOST, kind, { now: BENCH_NOW })) {
    if (firstChunkMs === 0) firstChunkMs = performance.now() - started;
    bytes += Buffer.byteLength(chunk);
    if (!check) continue;
    collectGarbage();
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    if (kind === 'meta') {
      // Every chunk holds whole records (the first also the header), so each parses on its own.
      const rows: string[][] = parse(chunk);
      if (!header) header = rows.shift()!;
      for (const row of rows) if (row.length !== header.length) throw new Error(`A CSV record of ${row.length} fields, not ${header.length}.`);
      items += rows.length;
    } else {
      items += chunk.split('<item>').length - 1;
    }
  }
  return { firstChunkMs, totalMs: performance.now() - started, bytes, items, heapGrowth: peakHeap - heapAtStart };
}

async function measure(handle: DatabaseHandle, database: string): Promise<Figures> {
  log(`${database}: writing 100,000 cars to one website…`);
  const websiteId = await writeOneWebsite(handle, log);
  globalForDb.__dbHandle = Promise.resolve(handle);
  const tenant = (await findTenantById(websiteId))!;
  const [{ total }] = await selectRows<{ total: number }>(handle.db, sql`select count(*)::int as total from cars`);
  const timings: Timing[] = [];
  for (const [kind, feed] of [['meta', '/feeds/meta-vehicles.csv'], ['google', '/feeds/google-vehicles.xml']] as const) {
    const checked = await stream(tenant, kind, true); // also the warm-up
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await stream(tenant, kind, false));
    const timing = {
      feed,
      firstChunkMs: median(runs.map((r) => r.firstChunkMs)),
      totalMs: median(runs.map((r) => r.totalMs)),
      items: checked.items,
      bytes: checked.bytes,
      heapGrowthMiB: checked.heapGrowth / 1024 ** 2,
    };
    log(`  ${feed}: ${timing.items.toLocaleString('en-AU')} items, ${timing.bytes.toLocaleString('en-AU')} bytes, first chunk ${timing.firstChunkMs.toFixed(0)} ms, whole ${timing.totalMs.toFixed(0)} ms`);
    timings.push(timing);
  }
  return { database, cars: Number(total), timings };
}

function render(figures: Figures[], loadStart: number, loadEnd: number): string {
  const cpu = cpuName();
  const busy = Math.max(loadStart, loadEnd) > BUSY_LOAD;
  const lines = [
    '## Vehicle-ad feeds (`npm run bench:feeds`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu}, ${os.cpus().length} cores, Node ${process.version}. ` +
      `Load average (1 min) ${loadStart.toFixed(2)} at the start and ${loadEnd.toFixed(2)} at the end` +
      (busy ? ': **the machine was shared with other work during the run, so these figures are pessimistic.**' : '.'),
    '',
    'One website holding the search benchmark’s 100,000 generated cars (scripts/bench/generate-stock.ts, all moved to one website), listed at 2026-11-01. ' +
      'Each feed is produced as its route streams it (decision 038): one query per 1,000 cars by id, each page one chunk. ' +
      `Median of ${RUNS} runs after a checking run (the CSV read back with csv-parse chunk by chunk, Google items counted), timed in the benchmark process; ` +
      'heap growth is, in the checking run, the most the live JavaScript heap (after a full collection at each chunk) grew above its size at the start while the file streamed: what one page of cars costs, not the file (PGlite’s own memory is outside the JavaScript heap).',
    '',
  ];
  for (const f of figures) {
    lines.push(`### ${f.database}: ${f.cars.toLocaleString('en-AU')} cars`, '');
    lines.push('| feed | items | bytes | first chunk ms | whole file ms | cars/s | heap growth MiB |', '|---|--:|--:|--:|--:|--:|--:|');
    for (const t of f.timings) {
      lines.push(
        `| ${t.feed} | ${t.items.toLocaleString('en-AU')} | ${t.bytes.toLocaleString('en-AU')} | ${t.firstChunkMs.toFixed(0)} | ${t.totalMs.toFixed(0)} | ${Math.round(t.items / (t.totalMs / 1000)).toLocaleString('en-AU')} | ${t.heapGrowthMiB.toFixed(0)} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0];
  if (loadStart > BUSY_LOAD) log(`Warning: the 1-minute load average is ${loadStart.toFixed(2)}; the figures will be pessimistic.`);
  const figures = await measureOnEachDatabase(PGLITE_DIR, measure, log);
  const section = render(figures, loadStart, os.loadavg()[0]);
  console.log(`\n${section}`);
  if (!args.has('--no-write')) log(`\nWrote ${path.relative(ROOT, writeSection(ROOT, section, 'feeds'))}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
