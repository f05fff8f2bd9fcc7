// `npm run bench:alerts`: visitors' alerts at scale (issue 35 item 6, decision 066).
//   1. builds (or reuses) the search benchmark's 50 websites × 2,000 cars (scripts/bench/load.ts)
//      with 40,000 visitors with alerts on, 100,000 saved searches and 10,000 saved cars
//      (scripts/bench/alerts-seed.ts) in .bench-data/alerts/base, and, with DATABASE_URL (a
//      database whose name contains "bench"), in that PostgreSQL database; each run works on a copy
//      (a copied directory; CREATE DATABASE … TEMPLATE on the server), so every run starts alike;
//   2. loads each website's stock index (decision 020) with one search, as a serving process has it;
//   3. makes 1,000 stock changes through upsertCar (the Dashboard API's and the import's command),
//      20 per website: 8 price drops, 2 price rises, 3 sold, 2 reserved, 1 back in stock, 4 new cars;
//   4. times the sweep as runAlertsSweep runs it (findAlerts, then queueDueAlerts; --cpu-prof profiles both), with process
//      memory before and after, statements and their time, and checks what was found against what
//      was changed (price drops × savers, and so on); then a second sweep, which must find nothing;
//   5. writes the figures to docs/benchmarks.md (its own section). --no-write prints only;
//      --rebuild rebuilds the stored data; --no-pglite measures the server database only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type Db } from '../src/db/client';
import { Random } from '@/demo/random';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import type { Tenant } from '../src/modules/tenancy/tenancy.types';
import { ALERTS_SEED_VERSION, alertsSeedVersion, CUSTOMERS_PER_WEBSITE, seedAlerts } from './bench/alerts-seed';
import { ROOT } from './bench/http';
import { openBenchPglite, openBenchServer, redact, RefusedDatabaseError, selectRows } from './bench/load';
import { BUSY_LOAD, machine, writeSection } from './bench/report';

const { values: args } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false }, rebuild: { type: 'boolean', default: false }, 'cpu-prof': { type: 'boolean', default: false }, 'no-pglite': { type: 'boolean', default: false } } });
process.env.LOG_LEVEL ??= 'warn';
const log = (line: string) => console.log(line);
const databaseUrl = process.env.DATABASE_URL || undefined;
const DATA_ROOT = path.join(ROOT, '.bench-data', 'alerts');
const TARGET_MS = 5_000;
const CHANGES_PER_WEBSITE = { price_drop: 8, price_rise: 2, sold: 3, reserved: 2, back_in_stock: 1, new: 4 } as const;
const KINDS = ['price_drop', 'new_stock', 'sold', 'reserved', 'back_in_stock'] as const;
const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

// The application modules read the database through getDb(): they get the handle this script opened.
const { upsertCar } = await import('../src/modules/stock/stock.commands');
const { findCarJson } = await import('../src/modules/stock/stock.api');
const { carInputSchema } = await import('../src/modules/stock/stock.validation');
const { searchStock } = await import('../src/modules/stock/search/search.service');
const { findAlerts } = await import('../src/modules/alerts/alerts.sweep');
const { queueDueAlerts } = await import('../src/modules/alerts/alerts.digest');
const { resolveStoredSearches } = await import('../src/modules/alerts/alerts.saved-searches');

type Memory = { rssMiB: number; heapUsedMiB: number; heapTotalMiB: number; externalMiB: number };
const memory = (): Memory => {
  const m = process.memoryUsage();
  const mib = (n: number) => Math.round((n / 1024 ** 2) * 10) / 10;
  return { rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed), heapTotalMiB: mib(m.heapTotal), externalMiB: mib(m.external) };
};

type Statements = { count: number; ms: number; top: { label: string; count: number; ms: number }[] };
type Figures = {
  database: string;
  changes: { count: number; ms: number; byKind: Record<string, number> };
  sweep: { findMs: number; queueMs: number; totalMs: number; websites: number; changedCars: number; found: number; queued: number };
  /** The benchmark process's CPU time (user and system) in each part: on PGlite it holds the database's work too, and it grows far less with the machine's load than the time does. */
  cpu: { findMs: number; queueMs: number };
  statements: { find: Statements; queue: Statements };
  cpuTop: { fn: string; ms: number }[];
  queueCpuTop: { fn: string; ms: number }[];
  foundByKind: Record<string, number>;
  expectedByKind: Partial<Record<(typeof KINDS)[number], number>>;
  expectedMessages: number;
  sweepAgain: { ms: number; found: number; queued: number };
  memory: { before: Memory; peakRssMiB: number; peakHeapUsedMiB: number; after: Memory; afterGc: Memory };
  indexWarmMs: number;
  fallbackWebsites: number;
};

/**
 * Counts and times the statements the process sends, at the driver: pg's Client.prototype.query on a
 * server (everything, transactions and prepared statements included); on PGlite the instance's
 * query and exec (everything but the statements inside a transaction). Grouped by their first words.
 */
function countStatements(handle: DatabaseHandle) {
  type Group = { count: number; ms: number };
  let groups = new Map<string, Group>();
  let total: Group = { count: 0, ms: 0 };
  const labelOf = (text: unknown) => {
    const raw = typeof text === 'string' ? text : ((text as { text?: string })?.text ?? '');
    return raw.replace(/\s+/g, ' ').replace(/^SELECT set_config\('plan_cache_mode'.*?; EXECUTE /, 'EXECUTE ').trim().slice(0, 90);
  };
  const wrap = <F extends (...a: never[]) => unknown>(original: F): F =>
    function (this: unknown, ...a: Parameters<F>) {
      const started = performance.now();
      const label = labelOf(a[0]);
      const done = () => {
        const ms = performance.now() - started;
        const group = groups.get(label) ?? { count: 0, ms: 0 };
        groups.set(label, { count: group.count + 1, ms: group.ms + ms });
        total = { count: total.count + 1, ms: total.ms + ms };
      };
      const last = a.length - 1;
      if (typeof a[last] === 'function') {
        // pg-pool's query passes a callback.
        const callback = a[last] as unknown as (...r: unknown[]) => unknown;
        (a as unknown[])[last] = (...r: unknown[]) => {
          done();
          return callback(...r);
        };
        return original.apply(this, a);
      }
      const result = original.apply(this, a) as unknown;
      if (result && typeof (result as Promise<unknown>).then === 'function') return (result as Promise<unknown>).finally(done);
      done();
      return result;
    } as F;
  if (handle.kind === 'postgres') {
    const proto = pg.Client.prototype as unknown as { query: (...a: never[]) => unknown };
    proto.query = wrap(proto.query);
  } else {
    const client = (handle.db as unknown as { $client: { query: (...a: never[]) => unknown; exec: (...a: never[]) => unknown } }).$client;
    client.query = wrap(client.query.bind(client));
    client.exec = wrap(client.exec.bind(client));
  }
  return {
    reset: () => {
      groups = new Map();
      total = { count: 0, ms: 0 };
    },
    take: () => ({ ...total, top: [...groups.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8).map(([label, g]) => ({ label, ...g })) }),
  };
}

/** A CPU profile of what runs between start and stop, written to file; its heaviest functions by self time. */
async function profile<T>(file: string | null, run: () => Promise<T>): Promise<{ result: T; top: { fn: string; ms: number }[] }> {
  if (!file) return { result: await run(), top: [] };
  const inspector = await import('node:inspector/promises');
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  const result = await run();
  const { profile: cpu } = (await session.post('Profiler.stop')) as { profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] } };
  session.disconnect();
  fs.writeFileSync(file, JSON.stringify(cpu));
  const byNode = new Map(cpu.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  cpu.samples.forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules\/[^/]+(\/[^/]+)?|src|scripts)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + (cpu.timeDeltas[i] ?? 0) / 1000);
  });
  return { result, top: [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([fn, ms]) => ({ fn, ms })) };
}

/** The stored data with the visitors seeded (built when missing or stale). */
async function ensureSeeded(handle: DatabaseHandle, label: string): Promise<void> {
  const version = await alertsSeedVersion(handle.db);
  if (version === ALERTS_SEED_VERSION) {
    log(`${label}: visitors already seeded (${version}).`);
    await resolveSeededSearches(handle, label);
    return;
  }
  if (version) {
    // Another seed's visitors (the base holds no changes of a run: runs work on a copy): removed, the cars kept.
    log(`${label}: removing the visitors of seed ${version}…`);
    for (const statement of ['delete from alert_items', 'delete from alert_matches', 'delete from alert_counts', 'delete from alert_progress', 'delete from alert_subscriptions', 'delete from saved_searches', 'delete from favourites', 'delete from customers', 'drop table bench_alerts_meta']) {
      await handle.db.execute(sql.raw(statement));
    }
  }
  globalForDb.__dbHandle = Promise.resolve(handle);
  log(`${label}: seeding visitors…`);
  await seedAlerts(handle.db, log);
  await resolveSeededSearches(handle, label);
}

/**
 * The saved searches' stored resolutions (migration 0022), as saveSearch stores them and as a
 * deployment's backfill (resolveStoredSearches) leaves them: the sweep then resolves only what a
 * website change made stale. Kept in the stored data, so done once.
 */
async function resolveSeededSearches(handle: DatabaseHandle, label: string): Promise<void> {
  const [{ n }] = await selectRows<{ n: number }>(handle.db, sql`select count(*)::int as n from saved_searches where resolved_generation is null`);
  if (n === 0) return;
  globalForDb.__dbHandle = Promise.resolve(handle);
  const started = performance.now();
  let resolved = 0;
  for (const { id } of await selectRows<{ id: number }>(handle.db, sql`select id from websites order by id`)) resolved += await resolveStoredSearches((await findTenantById(Number(id)))!);
  // Every row was rewritten: statistics and visibility as the seed left them.
  await handle.db.execute(sql.raw('vacuum analyze saved_searches'));
  log(`${label}: resolved and stored ${resolved.toLocaleString('en-AU')} distinct saved searches (of ${n.toLocaleString('en-AU')} rows) in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

async function pgliteRun(): Promise<DatabaseHandle> {
  const base = path.join(DATA_ROOT, 'base');
  const run = path.join(DATA_ROOT, 'run');
  const handle = await openBenchPglite(base, { rebuild: args.rebuild, log });
  try {
    await ensureSeeded(handle, 'PGlite');
  } finally {
    await handle.close();
  }
  const started = performance.now();
  fs.rmSync(run, { recursive: true, force: true });
  fs.cpSync(base, run, { recursive: true });
  log(`PGlite: copied the data to ${path.relative(ROOT, run)} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return openDatabase({ dataDir: run });
}

async function serverRun(url: string): Promise<DatabaseHandle> {
  const handle = await openBenchServer(url, { rebuild: args.rebuild, log });
  try {
    await ensureSeeded(handle, 'PostgreSQL');
  } finally {
    await handle.close();
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const runName = `${name}_run`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(`drop database if exists "${runName}"`);
    await client.query(`create database "${runName}" template "${name}"`);
  } finally {
    await client.end();
  }
  const runUrl = new URL(url);
  runUrl.pathname = `/${runName}`;
  log(`PostgreSQL: copied ${name} to ${runName} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return openDatabase({ url: runUrl.toString() });
}

type Target = { id: number; slug: string; price: number; reserved: boolean; savers: number };

/** 1,000 stock changes through upsertCar, 20 per website; what each saver should hear of. */
async function makeChanges(db: Db, tenants: Tenant[]) {
  const rng = new Random('bench:alerts:changes');
  const byKind: Record<string, number> = {};
  const targets: Record<'price_drop' | 'sold' | 'reserved' | 'back_in_stock', number[]> = { price_drop: [], sold: [], reserved: [], back_in_stock: [] };
  let count = 0;
  const started = performance.now();
  for (const tenant of tenants) {
    const cars = (
      await selectRows<Target>(
        db,
        sql`select c.id, c.slug, c.price, c.reserved, coalesce(f.n, 0)::int as savers
          from cars c left join (select car_id, count(*) as n from favourites where website_id = ${tenant.id} group by car_id) f on f.car_id = c.id
          where c.website_id = ${tenant.id} and c.show_on_dealer_website and c.status = 'in_stock' and c.price > 5000 order by c.id`,
      )
    ).map((car) => ({ ...car, id: Number(car.id) }));
    const used = new Set<number>();
    // Half of each kind's cars among the saved ones, so the changes reach visitors; the rest anywhere.
    const take = (n: number, pool: Target[]) => {
      const out: Target[] = [];
      for (let i = 0; out.length < n && i < n * 50; i++) {
        const fromSaved = out.length < Math.ceil(n / 2);
        const choices = pool.filter((car) => !used.has(car.id) && (!fromSaved || car.savers > 0));
        const car = rng.pick(choices.length ? choices : pool.filter((c) => !used.has(c.id)));
        used.add(car.id);
        out.push(car);
      }
      return out;
    };
    const available = cars.filter((car) => !car.reserved);
    const plan: [string, Target][] = [
      ...take(CHANGES_PER_WEBSITE.price_drop, available).map((car) => ['price_drop', car] as [string, Target]),
      ...take(CHANGES_PER_WEBSITE.price_rise, available).map((car) => ['price_rise', car] as [string, Target]),
      ...take(CHANGES_PER_WEBSITE.sold, available).map((car) => ['sold', car] as [string, Target]),
      ...take(CHANGES_PER_WEBSITE.reserved, available).map((car) => ['reserved', car] as [string, Target]),
      ...take(CHANGES_PER_WEBSITE.back_in_stock, cars.filter((car) => car.reserved)).map((car) => ['back_in_stock', car] as [string, Target]),
    ];
    for (let n = 0; n < CHANGES_PER_WEBSITE.new; n++) plan.push(['new', rng.pick(available)]);
    for (const [kind, car] of rng.shuffle(plan)) {
      const json = await findCarJson(tenant, car.slug, { includeHidden: true });
      if (!json) throw new Error(`car ${car.slug} of website ${tenant.id} not found`);
      const change: Record<string, unknown> = { ...json };
      let slug = car.slug;
      if (kind === 'price_drop') change.price = car.price - Math.max(500, Math.round((car.price * rng.int(3, 10)) / 100 / 500) * 500);
      else if (kind === 'price_rise') change.price = car.price + 1_000;
      else if (kind === 'sold') Object.assign(change, { status: 'sold', sold: true });
      else if (kind === 'reserved') change.reserved = true;
      else if (kind === 'back_in_stock') change.reserved = false;
      else {
        // A new car like one of the website's: same make, model and dealership, a new slug and stock number, listed now.
        slug = `${car.slug}-new-${count}`;
        Object.assign(change, { stocknum: `NEW${count}`, vin: null, created_at: undefined, created_at_timestamp: undefined });
      }
      const input = carInputSchema.parse(change);
      await upsertCar(tenant, json.dealership_id, slug, input);
      if (kind in targets) targets[kind as keyof typeof targets].push(car.id);
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      count += 1;
    }
    if (tenant.id % 10 === 0) log(`    ${count} changes made (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return { count, ms: performance.now() - started, byKind, targets };
}

/** Savers with alerts on who are to hear of each kind of change, from the cars changed (a state change only for savers last told another state). */
async function expected(db: Db, targets: Awaited<ReturnType<typeof makeChanges>>['targets']) {
  const savers = async (ids: number[], state: string | null) => {
    if (ids.length === 0) return 0;
    const [row] = await selectRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from favourites f join alert_subscriptions s on s.customer_id = f.customer_id and s.unsubscribed_at is null
        where f.car_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) ${state ? sql`and coalesce(f.notified_state, 'available') <> ${state}` : sql``}`,
    );
    return row.n;
  };
  return {
    price_drop: await savers(targets.price_drop, null),
    sold: await savers(targets.sold, 'sold'),
    reserved: await savers(targets.reserved, 'reserved'),
    back_in_stock: await savers(targets.back_in_stock, 'available'),
  };
}

async function measure(handle: DatabaseHandle, label: string): Promise<Figures> {
  globalForDb.__dbHandle = Promise.resolve(handle);
  const db = handle.db;
  const statements = countStatements(handle);
  const ids = (await selectRows<{ id: number }>(db, sql`select id from websites order by id`)).map((r) => Number(r.id));
  const tenants = (await Promise.all(ids.map((id) => findTenantById(id)))) as Tenant[];
  const [counts] = await selectRows<{ searches: number; active: number; cars: number; subscribers: number }>(
    db,
    sql`select (select count(*)::int from saved_searches) as searches, (select count(*)::int from saved_searches where not paused) as active,
      (select count(*)::int from favourites) as cars, (select count(*)::int from alert_subscriptions where unsubscribed_at is null) as subscribers`,
  );
  log(`${label}: ${counts.subscribers.toLocaleString('en-AU')} visitors with alerts on, ${counts.searches.toLocaleString('en-AU')} saved searches (${counts.active.toLocaleString('en-AU')} not paused), ${counts.cars.toLocaleString('en-AU')} saved cars.`);

  // A serving process has each website's stock index loaded: one search per website loads it.
  let started = performance.now();
  for (const tenant of tenants) await searchStock(tenant, { filters: { make: ['Toyota'] }, limit: 1, offset: 0 });
  const indexWarmMs = performance.now() - started;
  log(`  stock indexes loaded in ${(indexWarmMs / 1000).toFixed(1)} s.`);

  const changes = await makeChanges(db, tenants);
  log(`  ${changes.count} stock changes through upsertCar in ${(changes.ms / 1000).toFixed(1)} s (${Object.entries(changes.byKind).map(([k, n]) => `${n} ${k}`).join(', ')}).`);
  const expectedByKind = await expected(db, changes.targets);
  const [{ n: fallbackWebsites }] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from alert_progress p join car_generations g on g.website_id = p.website_id where g.generation > p.generation + 20`,
  );
  const subscriptions = new Map(
    (
      await selectRows<{ customerId: string; lastDigestAt: string | Date | null; instant: boolean }>(
        db,
        sql`select customer_id as "customerId", last_digest_at as "lastDigestAt", instant_price_drops as instant from alert_subscriptions where unsubscribed_at is null`,
      )
    ).map((row) => [row.customerId, row]),
  );

  collectGarbage();
  const before = memory();
  let peakRss = before.rssMiB;
  let peakHeap = before.heapUsedMiB;
  const sampler = setInterval(() => {
    const m = memory();
    peakRss = Math.max(peakRss, m.rssMiB);
    peakHeap = Math.max(peakHeap, m.heapUsedMiB);
  }, 20);
  // runAlertsSweep's body (src/modules/alerts/alerts.housekeeping.ts), timed in its two parts; no delivery worker runs here.
  const now = new Date();
  statements.reset();
  const profileFile = args['cpu-prof'] ? path.join(DATA_ROOT, `sweep-${handle.kind}.cpuprofile`) : null;
  let findMs = 0;
  const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
  let findCpu = process.cpuUsage();
  const { result: found, top: cpuTop } = await profile(profileFile, async () => {
    const t0 = performance.now();
    findCpu = process.cpuUsage();
    const result = await findAlerts(now);
    findMs = performance.now() - t0;
    findCpu = process.cpuUsage(findCpu);
    return result;
  });
  const findStatements = statements.take();
  statements.reset();
  const queueStarted = performance.now();
  const queueCpuStart = process.cpuUsage();
  const { result: queued, top: queueCpuTop } = await profile(profileFile && profileFile.replace('sweep-', 'queue-'), () => queueDueAlerts(now));
  const queueMs = performance.now() - queueStarted;
  const queueCpu = process.cpuUsage(queueCpuStart);
  const queueStatements = statements.take();
  clearInterval(sampler);
  const after = memory();
  peakRss = Math.max(peakRss, after.rssMiB);
  peakHeap = Math.max(peakHeap, after.heapUsedMiB);
  collectGarbage();
  const afterGc = memory();

  const foundByKind = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  for (const row of await selectRows<{ kind: string; n: number }>(db, sql`select kind, count(*)::int as n from alert_items group by kind`)) foundByKind[row.kind] = row.n;
  // New stock is found once per search and car (decision 070).
  foundByKind.new_stock = (await selectRows<{ n: number }>(db, sql`select count(*)::int as n from alert_matches`))[0].n;
  // Messages due: visitors with items, or new stock of their searches listed after they saved them, whose digest is due, or with price drops sent at once.
  const items = await selectRows<{ customerId: string; kind: string }>(
    db,
    sql`select distinct customer_id as "customerId", kind from alert_items
      union select distinct ss.customer_id, 'new_stock' from alert_matches m
        join saved_searches ss on ss.website_id = m.website_id and ss.path = m.path and ss.query = m.query and not ss.paused
        join cars c on c.id = m.car_id and c.created_at > ss.created_at`,
  );
  const due = new Set<string>();
  for (const item of items) {
    const s = subscriptions.get(item.customerId);
    if (!s) continue;
    const digestDue = !s.lastDigestAt || now.getTime() - new Date(s.lastDigestAt).getTime() >= 86_400_000;
    if (digestDue || (s.instant && item.kind === 'price_drop')) due.add(item.customerId);
  }
  const [{ n: messages }] = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from lead_deliveries where channel in ('visitor_alert_email', 'visitor_alert_sms')`);
  if (messages !== queued) throw new Error(`queueDueAlerts said ${queued} messages, the outbox holds ${messages}`);

  // At the first sweep's `now`: a digest that fell due while the first sweep ran is not the second's to find.
  started = performance.now();
  const again = await findAlerts(now);
  const queuedAgain = await queueDueAlerts(now);
  const sweepAgain = { ms: performance.now() - started, found: again.found, queued: queuedAgain };

  const figures: Figures = {
    database: label,
    changes: { count: changes.count, ms: changes.ms, byKind: changes.byKind },
    sweep: { findMs, queueMs, totalMs: findMs + queueMs, websites: found.websites, changedCars: found.changedCars, found: found.found, queued },
    cpu: { findMs: cpuMs(findCpu), queueMs: cpuMs(queueCpu) },
    statements: { find: findStatements, queue: queueStatements },
    cpuTop,
    queueCpuTop,
    foundByKind,
    expectedByKind,
    expectedMessages: due.size,
    sweepAgain,
    memory: { before, peakRssMiB: peakRss, peakHeapUsedMiB: peakHeap, after, afterGc },
    indexWarmMs,
    fallbackWebsites,
  };
  printFigures(figures);
  return figures;
}

const fmt = (ms: number) => (ms / 1000).toFixed(2);
const met = (f: Figures) => f.sweep.totalMs <= TARGET_MS;
const checked = (f: Figures) =>
  (Object.keys(f.expectedByKind) as (keyof Figures['expectedByKind'])[]).every((kind) => f.expectedByKind[kind] === f.foundByKind[kind]) &&
  f.expectedMessages === f.sweep.queued &&
  f.sweepAgain.found === 0 &&
  f.sweepAgain.queued === 0;

function printFigures(f: Figures): void {
  console.log(`\n${f.database}`);
  console.log(`  sweep: ${fmt(f.sweep.totalMs)} s (findAlerts ${fmt(f.sweep.findMs)} s, queueDueAlerts ${fmt(f.sweep.queueMs)} s) — target ≤ ${TARGET_MS / 1000} s ${met(f) ? 'met' : 'MISSED'}`);
  console.log(`  process CPU: ${fmt(f.cpu.findMs + f.cpu.queueMs)} s (findAlerts ${fmt(f.cpu.findMs)} s, queueDueAlerts ${fmt(f.cpu.queueMs)} s)`);
  console.log(`  ${f.sweep.websites} websites swept, ${f.sweep.changedCars} changed cars read (${f.fallbackWebsites} websites past the 20 generations car_changes keeps), ${f.sweep.found} found (items and new-stock matches), ${f.sweep.queued} messages queued`);
  for (const [part, st] of [['findAlerts', f.statements.find], ['queueDueAlerts', f.statements.queue]] as const) {
    console.log(`  ${part}: ${st.count} statements, ${fmt(st.ms)} s waiting for them; the heaviest:`);
    for (const g of st.top) console.log(`    ${String(g.count).padStart(6)} × ${fmt(g.ms).padStart(6)} s  ${g.label}`);
  }
  for (const [part, top] of [['findAlerts', f.cpuTop], ['queueDueAlerts', f.queueCpuTop]] as const) {
    if (!top.length) continue;
    console.log(`  ${part} CPU profile, self time (ms):`);
    for (const t of top) console.log(`    ${t.ms.toFixed(0).padStart(7)}  ${t.fn}`);
  }
  console.log(`  ${'kind'.padEnd(14)} ${'expected'.padStart(9)} ${'found'.padStart(7)}`);
  for (const kind of KINDS) console.log(`  ${kind.padEnd(14)} ${String(f.expectedByKind[kind as keyof Figures['expectedByKind']] ?? '-').padStart(9)} ${String(f.foundByKind[kind]).padStart(7)}`);
  console.log(`  ${'messages'.padEnd(14)} ${String(f.expectedMessages).padStart(9)} ${String(f.sweep.queued).padStart(7)}`);
  console.log(`  second sweep: ${fmt(f.sweepAgain.ms)} s, ${f.sweepAgain.found} found, ${f.sweepAgain.queued} queued; check ${checked(f) ? 'passed' : 'FAILED'}`);
  const m = f.memory;
  console.log(
    `  memory: RSS ${m.before.rssMiB} → ${m.after.rssMiB} MiB (peak ${m.peakRssMiB}), heap used ${m.before.heapUsedMiB} → ${m.after.heapUsedMiB} MiB (peak ${m.peakHeapUsedMiB}, ${m.afterGc.heapUsedMiB} after a collection)`,
  );
}

function render(all: Figures[], loadStart: number, loadEnd: number, versions: { postgres: string | null; pglite: string }): string {
  const m = machine({ ...versions, loadStart });
  const busy = Math.max(loadStart, loadEnd) > BUSY_LOAD;
  const lines = [
    '## Visitors\' alerts: 1,000 stock changes matched and queued (`npm run bench:alerts`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB, Node ${m.node}. ` +
      `Load average (1 min) ${loadStart.toFixed(2)} at the start and ${loadEnd.toFixed(2)} at the end` +
      (busy ? ": **the machine was shared with other sessions' work, so these figures are pessimistic**." : '.'),
    '',
    `Data: the search benchmark's 50 websites × 2,000 cars (scripts/bench/generate-stock.ts), with ${(CUSTOMERS_PER_WEBSITE * 50).toLocaleString('en-AU')} visitors with alerts on ` +
      '(85 % by email, 15 % by SMS, a quarter with instant price drops, half never sent a digest and the rest one in the last 48 hours), ' +
      '100,000 saved searches (1–5 per visitor, 2 % paused; make, make and model, make and budget, make/model landing pages such as /search/used-cars/toyota/hilux, two makes, ' +
      'body and budget, price range, year and km, text; each stored as saveSearch stores it, through resolveSearch, with what it resolves to: resolveStoredSearches, once per stored database) and 10,000 saved cars (as saveCars stores them, a fifth on each website’s 50 most saved cars); scripts/bench/alerts-seed.ts. ' +
      'Each run works on a fresh copy of that data. The stock index of every website is loaded first (one search each), as in a serving process. ' +
      `Then 1,000 stock changes through upsertCar, 20 per website: ${Object.entries(CHANGES_PER_WEBSITE).map(([k, n]) => `${n} ${k.replace(/_/g, ' ')}`).join(', ')} ` +
      '(half of each kind on cars someone saved). Timed: the sweep as runAlertsSweep runs it, findAlerts then queueDueAlerts, in the benchmark process. ' +
      '"expected" counts the savers of the cars changed (with alerts on; for a state, those last told another state); new stock is found once per search and car (decision 070: "found" counts those matches) and has no independent count; "messages" expects the visitors due with items, or with new stock of their searches listed after they saved them. ' +
      'A second sweep right after, at the same `now`, must find and queue nothing. Statements: those the process sent during the sweep, timed at the driver (on PGlite, those outside a transaction: the statements of queueDueAlerts’s batch transactions are not in its count). Process CPU: the benchmark process’s user and system time in the sweep (on PGlite the database’s work is in it; on the server it is in the server’s processes, not here): it grows far less with the machine’s load than the sweep’s time does. Memory is the process’s (PGlite’s WebAssembly memory is in the RSS, not in the heap). ' +
      `Target: the sweep ≤ ${TARGET_MS / 1000} s.`,
    '',
    '| database | sweep s | findAlerts s | queueDueAlerts s | process CPU s (find + queue) | statements (waiting s) | found (items + new-stock matches) | messages queued | RSS MiB before → after (peak) | heap used MiB before → after (peak) | 1,000 changes s | target |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    ...all.map(
      (f) =>
        `| ${f.database} | ${fmt(f.sweep.totalMs)} | ${fmt(f.sweep.findMs)} | ${fmt(f.sweep.queueMs)} | ${fmt(f.cpu.findMs + f.cpu.queueMs)} (${fmt(f.cpu.findMs)} + ${fmt(f.cpu.queueMs)}) | ${f.statements.find.count + f.statements.queue.count} (${fmt(f.statements.find.ms + f.statements.queue.ms)}) | ${f.sweep.found} | ${f.sweep.queued} | ` +
        `${f.memory.before.rssMiB} → ${f.memory.after.rssMiB} (${f.memory.peakRssMiB}) | ${f.memory.before.heapUsedMiB} → ${f.memory.after.heapUsedMiB} (${f.memory.peakHeapUsedMiB}) | ${fmt(f.changes.ms)} | ${met(f) ? 'met' : '**missed**'} |`,
    ),
    '',
    '| database | kind | expected | found |',
    '|---|---|--:|--:|',
    ...all.flatMap((f) => [
      ...KINDS.map((kind) => `| ${f.database} | ${kind} | ${f.expectedByKind[kind as keyof Figures['expectedByKind']] ?? '–'} | ${f.foundByKind[kind]} |`),
      `| ${f.database} | messages (visitors due) | ${f.expectedMessages} | ${f.sweep.queued} |`,
      `| ${f.database} | second sweep (found, queued) | 0, 0 | ${f.sweepAgain.found}, ${f.sweepAgain.queued} |`,
    ]),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loadStart = os.loadavg()[0];
  if (loadStart > BUSY_LOAD) log(`Warning: the 1-minute load average is ${loadStart.toFixed(2)}: the figures will be pessimistic.`);
  fs.mkdirSync(DATA_ROOT, { recursive: true });
  const all: Figures[] = [];
  const version = async (handle: DatabaseHandle) => (await selectRows<{ v: string }>(handle.db, sql`select current_setting('server_version') as v`))[0].v;
  let pgliteVersion = 'unknown';
  let postgresVersion: string | null = null;
  if (!args['no-pglite']) {
    const pglite = await pgliteRun();
    try {
      pgliteVersion = await version(pglite);
      all.push(await measure(pglite, `PGlite (PostgreSQL ${pgliteVersion})`));
    } finally {
      await pglite.close();
    }
  }
  if (databaseUrl) {
    if (!new URL(databaseUrl).pathname.includes('bench')) throw new RefusedDatabaseError(`bench:alerts needs DATABASE_URL naming a database whose name contains "bench", not ${redact(databaseUrl)}`);
    const server = await serverRun(databaseUrl);
    try {
      postgresVersion = (await version(server)).split(' ')[0];
      all.push(await measure(server, `PostgreSQL ${postgresVersion} server`));
    } finally {
      await server.close();
    }
  } else {
    log('DATABASE_URL is not set: the PostgreSQL server part is skipped.');
  }
  const section = render(all, loadStart, os.loadavg()[0], { postgres: postgresVersion, pglite: pgliteVersion });
  if (args['no-write']) console.log(`\n${section}\n\n(docs/benchmarks.md not written: --no-write)`);
  else log(`\nWrote ${path.relative(ROOT, writeSection(ROOT, section, 'alerts'))}.`);
  if (!all.every(checked)) {
    console.error('The found items or messages differ from the expected ones (see above).');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof RefusedDatabaseError ? error.message : error);
  process.exit(1);
});
