// `npm run bench:auth`: GET /api/auth with a valid session under autocannon (issue 14).
//   1. opens DATABASE_URL (required: a PostgreSQL database whose name contains "bench"), migrates
//      it and adds, once, a website with phone sign-in and the garage, a customer and three saved
//      cars; then starts a session for the customer (its access token is the request's cookie);
//   2. serves the production build (.next, built if needed) with `next start` on 127.0.0.1:BENCH_PORT
//      (default 3410);
//   3. after 5 s unmeasured, 20 connections for BENCH_SECONDS (default 20): every answer must carry
//      the user and the three cars;
//   4. writes the figures to docs/benchmarks.md (its own section). --no-write prints only.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { carBody } from '../src/modules/dashboard/dashboard.test-support';
import { saveCars } from '../src/modules/identity/identity.garage';
import { findOrCreateCustomer, startSession } from '../src/modules/identity/identity.sessions';
import { upsertCar } from '@/modules/stock/stock.commands';
import { carInputSchema } from '@/modules/stock/stock.validation';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '../src/modules/tenancy/tenancy.schema';
import { locations } from '../src/modules/locations/locations.schema';
import { startServer, waitForServer, ROOT } from './bench/http';
import { machine, writeSection } from './bench/report';
import { selectRows } from './bench/load';

const { values: args } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false } } });
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl || !new URL(databaseUrl).pathname.includes('bench')) {
  console.error('bench:auth needs DATABASE_URL naming a PostgreSQL database whose name contains "bench", e.g. postgres://postgres@127.0.0.1:5432/auth_bench');
  process.exit(2);
}
const port = Number(process.env.BENCH_PORT ?? 3410);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 20;
const WARMUP_SECONDS = 5;
const HOST = 'bench-auth.localhost';
const TARGET = { perSecond: 500, p99Ms: 50 };
const loadStart = os.loadavg()[0];

// 1. The website, its customer, saved cars and a session.
const handle = await openDatabase({ url: databaseUrl, poolSize: 2 });
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
let [site] = await handle.db.select({ id: websites.id }).from(websites).where(eq(websites.slug, 'bench-auth'));
if (!site) {
  [site] = await handle.db.insert(websites).values({ slug: 'bench-auth', name: 'Bench Auth Motors', config: { phoneSignIn: { enabled: true }, garage: { enabled: true } } }).returning({ id: websites.id });
  const [dealership] = await handle.db.insert(dealerships).values({ websiteId: site.id, slug: 'bench-auth-dealer', name: 'Bench Auth Dealer' }).returning({ id: dealerships.id });
  const [location] = await handle.db.insert(locations).values({ websiteId: site.id, dealershipId: dealership.id, name: 'Bench Auth Sales', slug: 'bench-auth-sales', primary: true, timeZone: 'Australia/Sydney' }).returning({ id: locations.id });
  const tenant = (await findTenantById(site.id))!;
  for (const slug of ['bench-car-1', 'bench-car-2', 'bench-car-3']) {
    await upsertCar(tenant, dealership.id, slug, carInputSchema.parse(carBody({ location_id: location.id })));
  }
}
const tenant = (await findTenantById(site.id))!;
const customer = await findOrCreateCustomer(tenant, '+61412000999', { first_name: 'Bench' });
const carIds = (await selectRows<{ id: number }>(handle.db, sql`select id from cars where website_id = ${site.id} order by id`)).map((r) => r.id);
await saveCars(tenant, customer.id, carIds);
const session = await startSession(tenant, customer);
const [{ version: postgresVersion }] = await selectRows<{ version: string }>(handle.db, sql`select split_part(version(), ' ', 2) as version`);
await handle.close();

// 2. Serve the production build.
const { buildIfNeeded } = (await import(path.join(ROOT, 'scripts', 'lib.mjs'))) as { buildIfNeeded: (dir: string) => Promise<void> };
await buildIfNeeded('.next');
const server = startServer(port, { NEXT_DIST_DIR: '.next', DATABASE_URL: databaseUrl, DEMO_MODE: '1', LOG_LEVEL: 'warn', LEAD_WORKER: '0' }, path.join(os.tmpdir(), `bench-auth-${port}.log`));
let result: Result;
let wrong = 0;
try {
  await waitForServer(`http://127.0.0.1:${port}/api/health`, HOST, server);
  const load = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}/api/auth`,
      connections: CONNECTIONS,
      duration,
      headers: { host: HOST, cookie: `dp_access=${session.access_token}`, accept: 'application/json' },
    });
  // What every request of the load asks for: the user and the three cars.
  const sample = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/auth', headers: { host: HOST, cookie: `dp_access=${session.access_token}` } }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
  const answer = JSON.parse(sample) as { user: unknown; watchlist: unknown[] };
  if (!answer.user || answer.watchlist.length !== 3) wrong += 1;
  await load(WARMUP_SECONDS);
  result = await load(seconds);
} finally {
  await server.stop();
}

// 3. Report.
const met = result.requests.average >= TARGET.perSecond && result.latency.p99 <= TARGET.p99Ms && result.non2xx === 0 && wrong === 0;
const m = machine({ postgres: postgresVersion, pglite: '-', loadStart });
const section = [
  '## GET /api/auth with a signed-in session (`npm run bench:auth`)',
  '',
  `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpu} (${m.cores} cores), load ${loadStart.toFixed(1)} at the start; PostgreSQL ${postgresVersion}; ${CONNECTIONS} connections, ${seconds} s after ${WARMUP_SECONDS} s unmeasured, 127.0.0.1. Each request verifies the JWT, checks the session is alive and reads the customer's three saved cars.`,
  '',
  `| requests | requests/s (mean) | latency p50 ms | latency p99 ms | non-2xx | wrong answers | target ≥ ${TARGET.perSecond}/s, p99 ≤ ${TARGET.p99Ms} ms |`,
  '|---|---|---|---|---|---|---|',
  `| ${result.requests.total} | ${result.requests.average.toFixed(1)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} | ${wrong} | ${met ? 'met' : '**missed**'} |`,
  '',
].join('\n');
console.log(section);
if (!args['no-write']) console.log(`written to ${writeSection(ROOT, section, 'auth')}`);
process.exit(0);
