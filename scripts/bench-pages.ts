// `npm run bench:pages`: Lighthouse 12.8 (its default mobile preset: Moto G Power emulation,
// simulated slow 4G and 4× CPU slowdown) on the home page, the first search page its navigation
// links and one car page of every demo dealer, harbour-city-motors' finance page, the compare
// page on three websites and the garage on two (issue 35), against the production build served on 127.0.0.1:3440 with the demo data.
//   1. builds (or reuses) the production bundle in NEXT_DIST_DIR (default .next-bench-pages);
//   2. starts `next start` on port 3440 with DATA_DIR / MEDIA_DIR (default .bench-data/pages, made
//      with the demo seed when empty);
//   3. picks each dealer's first listed car with photos through POST /api/search, and its search
//      page from its home page's navigation;
//   4. runs Lighthouse --runs times per page (default 3) in the system Chromium, prints each run
//      and the median of performance, accessibility, best practices, SEO, LCP, TBT, CLS and the
//      compressed JavaScript bytes, and checks them against the budgets;
//   5. writes the medians to docs/benchmarks.md (its own section only) unless --no-write;
//   6. (issue 17) measures harbour-city-motors' home, search and car pages with every widget it
//      configures, the providers' scripts answered by local stand-ins of realistic size, side by
//      side with the same pages of a copy of the website without widgets, and writes that to its
//      own section (bench:pages-widgets). --only-widgets runs just this part, --no-widgets skips it.
//   7. (issue 33) requests/s of the pages most visitors ask for (autocannon), and the home and
//      content pages from the page cache against a plain Node server sending the same bytes in as
//      many processes, in the same run (target: ≥ 0.7 of its requests/s), written to its own
//      section (bench:pages-throughput). --only-throughput runs just this part (no Lighthouse).
//      BENCH_PAGES_PORT moves the server from 3440 (the raw server takes the port two above).
// The machine is shared; Lighthouse's simulated throttling keeps the figures comparable, but a
// busy CPU still moves TBT and LCP, hence the median of several runs. Each run's benchmark index
// (Lighthouse's measure of the host CPU; its 4× slowdown is meant for about 1,500) is reported.
// --cpu-slowdown N replaces the 4× multiplier, to measure a fast machine as harshly as the
// reference one: N = 4 × the CPU index a default run reported / 1,500; `--cpu-slowdown auto` takes
// the index from a first Lighthouse pass and computes N (issue 32). A calibrated run adds the budget
// TBT ≤ 200 ms and writes its own section (pages-calibrated), beside the 4× table of record.
// --only tenant:kind,… (kind: home, search, car, finance, compare, garage) measures just those pages, writes nothing
// and skips the throughput part.
// --throttling devtools slows the browser itself (Chromium's CPU throttling and network emulation)
// instead of Lighthouse's simulation, which multiplies each task the unthrottled trace holds: React
// hydrates in a transition, yielding every 5 ms, and the simulation turns each such slice into a
// task N times as long, where a slow phone would have yielded. For comparison only: it writes nothing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { DEMO_SLUGS } from '@/demo/sites';
import { ROOT, startServer, waitForServer } from './bench/http';
import { measurePageThroughput, measureRawComparison, pageThroughputTable, rawComparisonTable, RAW_RATIO_TARGET, type ThroughputRow } from './bench/page-throughput';
import { cpuName, writeSection } from './bench/report';
import { prebuildStandIns, startStandInServer, type StandInServer } from './bench/widget-stand-in-server';
import { STAND_IN_KB, standInScript, widgetOfUrl } from '../tests/support/widget-stand-ins';
import type { WidgetId } from '../src/modules/widgets/widgets.plan';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'no-write': { type: 'boolean', default: false },
    label: { type: 'string', default: '' },
    'only-widgets': { type: 'boolean', default: false },
    'no-widgets': { type: 'boolean', default: false },
    'cpu-slowdown': { type: 'string', default: '4' },
    only: { type: 'string', default: '' },
    'only-throughput': { type: 'boolean', default: false },
    throttling: { type: 'string', default: 'simulate' },
  },
});

const PORT = Number(process.env.BENCH_PAGES_PORT ?? 3440);
const TENANTS = DEMO_SLUGS;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DIST_DIR = process.env.NEXT_DIST_DIR ?? '.next-bench-pages';
const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR ?? '.bench-data/pages/data');
const MEDIA_DIR = path.resolve(ROOT, process.env.MEDIA_DIR ?? '.bench-data/pages/media');
const RUNS = Math.max(1, Number(args.runs) || 3);
if (args.throttling !== 'simulate' && args.throttling !== 'devtools') throw new Error(`--throttling: 'simulate' or 'devtools', not '${args.throttling}'`);
const THROTTLING: 'simulate' | 'devtools' = args.throttling;
/** Figures of the browser's own throttling compare with nothing of record: printed, never written. */
const WRITE = !args['no-write'] && THROTTLING === 'simulate';
/** Lighthouse's CPU slowdown multiplier for every run (its default mobile preset: 4); `auto`: calibrated once the server is up. */
const AUTO_SLOWDOWN = args['cpu-slowdown'] === 'auto';
let CPU_SLOWDOWN = AUTO_SLOWDOWN ? 4 : Number(args['cpu-slowdown']);
if (!(CPU_SLOWDOWN >= 1 && CPU_SLOWDOWN <= 30)) throw new Error(`--cpu-slowdown: a multiplier from 1 to 30 or 'auto', not '${args['cpu-slowdown']}'`);
/** Lighthouse's default preset stands for a phone on a machine whose CPU index is about 1,500 (decision 051). */
const REFERENCE_CPU_INDEX = 1500;
const calibrated = () => CPU_SLOWDOWN !== 4;
/** How the CPU is throttled, for the reports. */
const slowdownText = () => (calibrated() ? `${CPU_SLOWDOWN}× CPU slowdown instead of its 4× (--cpu-slowdown${AUTO_SLOWDOWN ? ' auto' : ''})` : '4× CPU slowdown');
const PAGE_KINDS = ['home', 'search', 'car', 'finance', 'compare', 'garage'] as const;
type PageKind = (typeof PAGE_KINDS)[number];
/** --only: the tenant:kind pairs to measure, or null for every page. */
const ONLY: Set<string> | null = args.only
  ? new Set(
      args.only.split(',').map((pair) => {
        const [tenant, kind] = pair.trim().split(':');
        if (!DEMO_SLUGS.includes(tenant) || !PAGE_KINDS.includes(kind as PageKind)) throw new Error(`--only: tenant:kind with kind ${PAGE_KINDS.join('/')}, not '${pair}'`);
        return `${tenant}:${kind}`;
      }),
    )
  : null;
const THROUGHPUT_SECONDS = 10;
/** The raw-server comparison (issue 33): short rounds, alternating, so a shared machine's load falls on both alike. */
const RAW_ROUNDS = 4;
const RAW_ROUND_SECONDS = 5;
// The finance page and its quote popup (issue 15).
const EXTRA_PAGES = [{ tenant: 'harbour-city-motors', path: '/finance' }];
// Issue 35's pages: compare (three cars) on an AU, the NZ and the US website, and the garage where a
// website has one (signed out: the cars saved in this browser, none here). Both are noindex, so
// Lighthouse's SEO score (crawlable) is not a budget for them.
const COMPARE_TENANTS = ['harbour-city-motors', 'kiwi-motors', 'lone-star-auto'];
const GARAGE_PAGES = [
  { tenant: 'harbour-city-motors', path: '/my-garage' },
  { tenant: 'kiwi-motors', path: '/mykiwi/saved' },
];

export const BUDGETS = { performance: 95, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 2000, cls: 0.02, jsKb: 170 };
/** At the calibrated slowdown (issue 32): the main thread of a mid-range phone. */
export const CALIBRATED_TBT_MS = 200;

type Figures = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
  /** Lighthouse's measure of the host CPU when the run started (its 4× slowdown assumes about 1,500). */
  benchmarkIndex: number;
};

function run(command: string, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function build(): Promise<void> {
  const tsconfig = path.join(ROOT, 'tsconfig.json');
  const before = fs.readFileSync(tsconfig);
  const code = `import { buildIfNeeded } from ${JSON.stringify(path.join(ROOT, 'scripts', 'lib.mjs'))}; await buildIfNeeded(${JSON.stringify(DIST_DIR)});`;
  try {
    const status = await run(process.execPath, ['--input-type=module', '-e', code], {
      ...process.env,
      NEXT_DIST_DIR: DIST_DIR,
      NEXT_TELEMETRY_DISABLED: '1',
    });
    if (status !== 0) throw new Error(`next build failed (exit ${status})`);
  } finally {
    // `next build` adds its dist dir's types to tsconfig.json; put the file back as it was.
    if (!fs.readFileSync(tsconfig).equals(before)) fs.writeFileSync(tsconfig, before);
  }
}

async function prepareData(): Promise<void> {
  if (fs.existsSync(DATA_DIR) && fs.readdirSync(DATA_DIR).length > 0) return;
  console.log(`Seeding the demo data into ${path.relative(ROOT, DATA_DIR)}…`);
  const status = await run(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'scripts/db-prepare.ts'], {
    ...process.env,
    DATA_DIR,
    MEDIA_DIR,
  });
  if (status !== 0) throw new Error('db-prepare failed');
}

type Hit = { slug: string; status: string; primary_image_url: string | null };

/** A request with a Host header (fetch cannot send one; *.localhost may not resolve in Node). */
function request(method: string, urlPath: string, host: string, body?: string, port = PORT): Promise<{ status: number; location: string | null; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method,
        headers: { host, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The dealer's first in-stock car with a photo, in its own search order, on its own vehicle path. */
/** The website's first 50 listed cars, in its own search order. */
async function listedCars(tenant: string, port: number): Promise<Hit[]> {
  const search = await request('POST', '/api/search', `${tenant}.localhost`, JSON.stringify({ limit: 50 }), port);
  if (search.status !== 200) throw new Error(`${tenant}: /api/search answered ${search.status}`);
  return (JSON.parse(search.text) as { hits: Hit[] }).hits;
}

async function carPageUrl(tenant: string, port = PORT): Promise<string> {
  const host = `${tenant}.localhost`;
  const hits = await listedCars(tenant, port);
  const hit = hits.find((h) => h.status === 'in_stock' && h.primary_image_url) ?? hits[0];
  if (!hit) throw new Error(`${tenant}: no listed car`);
  // A 308 to the website's vehicle path would count against the page: follow it once here.
  const first = await request('GET', `/cars/${hit.slug}`, host, undefined, port);
  const pathname = first.status === 308 && first.location ? new URL(first.location, `http://${host}`).pathname : `/cars/${hit.slug}`;
  return `http://${host}:${port}${pathname}`;
}

/** /compare with the website's first three listed cars in stock (issue 35 item 4). */
async function comparePageUrl(tenant: string, port = PORT): Promise<string> {
  const slugs = (await listedCars(tenant, port)).filter((h) => h.status === 'in_stock').slice(0, 3).map((h) => h.slug);
  if (slugs.length < 3) throw new Error(`${tenant}: fewer than three cars in stock to compare`);
  return `http://${tenant}.localhost:${port}/compare?${slugs.map((slug) => `car=${encodeURIComponent(slug)}`).join('&')}`;
}

/** The first search page the dealer's home page links to: the page a visitor opens from it. */
async function searchPageUrl(tenant: string, port = PORT): Promise<string> {
  const host = `${tenant}.localhost`;
  const home = await request('GET', '/', host, undefined, port);
  const [, searchPath] = /href="(\/search\/[^"?#]+)"/.exec(home.text) ?? [];
  if (home.status !== 200 || !searchPath) throw new Error(`${tenant}: no search link on the home page (${home.status})`);
  return `http://${host}:${port}${searchPath}`;
}

type NetworkItem = { url?: string; resourceType?: string; transferSize?: number };

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function runLighthouse(url: string, flags: Parameters<typeof lighthouse>[1], attempt = 1): Promise<Lhr> {
  const result = await lighthouse(url, { output: 'json', logLevel: 'error', throttlingMethod: THROTTLING, throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN }, ...flags });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    // Chromium now and then records no navigation start in its trace: Lighthouse asks to run again.
    if (lhr.runtimeError.code === 'NO_NAVSTART' && attempt < 3) return runLighthouse(url, flags, attempt + 1);
    throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  return lhr;
}

const networkItems = (lhr: Lhr) => ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []) as NetworkItem[];

async function measure(url: string, port: number): Promise<Figures> {
  const lhr = await runLighthouse(url, { port, onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const items = networkItems(lhr);
  const jsBytes = items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  const failing = Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
    .map((audit) => audit.id);
  if (failing.length > 0) console.log(`    failing audits: ${failing.join(', ')}`);
  // Measuring a few pages (--only) is for finding where the main thread goes: the long tasks.
  if (ONLY) {
    const tasks = ((lhr.audits['long-tasks']?.details as { items?: { url?: string; startTime?: number; duration?: number }[] } | undefined)?.items ?? []).slice(0, 8);
    for (const task of tasks) console.log(`    long task ${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} ms: ${task.url ?? ''}`);
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsKb: jsBytes / 1024,
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function medianFigures(runs: Figures[]): Figures {
  const keys = Object.keys(runs[0]) as (keyof Figures)[];
  return Object.fromEntries(keys.map((key) => [key, median(runs.map((r) => r[key]))])) as Figures;
}

/** `indexed`: false for a noindex page, whose SEO score Lighthouse lowers for being noindex. */
function misses(f: Figures, indexed = true): string[] {
  const out: string[] = [];
  if (f.performance < BUDGETS.performance) out.push(`performance < ${BUDGETS.performance}`);
  if (f.accessibility < BUDGETS.accessibility) out.push(`accessibility < ${BUDGETS.accessibility}`);
  if (f.bestPractices < BUDGETS.bestPractices) out.push(`best practices < ${BUDGETS.bestPractices}`);
  if (indexed && f.seo < BUDGETS.seo) out.push(`SEO < ${BUDGETS.seo}`);
  if (f.lcpMs > BUDGETS.lcpMs) out.push(`LCP > ${BUDGETS.lcpMs} ms`);
  if (f.cls > BUDGETS.cls) out.push(`CLS > ${BUDGETS.cls}`);
  if (f.jsKb > BUDGETS.jsKb) out.push(`JS > ${BUDGETS.jsKb} KB`);
  if (calibrated() && f.tbtMs > CALIBRATED_TBT_MS) out.push(`TBT > ${CALIBRATED_TBT_MS} ms`);
  return out;
}

const row = (label: string, f: Figures) =>
  `| ${label} | ${f.performance} | ${f.accessibility} | ${f.bestPractices} | ${f.seo} | ${(f.lcpMs / 1000).toFixed(2)} s | ${Math.round(f.tbtMs)} ms | ${f.cls.toFixed(3)} | ${f.jsKb.toFixed(1)} KB | ${Math.round(f.benchmarkIndex)} |`;

function printLine(label: string, f: Figures): void {
  console.log(
    `  ${label.padEnd(28)} perf ${String(f.performance).padStart(3)}  a11y ${String(f.accessibility).padStart(3)}  bp ${String(f.bestPractices).padStart(3)}  seo ${String(f.seo).padStart(3)}  LCP ${(f.lcpMs / 1000).toFixed(2)} s  TBT ${Math.round(f.tbtMs)} ms  CLS ${f.cls.toFixed(3)}  JS ${f.jsKb.toFixed(1)} KB  CPU index ${Math.round(f.benchmarkIndex)}`,
  );
}

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

async function benchAllPages(): Promise<void> {
  const logFile = path.join(os.tmpdir(), `bench-pages-${process.pid}.log`);
  const server = startServer(PORT, { NEXT_DIST_DIR: DIST_DIR, DATA_DIR, MEDIA_DIR }, logFile);
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  const loadStart = os.loadavg()[0];
  const results: { tenant: string; url: string; indexed: boolean; runs: Figures[]; median: Figures }[] = [];
  let throughput: ThroughputRow[] = [];
  try {
    await waitForServer(`http://127.0.0.1:${PORT}/`, `${TENANTS[0]}.localhost`, server);
    const wanted = (tenant: string, kind: PageKind) => !ONLY || ONLY.has(`${tenant}:${kind}`);
    const pages: { tenant: string; url: string; indexed?: boolean }[] = [
      ...(
        await Promise.all(
          TENANTS.map(async (tenant) => [
            ...(wanted(tenant, 'home') ? [{ tenant, url: `http://${tenant}.localhost:${PORT}/` }] : []),
            ...(wanted(tenant, 'search') ? [{ tenant, url: await searchPageUrl(tenant) }] : []),
            ...(wanted(tenant, 'car') ? [{ tenant, url: await carPageUrl(tenant) }] : []),
          ]),
        )
      ).flat(),
      ...EXTRA_PAGES.filter(({ tenant }) => wanted(tenant, 'finance')).map(({ tenant, path: pagePath }) => ({ tenant, url: `http://${tenant}.localhost:${PORT}${pagePath}` })),
      ...(await Promise.all(COMPARE_TENANTS.filter((tenant) => wanted(tenant, 'compare')).map(async (tenant) => ({ tenant, url: await comparePageUrl(tenant), indexed: false })))),
      ...GARAGE_PAGES.filter(({ tenant }) => wanted(tenant, 'garage')).map(({ tenant, path: pagePath }) => ({ tenant, url: `http://${tenant}.localhost:${PORT}${pagePath}`, indexed: false })),
    ];
    if (AUTO_SLOWDOWN) {
      const { benchmarkIndex } = await measure(pages[0].url, chrome.port);
      CPU_SLOWDOWN = Math.min(30, Math.max(1, Math.round(((4 * benchmarkIndex) / REFERENCE_CPU_INDEX) * 10) / 10));
      console.log(`CPU index ${Math.round(benchmarkIndex)}: CPU slowdown ${CPU_SLOWDOWN}× (4 × ${Math.round(benchmarkIndex)} / ${REFERENCE_CPU_INDEX})`);
    }
    for (const { tenant, url, indexed = true } of pages) {
      console.log(`\n${tenant}: ${url}`);
      // One unmeasured pass warms the server's caches and the image optimiser.
      await measure(url, chrome.port);
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const figures = await measure(url, chrome.port);
        runs.push(figures);
        printLine(`run ${i + 1}`, figures);
      }
      const med = medianFigures(runs);
      printLine(`median of ${RUNS}`, med);
      const missed = misses(med, indexed);
      console.log(missed.length ? `  budget MISSED: ${missed.join(', ')}` : '  budgets met');
      results.push({ tenant, url, indexed, runs, median: med });
    }
    if (!ONLY && !calibrated()) throughput = await benchThroughput();
  } finally {
    chrome.kill();
    await server.stop();
  }

  if (ONLY) {
    if (results.some((r) => misses(r.median, r.indexed).length > 0)) process.exitCode = 1;
    return;
  }
  const date = new Date();
  const section = [
    calibrated()
      ? `## Home, search, car, finance, compare and garage pages under Lighthouse at the calibrated CPU slowdown (\`npm run bench:pages -- --cpu-slowdown ${AUTO_SLOWDOWN ? 'auto' : CPU_SLOWDOWN}\`, issue 32)`
      : '## Home, search, car, finance, compare and garage pages under Lighthouse (`npm run bench:pages`)',
    '',
    `Measured ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC${args.label ? ` (${args.label})` : ''}. Lighthouse 12.8.2 through its Node API, default mobile preset (simulated slow 4G, ${slowdownText()}, Moto G Power screen), Chromium \`${CHROME_PATH}\` headless; production build served by \`next start\` on 127.0.0.1:${PORT} with the demo data. One unmeasured Lighthouse pass per page first, then ${RUNS} measured runs; the table gives the median of each figure. The last column is the median of Lighthouse's benchmark index of the host CPU (its 4× CPU slowdown assumes about 1,500; a lower index means the figures are harsher than on the reference machine). JS is the transfer size (compressed) of every script the page loaded.`,
    '',
    `Machine: ${cpuName()}, ${os.availableParallelism()} cores, Node ${process.version}. The machine is shared with other sessions (load average ${loadStart.toFixed(2)} when the run started), which moves TBT and LCP between runs; hence the median.`,
    '',
    `Budgets: performance ≥ ${BUDGETS.performance}, accessibility ${BUDGETS.accessibility}, best practices ${BUDGETS.bestPractices}, SEO ${BUDGETS.seo} (not on the noindex compare and garage pages), LCP ≤ ${BUDGETS.lcpMs / 1000} s, CLS ≤ ${BUDGETS.cls}, JS ≤ ${BUDGETS.jsKb} KB compressed${calibrated() ? `, and at this slowdown TBT ≤ ${CALIBRATED_TBT_MS} ms` : ''}.`,
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | JS | CPU index |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...results.map((r) => row(`${r.tenant} \`${new URL(r.url).pathname}\``, r.median)),
    '',
    ...results.map((r) => {
      const missed = misses(r.median, r.indexed);
      return `- ${r.tenant} \`${new URL(r.url).pathname}\`: ${missed.length ? `**missed** ${missed.join(', ')}` : 'every budget met'} (runs: ${r.runs.map((f) => `${f.performance}/${(f.lcpMs / 1000).toFixed(2)} s/${Math.round(f.tbtMs)} ms`).join(', ')} as performance/LCP/TBT).`;
    }),
    ...(throughput.length > 0 ? ['', `### Requests per second (harbour-city-motors, autocannon, ${THROUGHPUT_SECONDS} s per page)`, '', pageThroughputTable(throughput)] : []),
  ].join('\n');
  if (WRITE) console.log(`\nWrote ${path.relative(ROOT, writeSection(ROOT, section, calibrated() ? 'pages-calibrated' : 'pages'))}`);
  if (results.some((r) => misses(r.median, r.indexed).length > 0)) process.exitCode = 1;
}

/**
 * Requests per second under autocannon (issue 18): pages from the page cache and a search that
 * misses it; then (issue 33) the cached home and content pages against a raw Node server sending
 * the same bytes, in as many processes as the server runs. Writes its own section.
 */
async function benchThroughput(): Promise<ThroughputRow[]> {
  const origin = `http://127.0.0.1:${PORT}`;
  const log = (line: string) => console.log(line);
  const loadStart = os.loadavg()[0];
  console.log('\nRequests per second (autocannon):');
  const throughput = await measurePageThroughput(origin, { durationS: THROUGHPUT_SECONDS, log });
  const { serverProcessCount } = (await import(path.join(ROOT, 'scripts', 'lib.mjs'))) as { serverProcessCount: () => number };
  const processes = serverProcessCount();
  console.log(`\nThe page cache against a raw Node server sending the same bytes (${processes} processes each):`);
  const comparison = await measureRawComparison(origin, { durationS: RAW_ROUND_SECONDS, rounds: RAW_ROUNDS, rawPort: PORT + 2, processes, log });
  const section = [
    '## Pages from the cache against a raw Node server (`npm run bench:pages -- --only-throughput`, issue 33)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC${args.label ? ` (${args.label})` : ''} on ${cpuName()}, ${os.availableParallelism()} cores, Node ${process.version}; load average ${loadStart.toFixed(2)} when it started (the machine is shared). The production build served by \`scripts/serve.mjs\` (${processes} server processes, the embedded database held by the cluster primary) with the demo data, harbour-city-motors; autocannon, 20 connections, ${THROUGHPUT_SECONDS} s per measurement, in this process.`,
    '',
    pageThroughputTable(throughput),
    '',
    `The home and content pages answered from the page cache, then a plain Node \`http\` server (\`scripts/bench/raw-server.mjs\`, ${processes} processes under node:cluster) sending the bytes the application sent for them (status, headers, body), measured in turn, ${RAW_ROUNDS} rounds of ${RAW_ROUND_SECONDS} s each; the share is the ratio of the sums. Target: the page cache at ≥ ${RAW_RATIO_TARGET} of the raw server's requests/s.`,
    '',
    rawComparisonTable(comparison),
  ].join('\n');
  if (WRITE) console.log(`\nWrote ${path.relative(ROOT, writeSection(ROOT, section, 'pages-throughput'))}`);
  if (comparison.some((row) => row.ratio < RAW_RATIO_TARGET)) process.exitCode = 1;
  return throughput;
}

/** --only-throughput: the server and benchThroughput, without Lighthouse. */
async function benchThroughputOnly(): Promise<void> {
  const logFile = path.join(os.tmpdir(), `bench-pages-${process.pid}.log`);
  const server = startServer(PORT, { NEXT_DIST_DIR: DIST_DIR, DATA_DIR, MEDIA_DIR }, logFile);
  try {
    await waitForServer(`http://127.0.0.1:${PORT}/`, `${TENANTS[0]}.localhost`, server);
    await benchThroughput();
  } finally {
    await server.stop();
  }
}

// ---- Issue 17: the same pages with and without the website's widgets --------------------------

const WIDGET_TENANT = 'harbour-city-motors';
const NO_WIDGETS_PORT = PORT + 1;
const NO_WIDGETS_DATA_DIR = path.resolve(ROOT, '.bench-data/pages-no-widgets/data');
const WIDGET_REPORTS_DIR = path.resolve(ROOT, '.bench-data/pages-widgets');
export const WIDGET_BUDGETS = { performance: 95, tbtMs: 200, cls: 0.02 };
/**
 * Widgets start at the first interaction or 3 s after the page has hydrated (decision 037), and
 * Lighthouse never interacts; its default trace stops about a second after load. Both variants run
 * with these settings, so the trace holds the widgets loading and running, and the figures compare.
 */
const WIDGET_TRACE = { pauseAfterLoadMs: 6000, networkQuietThresholdMs: 2000, cpuQuietThresholdMs: 2000 };

/** Partytown's own files (decision 043): its snippet and the sandbox that carries out the worker's DOM calls, on the main thread. */
const PARTYTOWN_FILES = /^https?:\/\/[^/]+\/api\/partytown\//;

type WidgetFigures = {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
  /** Compressed bytes of the stand-in scripts in the trace. */
  widgetJsKb: number;
  /** Main-thread time of the stand-in scripts and of Partytown's own files (Lighthouse's bootup-time: as traced, times the 4× CPU slowdown). */
  widgetMainThreadMs: number;
  benchmarkIndex: number;
};
type WidgetRun = { figures: WidgetFigures; widgets: WidgetId[] };
type WidgetVariant = 'with widgets' | 'without widgets';

/** One Lighthouse run with the widget trace settings; the widgets whose stand-ins the trace holds must be the ones the page asked for. */
async function measureWidgetPage(url: string, chromePort: number, standIns: StandInServer, save: string | null): Promise<WidgetRun> {
  const before = { ...standIns.requests };
  const lhr = await runLighthouse(url, { port: chromePort, onlyCategories: ['performance'], ...WIDGET_TRACE });
  if (save) fs.writeFileSync(save, JSON.stringify(lhr));
  const asked = (Object.keys(standIns.requests) as WidgetId[]).filter((id) => (standIns.requests[id] ?? 0) > (before[id] ?? 0));
  const items = networkItems(lhr);
  const traced = items.filter((item) => item.url && widgetOfUrl(item.url));
  const widgets = [...new Set(traced.map((item) => widgetOfUrl(item.url!)!))].sort();
  if (asked.sort().join() !== widgets.join()) {
    throw new Error(`${url}: the page asked for the stand-ins of ${asked.join(', ') || 'none'} but the trace holds ${widgets.join(', ') || 'none'}; lengthen WIDGET_TRACE`);
  }
  const bootup = ((lhr.audits['bootup-time']?.details as { items?: { url: string; total: number }[] } | undefined)?.items ?? []);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const figures: WidgetFigures = {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsKb: items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    widgetJsKb: traced.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024,
    widgetMainThreadMs: bootup.filter((item) => widgetOfUrl(item.url) || PARTYTOWN_FILES.test(item.url)).reduce((sum, item) => sum + item.total, 0),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
  // Where the blocking time came from, to read when a budget is missed.
  const top = [...bootup].sort((a, b) => b.total - a.total).slice(0, 4).map((item) => `${item.url.replace(/^https?:\/\//, '').slice(0, 48)} ${Math.round(item.total)} ms`);
  console.log(`      main thread (simulated): ${top.join(' · ')}`);
  return { figures, widgets };
}

function widgetMisses(f: WidgetFigures): string[] {
  const out: string[] = [];
  if (f.performance < WIDGET_BUDGETS.performance) out.push(`performance < ${WIDGET_BUDGETS.performance}`);
  if (f.tbtMs > WIDGET_BUDGETS.tbtMs) out.push(`TBT > ${WIDGET_BUDGETS.tbtMs} ms`);
  if (f.cls > WIDGET_BUDGETS.cls) out.push(`CLS > ${WIDGET_BUDGETS.cls}`);
  return out;
}

const widgetLine = (f: WidgetFigures) =>
  `perf ${String(f.performance).padStart(3)}  LCP ${(f.lcpMs / 1000).toFixed(2)} s  TBT ${Math.round(f.tbtMs)} ms  CLS ${f.cls.toFixed(3)}  JS ${f.jsKb.toFixed(1)} KB (widgets ${f.widgetJsKb.toFixed(1)} KB, ${Math.round(f.widgetMainThreadMs)} ms)  CPU index ${Math.round(f.benchmarkIndex)}`;

/** The bench data with the website's configuration minus its widgets, in a copy (the original stays as it is). */
async function prepareNoWidgetsData(): Promise<void> {
  fs.rmSync(NO_WIDGETS_DATA_DIR, { recursive: true, force: true });
  fs.cpSync(DATA_DIR, NO_WIDGETS_DATA_DIR, { recursive: true });
  const status = await run(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'scripts/bench/without-widgets.ts', WIDGET_TENANT], {
    ...process.env,
    DATA_DIR: NO_WIDGETS_DATA_DIR,
  });
  if (status !== 0) throw new Error('without-widgets failed');
}

async function benchWidgets(): Promise<void> {
  await prepareNoWidgetsData();
  fs.mkdirSync(WIDGET_REPORTS_DIR, { recursive: true });
  prebuildStandIns(Object.keys(STAND_IN_KB) as WidgetId[]);
  const standIns = await startStandInServer(path.resolve(ROOT, '.bench-data'));
  const logFile = (name: string) => path.join(os.tmpdir(), `bench-pages-${name}-${process.pid}.log`);
  const servers = {
    'with widgets': { port: PORT, server: startServer(PORT, { NEXT_DIST_DIR: DIST_DIR, DATA_DIR, MEDIA_DIR, ...standIns.serverEnv }, logFile('widgets')) },
    'without widgets': { port: NO_WIDGETS_PORT, server: startServer(NO_WIDGETS_PORT, { NEXT_DIST_DIR: DIST_DIR, DATA_DIR: NO_WIDGETS_DATA_DIR, MEDIA_DIR }, logFile('no-widgets')) },
  } as const;
  // One browser, the same flags for both variants: the providers' hosts lead to the stand-ins.
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: [...CHROME_FLAGS, ...standIns.chromeFlags] });
  const loadStart = os.loadavg()[0];
  const variants: WidgetVariant[] = ['with widgets', 'without widgets'];
  const results: { page: string; path: string; variant: WidgetVariant; runs: WidgetRun[]; median: WidgetFigures }[] = [];
  try {
    for (const { port, server } of Object.values(servers)) await waitForServer(`http://127.0.0.1:${port}/`, `${WIDGET_TENANT}.localhost`, server);
    const urlsOf = async (port: number) => ({
      home: `http://${WIDGET_TENANT}.localhost:${port}/`,
      search: await searchPageUrl(WIDGET_TENANT, port),
      car: await carPageUrl(WIDGET_TENANT, port),
    });
    const urls = { 'with widgets': await urlsOf(PORT), 'without widgets': await urlsOf(NO_WIDGETS_PORT) };
    for (const page of ['home', 'search', 'car'] as const) {
      const runs: Record<WidgetVariant, WidgetRun[]> = { 'with widgets': [], 'without widgets': [] };
      console.log(`\n${WIDGET_TENANT} ${page}: ${new URL(urls['with widgets'][page]).pathname}`);
      // One unmeasured pass per variant warms the caches; then the variants alternate run by run,
      // so a busy moment of the shared machine falls on both alike.
      for (const variant of variants) await measureWidgetPage(urls[variant][page], chrome.port, standIns, null);
      for (let i = 0; i < RUNS; i++) {
        for (const variant of variants) {
          const saved = path.join(WIDGET_REPORTS_DIR, `${page}-${variant.replace(' ', '-')}-${i + 1}.json`);
          const result = await measureWidgetPage(urls[variant][page], chrome.port, standIns, saved);
          if (variant === 'with widgets' && result.widgets.length === 0) throw new Error(`${urls[variant][page]}: no widget loaded in the trace`);
          if (variant === 'without widgets' && result.widgets.length > 0) throw new Error(`${urls[variant][page]}: widgets loaded without any configured`);
          runs[variant].push(result);
          console.log(`  ${variant.padEnd(16)} run ${i + 1}: ${widgetLine(result.figures)}  [${result.widgets.join(', ')}]`);
        }
      }
      for (const variant of variants) {
        const keys = Object.keys(runs[variant][0].figures) as (keyof WidgetFigures)[];
        const med = Object.fromEntries(keys.map((key) => [key, median(runs[variant].map((r) => r.figures[key]))])) as WidgetFigures;
        const missed = widgetMisses(med);
        console.log(`  ${variant.padEnd(16)} median: ${widgetLine(med)}  ${missed.length ? `budget MISSED: ${missed.join(', ')}` : 'budgets met'}`);
        results.push({ page, path: new URL(urls[variant][page]).pathname, variant, runs: runs[variant], median: med });
      }
    }
  } finally {
    chrome.kill();
    await standIns.close();
    for (const { server } of Object.values(servers)) await server.stop();
  }

  const date = new Date();
  const widgetsOf = (r: (typeof results)[number]) => r.runs[0]?.widgets.join(', ') || 'none';
  const section = [
    '## harbour-city-motors with and without its widgets under Lighthouse (`npm run bench:pages`, issue 17)',
    '',
    `Measured ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC${args.label ? ` (${args.label})` : ''}; \`npm run bench:pages -- --only-widgets\` runs this part alone. Lighthouse 12.8.2, default mobile preset (simulated slow 4G, ${slowdownText()}), performance category only, with the trace lengthened for both variants (pauseAfterLoadMs ${WIDGET_TRACE.pauseAfterLoadMs}, networkQuietThresholdMs ${WIDGET_TRACE.networkQuietThresholdMs}, cpuQuietThresholdMs ${WIDGET_TRACE.cpuQuietThresholdMs}): the analytics tags start at the first interaction or 3 s after hydration and Lighthouse never interacts, so its default trace (about 1 s after load) would end before them. Chat, the sidebar and the spin viewer wait for a real interaction (decision 043), which Lighthouse never makes, so they are not in these traces; GA4, GTM and the Meta pixel run in Partytown's worker (Meta's script through the website's proxy, which the app server fetches from the same stand-in server). Every run checks that the stand-in scripts the page asked for are all in the trace's network requests.`,
    '',
    `- **with widgets**: the demo website as configured (GA4, GTM, Meta pixel, call tracking, Podium chat, the digital-tools sidebar, the spin viewer on car pages; Podium is hidden on \`/cars\` pages by configuration), production build on 127.0.0.1:${PORT}.`,
    `- **without widgets**: a copy of the same database where the website's configuration has no \`widgets\` block (\`scripts/bench/without-widgets.ts\`), same build, on 127.0.0.1:${NO_WIDGETS_PORT}.`,
    `- The providers' scripts come from one local HTTPS server (\`scripts/bench/widget-stand-in-server.ts\`, a self-signed certificate made with \`openssl\` at each run); Chromium maps every provider host to it (\`--host-resolver-rules\`, \`--ignore-certificate-errors\`), the same browser and flags for both variants. The stand-ins (\`tests/support/widget-stand-ins.ts\`, shared with the e2e suite) are valid JavaScript of the providers' compressed sizes, served gzipped; each compiles and runs one in eight of its generated functions once at start (a provider runs part of its code at start, the rest are handlers) and then does what the runtime waits for and what the real script shows (google_tag_manager, fbq.callMethod, Podium's bubble iframe and button, the sidebar's tab, phone numbers swapped, a GA4 hit).`,
    '',
    '| stand-in | target gzip KB | served gzip KB | raw KB | based on |',
    '|---|--:|--:|--:|---|',
    ...(Object.entries(STAND_IN_KB) as [WidgetId, { kb: number; real: string }][]).map(([id, { kb, real }]) => {
      const script = standInScript(id);
      return `| ${id} | ${kb} | ${(script.gzip.length / 1024).toFixed(1)} | ${Math.round(Buffer.byteLength(script.body) / 1024)} | ${real} |`;
    }),
    '',
    `Machine: ${cpuName()}, ${os.availableParallelism()} cores, shared with other sessions (load average ${loadStart.toFixed(2)} at the start). ${RUNS} measured runs per page and variant after one unmeasured pass, the variants alternating run by run; medians below. Budgets (issue 17): performance ≥ ${WIDGET_BUDGETS.performance}, TBT ≤ ${WIDGET_BUDGETS.tbtMs} ms, CLS ≤ ${WIDGET_BUDGETS.cls} on mobile. "Widget JS" is the stand-ins' transfer size (fetched by the page or by Partytown's worker); "widget main thread" their main-thread time and Partytown's own (its snippet and sandbox, decision 043), from Lighthouse's bootup-time (the traced time times the 4× CPU slowdown; it lists a script from 50 ms, so a small one such as call tracking shows as 0). Work in the worker is not main-thread time. The CPU index is Lighthouse's benchmark index of the host CPU (its 4× slowdown assumes about 1,500).`,
    '',
    '| page | variant | performance | LCP | TBT | CLS | JS | widget JS | widget main thread | CPU index | widgets in the trace |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    ...results.map(
      (r) =>
        `| ${r.page} \`${r.path}\` | ${r.variant} | ${r.median.performance} | ${(r.median.lcpMs / 1000).toFixed(2)} s | ${Math.round(r.median.tbtMs)} ms | ${r.median.cls.toFixed(3)} | ${r.median.jsKb.toFixed(1)} KB | ${r.median.widgetJsKb.toFixed(1)} KB | ${Math.round(r.median.widgetMainThreadMs)} ms | ${Math.round(r.median.benchmarkIndex)} | ${widgetsOf(r)} |`,
    ),
    '',
    ...results.map((r) => {
      const missed = widgetMisses(r.median);
      return `- ${r.page}, ${r.variant}: ${missed.length ? `**missed** ${missed.join(', ')}` : 'every budget met'} (runs: ${r.runs.map(({ figures: f }) => `${f.performance}/${Math.round(f.tbtMs)} ms/${f.cls.toFixed(3)}`).join(', ')} as performance/TBT/CLS).`;
    }),
  ].join('\n');
  if (WRITE) console.log(`\nWrote ${path.relative(ROOT, writeSection(ROOT, section, 'pages-widgets'))}`);
  if (results.some((r) => widgetMisses(r.median).length > 0)) process.exitCode = 1;
}

async function main(): Promise<void> {
  await build();
  await prepareData();
  if (args['only-throughput']) return benchThroughputOnly();
  if (!args['only-widgets']) await benchAllPages();
  // --only measures just the pages it names (and writes nothing).
  if (!args['no-widgets'] && !ONLY) await benchWidgets();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
