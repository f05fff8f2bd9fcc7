// `npm run bench:leads`: lead submissions per second and latency under autocannon.
//   1. opens DATABASE_URL (required: a PostgreSQL database whose name contains "bench"), migrates it
//      and adds the bench website (bench-leads.localhost, one dealership with a lead address) once, and
//      resets the bench website's limit counters;
//   2. builds (or reuses) a production build in BENCH_DIST_DIR (default .next-bench) and serves it
//      with `next start` on 127.0.0.1:BENCH_PORT (default 3400), the delivery worker running as in
//      production (no SMTP: emails end in the outbox table);
//   3. after 5 s of the same load unmeasured, autocannon POSTs /api/leads for BENCH_SECONDS (default
//      20) with 20 connections, each request a different visitor (phone, Idempotency-Key,
//      X-Forwarded-For address), then checks that every 201 is one stored lead and waits for the
//      outbox to drain;
//   4. writes the figures to docs/benchmarks.md (its own section). --no-write prints only.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { dealerships, websites } from '../src/modules/tenancy/tenancy.schema';
import { startServer, waitForServer, ROOT } from './bench/http';
import { machine, writeSection } from './bench/report';
import { selectRows } from './bench/load';

const { values: args } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false } } });

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl || !new URL(databaseUrl).pathname.includes('bench')) {
  console.error('bench:leads needs DATABASE_URL naming a PostgreSQL database whose name contains "bench", e.g. postgres://postgres@127.0.0.1:5432/leads_bench');
  process.exit(2);
}
const distDir = process.env.BENCH_DIST_DIR ?? '.next-bench';
const port = Number(process.env.BENCH_PORT ?? 3400);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 20;
const WARMUP_SECONDS = 5;
const HOST = 'bench-leads.localhost';
const TARGET = { perSecond: 200, p99Ms: 100 };
const loadStart = os.loadavg()[0];

// 1. The database and the bench website.
const handle = await openDatabase({ url: databaseUrl, poolSize: 2 });
const [existing] = await selectRows<{ id: number }>(handle.db, sql`select id from websites where slug = 'bench-leads'`);
if (!existing) {
  const [site] = await handle.db.insert(websites).values({ slug: 'bench-leads', name: 'Bench Leads Motors', config: {} }).returning({ id: websites.id });
  await handle.db.insert(dealerships).values({ websiteId: site.id, slug: 'bench-leads-dealer', name: 'Bench Leads Dealer', email: 'leads@bench.example' });
}
const [{ version: postgresVersion }] = await selectRows<{ version: string }>(handle.db, sql`select split_part(version(), ' ', 2) as version`);
const countLeads = async () => Number((await selectRows<{ n: number }>(handle.db, sql`select count(*)::int as n from leads l join websites w on w.id = l.website_id where w.slug = 'bench-leads'`))[0].n);
let before = await countLeads();
// Each run's visitors must be new to the limits: runs reuse phone numbers and addresses, and ten
// runs a day would otherwise meet the per-phone limit (10 a day).
await handle.db.execute(sql`delete from rate_limits where key like 'lead-%:' || (select id from websites where slug = 'bench-leads') || ':%'`);

// 2. Build and serve.
const { buildIfNeeded } = (await import(path.join(ROOT, 'scripts', 'lib.mjs'))) as { buildIfNeeded: (dir: string) => Promise<void> };
const fs = await import('node:fs');
const tsconfig = path.join(ROOT, 'tsconfig.json');
const tsconfigBefore = fs.readFileSync(tsconfig);
process.env.NEXT_DIST_DIR = distDir; // next.config.ts reads it: the build must land where the server looks
try {
  await buildIfNeeded(distDir);
} finally {
  if (!fs.readFileSync(tsconfig).equals(tsconfigBefore)) fs.writeFileSync(tsconfig, tsconfigBefore);
}
const server = startServer(port, { NEXT_DIST_DIR: distDir, DATABASE_URL: databaseUrl, DEMO_MODE: '1', LOG_LEVEL: 'warn', TRUSTED_PROXY_HOPS: '1' }, path.join(os.tmpdir(), `bench-leads-${port}.log`));
const url = `http://127.0.0.1:${port}/api/leads`;
let result: Result;
try {
  await waitForServer(`http://127.0.0.1:${port}/`, HOST, server);

  // 3. The load: first WARMUP_SECONDS unmeasured (the server's code is compiled and optimised by
  // the JIT while it runs, which the first seconds of a fresh process pay for), then the measured run.
  let n = 0;
  const run = Date.now().toString(36);
  const load = (duration: number) =>
    autocannon({
      url,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          setupRequest: (request) => {
            n += 1;
            const lead = {
              name: 'Bench Visitor',
              email: `visitor${n}@example.com`,
              phone: `041${String(n % 10_000_000).padStart(7, '0')}`,
              postcode: '2000',
              category: 'General Enquiry',
              message: 'Is this car still available?',
              url: '/cars/bench',
              visited_pages: ['/', '/search/new-used-and-demo-cars', '/cars/bench'],
            };
            return {
              ...request,
              headers: {
                host: HOST,
                'content-type': 'application/json',
                'idempotency-key': `bench-${run}-${n}`,
                'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              },
              body: JSON.stringify({ lead }),
            };
          },
        },
      ],
    });
  const warmup = await load(WARMUP_SECONDS);
  if (warmup.non2xx > 0 || warmup.errors > 0) throw new Error(`warm-up: ${warmup.non2xx} non-2xx answers, ${warmup.errors} errors`);
  before = await countLeads();
  result = await load(seconds);

  // Every 201 is a stored lead; the outbox drains.
  const created = (await countLeads()) - before;
  const deadline = Date.now() + 120_000;
  let pending = 0;
  do {
    [{ n: pending }] = await selectRows<{ n: number }>(handle.db, sql`select count(*)::int as n from lead_deliveries where status = 'pending'`);
    if (pending > 0) await new Promise((r) => setTimeout(r, 1000));
  } while (pending > 0 && Date.now() < deadline);

  const figures = {
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    created,
    pending,
  };
  const met = figures.perSecond >= TARGET.perSecond && figures.p99 <= TARGET.p99Ms;
  const m = machine({ postgres: postgresVersion, pglite: '-', loadStart });
  console.log(
    `\nleads: ${figures.perSecond.toFixed(1)} leads/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.requests} requests, ${figures.non2xx} non-2xx, ${figures.errors} errors; ${figures.created} leads stored, ${figures.pending} deliveries still pending — target ≥ ${TARGET.perSecond}/s and p99 ≤ ${TARGET.p99Ms} ms ${met ? 'met' : 'MISSED'}`,
  );
  if (!args['no-write']) {
    const section = [
      '## Lead submissions (`npm run bench:leads`)',
      '',
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB, Node ${m.node}, PostgreSQL ${postgresVersion}. ` +
        `Load average when the run started: ${loadStart.toFixed(1)}` +
        (loadStart > 0.8 ? ' — **the machine was shared with other sessions\' builds and tests: the figures are pessimistic**.' : '.'),
      '',
      `autocannon, ${CONNECTIONS} connections for ${seconds} s after ${WARMUP_SECONDS} s of the same load unmeasured (the JIT warms up), \`POST ${url}\` with \`Host: ${HOST}\` (production build, \`next start\` on 127.0.0.1, ` +
        'PostgreSQL server, the delivery worker running in the same process; autocannon on the same machine). Each request is a new visitor: ' +
        'its own phone, Idempotency-Key and X-Forwarded-For address, so the per-IP and per-phone limits count as in production. A request looks the website up, validates the lead, ' +
        'reads the idempotency key, the references and the repeated-message count in one statement, and in a second one counts the limits and commits the lead, its analytics event ' +
        'and its outbox row (decision 018).',
      '',
      '| requests | leads/s (mean) | latency p50 ms | latency p99 ms | non-2xx | errors | leads stored | deliveries pending after the run | target ≥ 200/s, p99 ≤ 100 ms |',
      '|--:|--:|--:|--:|--:|--:|--:|--:|---|',
      `| ${figures.requests} | ${figures.perSecond.toFixed(1)} | ${figures.p50} | ${figures.p99} | ${figures.non2xx} | ${figures.errors} | ${figures.created} | ${figures.pending} | ${met ? 'met' : '**missed**'} |`,
    ].join('\n');
    const file = writeSection(ROOT, section, 'leads');
    console.log(`written to ${path.relative(ROOT, file)}`);
  }
} finally {
  await server.stop();
  await handle.close();
}
