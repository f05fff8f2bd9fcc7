// `npm run bench:events`: POST /api/events under autocannon (issue 17).
//   The events handler (src/modules/widgets/widgets.events.http.ts) is served in-process by a
//   plain node:http server on 127.0.0.1:BENCH_PORT (default 3420) in a child process: no Next.js
//   production build is needed (none may be built on the shared machine), so the figures leave out
//   Next's router and request hooks. Each request is what a page's navigator.sendBeacon sends, as
//   text/plain for Host bench-events.localhost: a page view's event, then its web vitals report
//   as the page sends it when it is hidden (decision 058), `--vitals` beacons of it (default 2):
//   - 2: the page left by a navigation (pagehide, still visible, sends TTFB and FCP; the hide that
//     follows LCP, CLS and INP, same view id: the server merges them into one row). Client
//     navigations send no report (the document stays) and a view without any interaction none
//     at all, so a real site sends 0 to 2 reports per page view: 2, vitals 2/3 of the requests,
//     is the heaviest mix real traffic can make (every page view a loaded page, interacted with,
//     left by a navigation), and the only one that takes the merge of a view's second report;
//   - 1: one report with the five metrics (a tab switched or closed), half the requests;
//   - 0: page views only (the mix before decision 058).
//   Each connection is a visitor with its own client address, so the per-address limit counts as
//   in production.
//   1. the child opens DATABASE_URL (a PostgreSQL database whose name contains "bench"; unset: an
//      in-memory PGlite), migrates it and adds, once, the website bench-events;
//   2. after 5 s unmeasured, 20 connections for BENCH_SECONDS (default 20);
//   3. the child flushes its buffers and counts the stored events and vitals rows: every accepted
//      page view must be there, one vitals row per view accepted, each with every metric accepted
//      for it;
//   4. writes the figures to docs/benchmarks.md (its own section). --no-write prints only.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { ROOT } from './bench/http';
import { machine, writeSection } from './bench/report';

const { values: args } = parseArgs({
  options: { 'no-write': { type: 'boolean', default: false }, serve: { type: 'boolean', default: false }, vitals: { type: 'string', default: '2' } },
});
const vitalsPerView = Number(args.vitals);
if (![0, 1, 2].includes(vitalsPerView)) {
  console.error('--vitals: the web vitals beacons per page view, 0, 1 or 2');
  process.exit(2);
}
const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.BENCH_PORT ?? 3420);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 20;
const WARMUP_SECONDS = 5;
const HOST = 'bench-events.localhost';
const TARGET = { perSecond: 1000, p99Ms: 50 };

type Ready = { type: 'ready'; postgres: string | null; pglite: string };
type Finished = { type: 'finished'; accepted: number; lost: number; stats: Record<string, number> };

if (args.serve) await serve();
else await measure();

/** The child: the database, the website and the handler behind node:http. */
async function serve() {
  const [{ openDatabase }, { eq, sql }, { websites }, { analyticsEvents, webVitals }, { postEventsHandler }, { flushEvents, eventsState }, { CLIENT_ADDRESS_HEADER }, { selectRows }, { VITAL_METRICS }] = await Promise.all([
    import('../src/db/client'),
    import('drizzle-orm'),
    import('../src/modules/tenancy/tenancy.schema'),
    import('../src/modules/widgets/widgets.schema'),
    import('../src/modules/widgets/widgets.events.http'),
    import('@/modules/widgets/widgets.events'),
    import('../src/lib/client-address'),
    import('./bench/load'),
    import('../src/modules/widgets/widgets.vitals'),
  ]);
  const handle = await openDatabase(databaseUrl ? { url: databaseUrl, poolSize: 10 } : { dataDir: null });
  (globalThis as unknown as { __dbHandle?: Promise<unknown> }).__dbHandle = Promise.resolve(handle);
  let [site] = await handle.db.select({ id: websites.id }).from(websites).where(eq(websites.slug, 'bench-events'));
  site ??= (await handle.db.insert(websites).values({ slug: 'bench-events', name: 'Bench Events Motors', config: {} }).returning({ id: websites.id }))[0];
  await handle.db.delete(analyticsEvents).where(eq(analyticsEvents.websiteId, site.id));
  await handle.db.delete(webVitals).where(eq(webVitals.websiteId, site.id));
  await handle.db.execute(sql`delete from rate_limits where key like ${`events-ip:${site.id}:%`}`);
  const [{ version }] = await selectRows<{ version: string }>(handle.db, sql`select split_part(version(), ' ', 2) as version`);

  let served = 0;
  let pageViews = 0;
  // Per view id, the metrics of its reports answered 202: what its row must hold.
  const views = new Map<string, Set<string>>();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    inFlight += 1;
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      // What the request hook does from the socket; one address per connection (a visitor each).
      const remotePort = req.socket.remotePort ?? 0;
      headers.set(CLIENT_ADDRESS_HEADER, `10.${(remotePort >> 8) & 255}.${remotePort & 255}.1`);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers, body });
      void postEventsHandler(request).then(async (response) => {
        if (response.status === 202) {
          served += 1;
          const item = JSON.parse(body?.toString() ?? '{}') as { type?: string; view_id?: string; metrics?: object };
          if (item.type === 'web_vitals') {
            const metrics = views.get(item.view_id!) ?? new Set<string>();
            for (const name of Object.keys(item.metrics ?? {})) metrics.add(name);
            views.set(item.view_id!, metrics);
          } else pageViews += 1;
        }
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
        inFlight -= 1;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  process.send!({ type: 'ready', postgres: databaseUrl ? version : null, pglite: databaseUrl ? '-' : version } satisfies Ready);
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'finish') return;
    server.close();
    // Requests still being answered when the load stopped are stored too.
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await flushEvents();
    eventsState().buffer.stop();
    eventsState().vitals.stop();
    const [{ n, v }] = await selectRows<{ n: number; v: number }>(
      handle.db,
      sql`select (select count(*)::int from analytics_events where website_id = ${site.id}) as n, (select count(*)::int from web_vitals where website_id = ${site.id}) as v`,
    );
    // A row lacking a metric one of its view's accepted reports carried lost that report.
    const stored = await selectRows<{ view_id: string; ttfb: number | null; fcp: number | null; lcp: number | null; cls: number | null; inp: number | null }>(
      handle.db,
      sql`select view_id, ttfb, fcp, lcp, cls, inp from web_vitals where website_id = ${site.id}`,
    );
    const rows = new Map(stored.map((row) => [row.view_id, row]));
    let lostReports = 0;
    for (const [viewId, metrics] of views) {
      const row = rows.get(viewId) as Record<string, number | null> | undefined;
      if (!row || VITAL_METRICS.some((metric) => metrics.has(metric) && row[metric.toLowerCase()] === null)) lostReports += 1;
    }
    const { buffer, vitals } = eventsState();
    const stats = { flushes: buffer.stats.flushes + vitals.stats.flushes, events: Number(n), vitals: Number(v), pageViews, views: views.size, vitalsReports: served - pageViews };
    const lost = Math.abs(pageViews - Number(n)) + lostReports + Math.max(0, Number(v) - views.size);
    process.send!({ type: 'finished', accepted: served, lost, stats } satisfies Finished, () => {
      void handle.close().finally(() => process.exit(0));
    });
  });
}

/** The parent: load, then the figures. */
async function measure() {
  if (databaseUrl && !new URL(databaseUrl).pathname.includes('bench')) {
    console.error('bench:events needs DATABASE_URL naming a PostgreSQL database whose name contains "bench" (e.g. postgres://postgres@127.0.0.1:5432/events_bench), or unset for an in-memory PGlite');
    process.exit(2);
  }
  const loadStart = os.loadavg()[0];
  const child: ChildProcess = fork(new URL(import.meta.url).pathname, ['--serve'], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', '--conditions=react-server'],
    env: { ...process.env, DEMO_MODE: '1', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      child.on('message', (message: { type: string }) => message.type === type && resolve(message as T));
      child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    });
  const ready = await next<Ready>('ready');
  const body = JSON.stringify({ category: 1, url: '/search/used-cars', anon_id: '2f1c7a8e-9d0b-4c6e-8a51-3b7f0e9d2c41', session_id: '7e3d2b1a-0c9f-4e8d-b7a6-5f4e3d2c1b0a' });
  // A page view's web vitals as the page sends them on hide (web-vitals-reporter.ts), a view id each:
  // in two beacons when the page is left by a navigation, else in one.
  const METRICS = { TTFB: 312, FCP: 1184, LCP: 2051, CLS: 0.0213, INP: 128 };
  const BEACONS = vitalsPerView === 2 ? [{ TTFB: METRICS.TTFB, FCP: METRICS.FCP }, { LCP: METRICS.LCP, CLS: METRICS.CLS, INP: METRICS.INP }] : vitalsPerView === 1 ? [METRICS] : [];
  let views = 0;
  // autocannon's context is per connection and new each time its sequence starts over: one page view.
  const vitalsRequests = BEACONS.map((metrics, i) => ({
    setupRequest: (request: object, context: { viewId?: string }) => {
      if (i === 0) context.viewId = `bench-${(++views).toString(36)}-7e3d2b1a0c9f`;
      return { ...request, body: JSON.stringify({ type: 'web_vitals', view_id: context.viewId, page_type: 'car', metrics }) };
    },
  }));
  const load = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}/api/events`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { host: HOST, 'content-type': 'text/plain;charset=UTF-8', origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' },
      requests: [{ body }, ...vitalsRequests],
    });
  let result: Result;
  let finished: Finished;
  try {
    // A sample: 202 {accepted: 1}.
    const sample = await new Promise<string>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/api/events', method: 'POST', headers: { host: HOST, 'content-type': 'text/plain' } }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(`${response.statusCode} ${text}`));
      });
      request.on('error', reject);
      request.end(body);
    });
    if (sample !== '202 {"accepted":1}') throw new Error(`unexpected answer: ${sample}`);
    await load(WARMUP_SECONDS);
    result = await load(seconds);
    const done = next<Finished>('finished');
    child.send({ type: 'finish' });
    finished = await done;
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  const acceptedOf = (r: Result) => r.statusCodeStats['202']?.count ?? 0;
  // Counted by the server: requests still in flight when autocannon stops are answered (and stored) too.
  const { accepted, lost } = finished;
  const eventsPerSecond = acceptedOf(result) / result.duration;
  const met = eventsPerSecond >= TARGET.perSecond && result.latency.p99 <= TARGET.p99Ms && result.non2xx === 0 && lost === 0;
  const m = machine({ postgres: ready.postgres, pglite: ready.pglite, loadStart });
  const database = ready.postgres ? `PostgreSQL ${ready.postgres}` : `PGlite ${ready.pglite} (in memory)`;
  const mix = [
    'one page-view event',
    'then nothing else (page views only, `--vitals 0`)',
    'then its web vitals report with the five metrics in one beacon (a tab switched or closed, `--vitals 1`), half the requests',
    'then its web vitals report in two beacons with its view id (TTFB and FCP at pagehide, LCP, CLS and INP at the hide that follows: a page left by a navigation, `--vitals 2`), two thirds of the requests',
  ];
  const section = [
    `## POST /api/events, page views and their web vitals (\`npm run bench:events\`${ready.postgres ? '' : ', embedded PGlite'})`,
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpu} (${m.cores} cores), load ${loadStart.toFixed(1)} at the start; ${database}; ${CONNECTIONS} connections, ${seconds} s after ${WARMUP_SECONDS} s unmeasured, 127.0.0.1. **The handler served in-process by node:http, not a Next.js production build** (Next's router and request hooks not included). Each request is a sendBeacon body (text/plain); each connection a client address of its own, sending for each page view ${mix[0]}, ${mix[vitalsPerView + 1]} (decision 058). A request looks the website up, validates, counts the address's limit in memory and queues the row; each of the two buffers (events, vitals) writes one multi-row insert a second (the vitals one with ON CONFLICT on the view), and the limits are counted in rate_limits in one statement per flush.`,
    '',
    `| requests | requests/s (mean) | latency p50 ms | latency p99 ms | non-2xx | errors | requests accepted (server, incl. warm-up): page views + vitals reports | stored: events + vitals rows (views) | flushes (an insert each) | target ≥ ${TARGET.perSecond}/s, p99 ≤ ${TARGET.p99Ms} ms, none lost |`,
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    `| ${result.requests.total} | ${eventsPerSecond.toFixed(1)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} | ${result.errors} | ${accepted} = ${finished.stats.pageViews} + ${finished.stats.vitalsReports} | ${finished.stats.events} + ${finished.stats.vitals} | ${finished.stats.flushes} | ${met ? 'met' : '**missed**'}${lost ? ` (${lost} lost)` : ''} |`,
    '',
  ].join('\n');
  console.log(section);
  if (!args['no-write']) console.log(`written to ${writeSection(ROOT, section, ready.postgres ? 'events' : 'events-pglite')}`);
  process.exit(0);
}
