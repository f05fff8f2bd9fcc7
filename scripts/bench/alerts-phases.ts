// Where newStock's time goes for one website (bench:alerts's profile, issue 35 item 6): on a database
// bench:alerts made (DATABASE_URL, or the PGlite copy in .bench-data/alerts/run), times the steps
// of alerts.sweep.ts's newStock one by one for the website given (default 1), outside the sweep:
// reading the active saved searches, resolveSearch of each (landing paths such as
// /search/used-cars/toyota apart), engineFilters, and one searchStock per saved search, as newStock
// runs for a candidate. Nothing is written.
//   tsx --conditions=react-server scripts/bench/alerts-phases.ts [websiteId]
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/db/client';
import { findTenantById } from '../../src/modules/tenancy/tenancy.queries';
import { ROOT } from './http';
import { selectRows } from './load';

const websiteId = Number(process.argv[2] ?? 1);
const url = process.env.DATABASE_URL || undefined;
const handle = await openDatabase(url ? { url } : { dataDir: path.join(ROOT, '.bench-data', 'alerts', 'run') });
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
const { resolveSearch } = await import('../../src/modules/alerts/alerts.saved-searches');
const { engineFilters, searchStock } = await import('../../src/modules/stock/server');

const tenant = (await findTenantById(websiteId))!;
const time = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
};
// Warm: the stock index and the JIT, as in a serving process.
await searchStock(tenant, { filters: { make: ['Toyota'] }, limit: 1, offset: 0 });
for (let i = 0; i < 50; i++) await resolveSearch(tenant, `/search/used-cars/toyota?price_max=${30_000 + i}`);

const [searches, readMs] = await time(() =>
  selectRows<{ id: string; path: string; query: string }>(
    handle.db,
    sql`select ss.id, ss.path, ss.query from saved_searches ss join alert_subscriptions s on s.customer_id = ss.customer_id and s.unsubscribed_at is null
      where ss.website_id = ${websiteId} and not ss.paused`,
  ),
);
const landing = (p: string) => p.split('/').length > 3;
const resolved: { resolved: NonNullable<Awaited<ReturnType<typeof resolveSearch>>>; landing: boolean }[] = [];
const resolveMs = { landing: 0, other: 0 };
const counts = { landing: 0, other: 0 };
for (const search of searches) {
  const kind = landing(search.path) ? 'landing' : 'other';
  const [r, ms] = await time(() => resolveSearch(tenant, search.query ? `${search.path}?${search.query}` : search.path));
  resolveMs[kind] += ms;
  counts[kind] += 1;
  if (r) resolved.push({ resolved: r, landing: kind === 'landing' });
}
const [filters, filtersMs] = await time(async () => resolved.map(({ resolved: r }) => ({ filters: engineFilters(r.state, r.listing.preset, tenant.config), q: r.state.q })));
const since = Date.now() - 3_600_000;
let hits = 0;
const [, searchMs] = await time(async () => {
  for (const { filters: f, q } of filters) {
    const result = await searchStock(tenant, { q, filters: { ...f, created_at_timestamp: { min: since } }, limit: 18, offset: 0, sort: 'created_at_timestamp:desc' }, new Date());
    hits += result.hits.length;
  }
});
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(`website ${websiteId} (${handle.kind}): ${searches.length} active saved searches of visitors with alerts on`);
console.log(`  read them: ${ms(readMs)}`);
console.log(`  resolveSearch, landing paths: ${counts.landing} in ${ms(resolveMs.landing)} (${(resolveMs.landing / Math.max(1, counts.landing)).toFixed(2)} ms each)`);
console.log(`  resolveSearch, other paths: ${counts.other} in ${ms(resolveMs.other)} (${(resolveMs.other / Math.max(1, counts.other)).toFixed(2)} ms each)`);
console.log(`  engineFilters: ${ms(filtersMs)}`);
console.log(`  searchStock, once per saved search (newStock runs it once per candidate): ${filters.length} in ${ms(searchMs)} (${(searchMs / filters.length).toFixed(2)} ms each), ${hits} hits`);
await handle.close();
