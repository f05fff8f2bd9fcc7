// `npm run bench:checkout`: reservations started per second and their latency (issue 16).
//   1. opens DATABASE_URL (required: a PostgreSQL database whose name contains "bench"), migrates it
//      and adds, once, a website with checkout on (the sandbox provider: CHECKOUT_SANDBOX=1) and
//      BENCH_CARS (default 12000) cars with a deposit; ends every earlier run's active reservations;
//   2. in this process (no server: what is measured is the checkout module on PostgreSQL, the route
//      adds the website lookup and JSON), CONCURRENCY (20) starters for BENCH_SECONDS (default 20)
//      after 5 s unmeasured, each start a new visitor (own address for the limit) reserving a car
//      no one holds: validation, the limit, the car read, the transaction that locks the car, expires
//      its lapsed holds and inserts the reservation and its audit row, and the sandbox payment;
//   3. then 50 visitors at once on one car, 5 times: exactly one may win each time;
//   4. writes the figures to docs/benchmarks.md (its own section). --no-write prints only.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '../src/modules/tenancy/tenancy.schema';
import { machine, writeSection } from './bench/report';
import { selectRows } from './bench/load';

const { values: args } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false } } });
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl || !new URL(databaseUrl).pathname.includes('bench')) {
  console.error('bench:checkout needs DATABASE_URL naming a PostgreSQL database whose name contains "bench", e.g. postgres://postgres@127.0.0.1:5432/checkout_bench');
  process.exit(2);
}
process.env.CHECKOUT_SANDBOX = '1';
process.env.LOG_LEVEL ??= 'warn';
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const carsWanted = Number(process.env.BENCH_CARS ?? 12000);
const CONCURRENCY = 20;
const WARMUP_SECONDS = 5;
const TARGET = { perSecond: 100, p99Ms: 150 };
const ROOT = path.resolve(import.meta.dirname, '..');
const loadStart = os.loadavg()[0];

// 1. The website and its cars.
const handle = await openDatabase({ url: databaseUrl, poolSize: 10 });
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
let [site] = await handle.db.select({ id: websites.id }).from(websites).where(eq(websites.slug, 'bench-checkout'));
if (!site) {
  [site] = await handle.db
    .insert(websites)
    .values({ slug: 'bench-checkout', name: 'Bench Checkout Motors', config: { checkout: { enabled: true, paymentProvider: 'Stripe' } } })
    .returning({ id: websites.id });
  await handle.db.insert(dealerships).values({ websiteId: site.id, slug: 'bench-checkout-dealer', name: 'Bench Checkout Dealer', email: 'sales@bench.example' });
}
const [{ dealershipId }] = await selectRows<{ dealershipId: number }>(handle.db, sql`select id as "dealershipId" from dealerships where website_id = ${site.id}`);
const [{ n: have }] = await selectRows<{ n: number }>(handle.db, sql`select count(*)::int as n from cars where website_id = ${site.id}`);
if (have < carsWanted) {
  await handle.db.execute(sql`insert into cars (website_id, dealership_id, slug, name, make, model, year, km, price, car_type, status)
    select ${site.id}, ${dealershipId}, 'bench-car-' || g, 'Bench car ' || g, 'Toyota', 'Corolla', 2021, 40000, 20000 + g, 'used', 'in_stock'
    from generate_series(${have + 1}::int, ${carsWanted}::int) g`);
  await handle.db.execute(sql`insert into car_payment_processors (website_id, car_id, authorization_type, authorization_key, deposit_amount)
    select website_id, id, 'Stripe', 'pk_test_bench', 500 from cars c
    where website_id = ${site.id} and not exists (select 1 from car_payment_processors p where p.car_id = c.id)`);
}
await handle.db.execute(sql`update reservations set status = 'cancelled' where website_id = ${site.id} and status in ('pending_payment', 'held')`);
await handle.db.execute(sql`update cars set reserved = false where website_id = ${site.id} and reserved`);
await handle.db.execute(sql`delete from rate_limits where key like 'checkout-%:' || ${site.id} || ':%'`);
const [{ version: postgresVersion }] = await selectRows<{ version: string }>(handle.db, sql`select split_part(version(), ' ', 2) as version`);
const carIds = (await selectRows<{ id: number }>(handle.db, sql`select id from cars where website_id = ${site.id} order by id`)).map((r) => r.id);

const { startReservation } = await import('../src/modules/checkout/checkout.commands');
const tenant = (await findTenantById(site.id))!;

let n = 0;
const visitor = () => {
  n += 1;
  return { name: 'Bench', last_name: 'Visitor', email: `visitor${n}@example.com`, phone: `041${String(n % 10_000_000).padStart(7, '0')}`, postcode: '2000' };
};
const ip = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

// 2. Uncontended starts: each starter takes the next free car.
let nextCar = 0;
async function run(durationS: number) {
  const latencies: number[] = [];
  let refused = 0;
  let errors = 0;
  const until = performance.now() + durationS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        if (nextCar >= carIds.length) throw new Error(`more than ${carIds.length} reservations: set BENCH_CARS higher`);
        const carId = carIds[nextCar++];
        const t0 = performance.now();
        try {
          await startReservation(tenant, { car_id: carId, visitor: visitor(), terms_accepted: true }, { ip: ip(), idempotencyKey: null, origin: 'http://bench-checkout.localhost' });
          latencies.push(performance.now() - t0);
        } catch (error) {
          if ((error as { status?: number }).status === 409) refused += 1;
          else {
            errors += 1;
            if (errors <= 3) console.error(error);
          }
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { started: latencies.length, perSecond: latencies.length / durationS, p50: pct(50), p99: pct(99), refused, errors };
}

await run(WARMUP_SECONDS);
const figures = await run(seconds);

// 3. Contention: 50 visitors, one car.
const contention: { winners: number; ms: number }[] = [];
for (let round = 0; round < 5; round += 1) {
  const carId = carIds[nextCar++];
  const t0 = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, () => startReservation(tenant, { car_id: carId, visitor: visitor(), terms_accepted: true }, { ip: ip(), idempotencyKey: null, origin: 'http://bench-checkout.localhost' })),
  );
  contention.push({ winners: results.filter((r) => r.status === 'fulfilled').length, ms: performance.now() - t0 });
}
const [{ n: active }] = await selectRows<{ n: number }>(handle.db, sql`select count(*)::int as n from reservations where website_id = ${site.id} and status = 'pending_payment'`);
await handle.db.execute(sql`update reservations set status = 'cancelled' where website_id = ${site.id} and status in ('pending_payment', 'held')`);
await handle.close();

const met = figures.perSecond >= TARGET.perSecond && figures.p99 <= TARGET.p99Ms && figures.errors === 0 && contention.every((c) => c.winners === 1);
const m = machine({ postgres: postgresVersion, pglite: '-', loadStart });
const fmt = (v: number) => v.toFixed(1);
console.log(
  `\ncheckout: ${fmt(figures.perSecond)} reservations started/s, p50 ${fmt(figures.p50)} ms, p99 ${fmt(figures.p99)} ms, ${figures.started} started, ${figures.refused} refused, ${figures.errors} errors; ` +
    `50 on one car: ${contention.map((c) => `${c.winners} winner in ${fmt(c.ms)} ms`).join(', ')}; ${active} pending at the end — target ≥ ${TARGET.perSecond}/s and p99 ≤ ${TARGET.p99Ms} ms ${met ? 'met' : 'MISSED'}`,
);
if (!args['no-write']) {
  const section = [
    '## Reservations started (`npm run bench:checkout`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB, Node ${m.node}, PostgreSQL ${postgresVersion}. ` +
      `Load average when the run started: ${loadStart.toFixed(1)}` +
      (loadStart > 0.8 ? " — **the machine was shared with other sessions' builds and tests: the figures are pessimistic**." : '.'),
    '',
    `In process (no HTTP server): ${CONCURRENCY} concurrent starters for ${seconds} s after ${WARMUP_SECONDS} s unmeasured, \`startReservation\` on a PostgreSQL server with the sandbox provider, ` +
      'each start a new visitor (own address, so the start limit counts as in production) reserving a car nobody holds. A start validates the visitor (the lead form rules), counts the limit, ' +
      'reads the car with its deposit, and in one transaction locks the car, expires its lapsed holds and inserts the reservation (the partial unique index) and its audit row; then the sandbox ' +
      'creates its payment and the reservation records it. Then 50 visitors start on one car at once, 5 times.',
    '',
    `| started | reservations/s | p50 ms | p99 ms | refused | errors | 50 on one car: winners | 50 on one car: ms | target ≥ ${TARGET.perSecond}/s, p99 ≤ ${TARGET.p99Ms} ms, one winner |`,
    '|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    `| ${figures.started} | ${fmt(figures.perSecond)} | ${fmt(figures.p50)} | ${fmt(figures.p99)} | ${figures.refused} | ${figures.errors} | ${contention.map((c) => c.winners).join(', ')} | ${contention.map((c) => fmt(c.ms)).join(', ')} | ${met ? 'met' : 'MISSED'} |`,
  ].join('\n');
  console.log(`written to ${writeSection(ROOT, section, 'checkout')}`);
}
