/**
 * npm run bench:sitemap — how long one website's sitemap takes with 100,000 cars.
 *
 * Builds one dealer website holding the search benchmark's 100,000 generated cars
 * (scripts/bench/generate-stock.ts, all moved to its first website) in an embedded database under
 * .bench-data/sitemap, and, when BENCH_DATABASE_URL names one, in that PostgreSQL server database
 * (refused unless it is empty or holds only bench websites). Then times what /sitemap.xml and its
 * parts do: the plan (counts and the non-car URLs), the index, and each cars part (its one query
 * and its XML), validating every file against the sitemaps.org 0.9 rules. Figures go to
 * docs/benchmarks.md; `--no-write` only prints them.
 */
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { partEntries, partPath, sitemapPlan } from '../src/modules/content/sitemap.queries';
import { collect, sitemapIndexXml, urlsetChunks } from '../src/modules/content/sitemap.xml';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import { siteOrigin } from '../src/modules/tenancy/tenancy.paths';
import { validateSitemap } from '../tests/support/sitemap-schema';
import { BENCH_NOW } from './bench/generate-stock';
import { selectRows } from './bench/load';
import { measureOnEachDatabase, writeOneWebsite } from './bench/one-website';
import { BUSY_LOAD, cpuName, writeSection } from './bench/report';

const ROOT = path.resolve(import.meta.dirname, '..');
const PGLITE_DIR = path.join(ROOT, '.bench-data', 'sitemap', 'pglite');
const RUNS = 5;
const args = new Set(process.argv.slice(2));
const log = (line: string) => console.log(line);

type Timing = { label: string; medianMs: number; urls: number; bytes: number | null };
type Figures = { database: string; cars: number; listed: number; timings: Timing[]; totalMs: number };

const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

async function measure(handle: DatabaseHandle, database: string): Promise<Figures> {
  log(`${database}: writing 100,000 cars to one website…`);
  const websiteId = await writeOneWebsite(handle, log);
  globalForDb.__dbHandle = Promise.resolve(handle);
  const tenant = (await findTenantById(websiteId))!;
  const origin = siteOrigin(tenant, 'bench.localhost');
  const [{ total }] = await selectRows<{ total: number }>(handle.db, sql`select count(*)::int as total from cars`);

  const plans: number[] = [];
  let plan = await sitemapPlan(tenant, { now: BENCH_NOW });
  for (let i = 0; i < RUNS; i++) {
    const run = await timed(() => sitemapPlan(tenant, { now: BENCH_NOW }));
    plans.push(run.ms);
    plan = run.value;
  }
  if (!plan.parts) throw new Error('Expected an index: the website should have more than 50,000 URLs.');
  const timings: Timing[] = [{ label: 'plan: counts and the non-car URLs (4 queries at once)', medianMs: median(plans), urls: plan.pages.length, bytes: null }];

  const parts = plan.parts;
  const indexRuns = await Promise.all(Array.from({ length: RUNS }, () => timed(async () => sitemapIndexXml(origin, parts.map((part) => ({ path: partPath(part) }))))));
  const indexXml = indexRuns[0].value;
  const indexReport = validateSitemap(indexXml);
  if (indexReport.errors.length > 0) throw new Error(`The index is invalid: ${indexReport.errors[0]}`);
  timings.push({ label: '/sitemap.xml: the index XML, after the plan', medianMs: median(indexRuns.map((r) => r.ms)), urls: indexReport.locs.length, bytes: Buffer.byteLength(indexXml) });

  let listed = 0;
  for (const part of plan.parts) {
    const times: number[] = [];
    let xml = '';
    let urls = 0;
    for (let i = 0; i <= RUNS; i++) {
      const run = await timed(async () => {
        const entries = (await partEntries(tenant, plan, part, BENCH_NOW))!;
        return { xml: await collect(urlsetChunks(origin, [entries])), urls: entries.length };
      });
      if (i > 0) times.push(run.ms); // the first run warms up
      ({ xml, urls } = run.value);
    }
    const report = validateSitemap(xml);
    if (report.errors.length > 0) throw new Error(`${partPath(part)} is invalid: ${report.errors[0]}`);
    if (part.kind === 'cars') listed += urls;
    const step = part.kind === 'cars' ? 'one query and its XML' : 'the plan’s non-car URLs as XML (no query)';
    timings.push({ label: `${partPath(part)}: ${step}, after the plan`, medianMs: median(times), urls, bytes: Buffer.byteLength(xml) });
  }
  const totalMs = timings.reduce((sum, t) => sum + t.medianMs, 0);
  log(`${database}: ${listed.toLocaleString('en-AU')} listed cars of ${Number(total).toLocaleString('en-AU')}; every URL in ${totalMs.toFixed(0)} ms.`);
  return { database, cars: Number(total), listed, timings, totalMs };
}

function render(figures: Figures[], loadStart: number, loadEnd: number): string {
  const cpu = cpuName();
  const busy = Math.max(loadStart, loadEnd) > BUSY_LOAD;
  const lines = [
    '## Sitemap (`npm run bench:sitemap`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpu}, ${os.cpus().length} cores, Node ${process.version}. ` +
      `Load average (1 min) ${loadStart.toFixed(2)} at the start and ${loadEnd.toFixed(2)} at the end` +
      (busy ? ': **the machine was shared with other work during the run, so these figures are pessimistic.**' : '.'),
    '',
    'One website holding the search benchmark’s 100,000 generated cars (scripts/bench/generate-stock.ts, all moved to one website), listed at 2026-11-01. ' +
      'Past 50,000 URLs /sitemap.xml is an index; each cars part is one query (ordered by id, offset and limit) and its XML. ' +
      `Median of ${RUNS} runs after a warm-up, timed in the benchmark process; every file validated against the sitemaps.org 0.9 rules (tests/support/sitemap-schema.ts).`,
    '',
  ];
  for (const f of figures) {
    lines.push(`### ${f.database}: ${f.listed.toLocaleString('en-AU')} listed cars of ${f.cars.toLocaleString('en-AU')}`, '');
    lines.push('| step | median ms | URLs | bytes |', '|---|--:|--:|--:|');
    for (const t of f.timings) {
      lines.push(`| ${t.label} | ${t.medianMs < 1 ? t.medianMs.toFixed(2) : t.medianMs.toFixed(1)} | ${t.urls.toLocaleString('en-AU')} | ${t.bytes == null ? '' : t.bytes.toLocaleString('en-AU')} |`);
    }
    lines.push(`| **every URL: the plan, the index and all parts** | **${f.totalMs.toFixed(0)}** | | |`, '');
    lines.push('Each request for /sitemap.xml or a part makes the plan first, so a cars part as a crawler fetches it costs the plan plus its own row.', '');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0];
  if (loadStart > BUSY_LOAD) log(`Warning: the 1-minute load average is ${loadStart.toFixed(2)}; the figures will be pessimistic.`);
  const figures = await measureOnEachDatabase(PGLITE_DIR, measure, log);
  const section = render(figures, loadStart, os.loadavg()[0]);
  console.log(`\n${section}`);
  if (!args.has('--no-write')) log(`\nWrote ${path.relative(ROOT, writeSection(ROOT, section, 'sitemap'))}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
