/**
 * npm run bench:valuations — how the market estimate (decision 027) does on the demo stock.
 *
 * Seeds the 8 demo dealers into an in-memory embedded database, then for every car a car page
 * would compare (price comparison eligible: in stock, not reserved, price above 200):
 * - the share showing the market price indicator with the provider data alone (autograb_data, as
 *   before) and with the estimate filling the cars that have none (as now);
 * - the estimate's error against the car's own price, leave-one-out (the car is never its own
 *   comparable): median and 90th percentile of |estimate − price| / price, and how often there is
 *   not enough data.
 * Figures go to docs/benchmarks.md; `--no-write` only prints them.
 */
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { seedDemoData } from '@/demo';
import { getCarBySlug } from '@/modules/stock/stock.queries';
import { isPriceComparisonEligible, marketIndicator } from '../src/modules/stock/car-page.rules';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import { estimateFromListings, marketAveragesFor } from '../src/modules/vehicles/vehicles.service';
import { cars, websites } from '../src/db/schema';
import { writeSection } from './bench/report';

const ROOT = path.resolve(import.meta.dirname, '..');
const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };

const handle = await openDatabase({ dataDir: null });
globalForDb.__dbHandle = Promise.resolve(handle);
const { db } = handle;
const now = new Date();
await seedDemoData(db, { mediaDir: null, now });

type Row = { site: string; priced: number; before: number; after: number; estimated: number; errors: number[] };
const rows: Row[] = [];
const started = performance.now();
for (const site of await db.select({ id: websites.id, slug: websites.slug }).from(websites).orderBy(websites.slug)) {
  const tenant = (await findTenantById(site.id))!;
  // The same comparison the car page makes, whether or not this website turns it on.
  const compared = { ...tenant, config: { ...tenant.config, carPage: { ...tenant.config.carPage, priceComparison: true } } };
  const row: Row = { site: site.slug, priced: 0, before: 0, after: 0, estimated: 0, errors: [] };
  const slugs = await db.select({ slug: cars.slug, websiteId: cars.websiteId }).from(cars);
  for (const { slug, websiteId } of slugs) {
    if (websiteId !== site.id) continue;
    const car = await getCarBySlug(compared, slug, now);
    if (!car || !isPriceComparisonEligible(car, compared.config)) continue;
    row.priced += 1;
    if (marketIndicator(car, compared.config)) row.before += 1;
    if (marketIndicator(await marketAveragesFor(compared, car, true), compared.config)) row.after += 1;
    const estimate = await estimateFromListings(compared, { make: car.make, model: car.model, year: car.year, km: car.km, state: car.location?.state || null }, car.id);
    if (!estimate.ok) continue;
    row.estimated += 1;
    row.errors.push(Math.abs(estimate.retail.median - car.price) / car.price);
  }
  rows.push(row);
}
const seconds = (performance.now() - started) / 1000;
await handle.close();

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : '–');
const err = (values: number[], q: number) => (values.length ? `${(100 * quantile(values, q)).toFixed(1)} %` : '–');
const all = rows.reduce((sum, r) => ({ priced: sum.priced + r.priced, before: sum.before + r.before, after: sum.after + r.after, estimated: sum.estimated + r.estimated, errors: [...sum.errors, ...r.errors] }), { priced: 0, before: 0, after: 0, estimated: 0, errors: [] as number[] });

const lines = [
  '## Market estimate on the demo stock (`npm run bench:valuations`)',
  '',
  `Run ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds.toFixed(1)} s. Cars a car page compares (in stock, not reserved, price above $200), each website as if its price comparison were on. 'Indicator' is the market price indicator (price more than $499 below the average). Error: |estimate − the car's own price| / price, leave-one-out.`,
  '',
  '| website | compared cars | indicator, provider data only (before) | indicator, estimate filling in (after) | cars with an estimate | median error | 90th percentile error |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.site} | ${r.priced} | ${pct(r.before, r.priced)} | ${pct(r.after, r.priced)} | ${pct(r.estimated, r.priced)} | ${err(r.errors, 0.5)} | ${err(r.errors, 0.9)} |`),
  `| **all** | ${all.priced} | ${pct(all.before, all.priced)} | ${pct(all.after, all.priced)} | ${pct(all.estimated, all.priced)} | ${err(all.errors, 0.5)} | ${err(all.errors, 0.9)} |`,
  '',
];
const section = lines.join('\n');
console.log(section);
if (!process.argv.includes('--no-write')) console.log(`written to ${writeSection(ROOT, section, 'valuations')}`);
