/**
 * bench:alerts's visitors, added to the search benchmark's 50 websites and 100,000 cars (load.ts):
 * customers with alerts on, 100,000 saved searches and 10,000 saved cars, as the application
 * writes them (decisions 065 and 066), from fixed seeds.
 *
 * - alert_subscriptions: the row turnAlertsOn writes (consentWording of the website, the channel's
 *   address, the origin the visitor used); then startProgress per website, as the first
 *   subscriber's turnAlertsOn does, so the sweep reads changes from after the seed.
 * - saved_searches: path and query as saveSearch stores them: each href goes through resolveSearch
 *   (the search page's own parsing and canonical query) and is named by savedSearchName.
 *   What each resolves to (migration 0022) is stored afterwards by resolveStoredSearches, as a
 *   deployment backfills it (bench-alerts.ts: resolveSeededSearches).
 * - favourites: as saveCars writes them (the price when saved, notified_state = carAlertState), on
 *   listed cars; a fifth of them on each website's 50 most saved cars, so some cars have several savers.
 *
 * Rows go in with insertJson (one statement per 5,000 rows); the seed is recorded in
 * bench_alerts_meta so a stored database is reused.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { alertSubscriptions, customers, favourites, savedSearches } from '../../src/db/schema';
import { Random } from '@/demo/random';
import { slugify } from '@/lib/slug';
import { consentWording, startProgress } from '../../src/modules/alerts/alerts.consent';
import { resolveSearch, savedSearchName } from '../../src/modules/alerts/alerts.saved-searches';
import { carAlertState } from '../../src/modules/stock/stock.rules';
import { findTenantById } from '../../src/modules/tenancy/tenancy.queries';
import type { Tenant } from '../../src/modules/tenancy/tenancy.types';
import { insertJson, selectRows } from './load';

/** Bump whenever the seeded rows change: a stored database with another version is rebuilt. */
export const ALERTS_SEED_VERSION = 'alerts-2';
export const SAVED_SEARCHES = 100_000;
export const SAVED_CARS = 10_000;
export const CUSTOMERS_PER_WEBSITE = 800;
const META = 'bench_alerts_meta';
const DAY = 86_400_000;

type Log = (line: string) => void;
type ListedCar = { id: number; make: string; model: string; price: number; body: string | null; status: 'in_stock' | 'coming_soon'; reserved: boolean };

export async function alertsSeedVersion(db: Db): Promise<string | null> {
  const [exists] = await selectRows<{ present: boolean }>(db, sql`select to_regclass(${`public.${META}`}) is not null as present`);
  if (!exists?.present) return null;
  const [row] = await selectRows<{ version: string }>(db, sql.raw(`select version from ${META} limit 1`));
  return row?.version ?? null;
}

/** Where a visitor may have saved a search: the default listing, the used-car listing, new cars, and make/model landing pages. */
function hrefFor(rng: Random, car: ListedCar, other: ListedCar): string {
  const base = rng.weighted([
    ['/search/used-cars', 55],
    ['/search/new-used-and-demo-cars', 38],
    ['/search/new-cars', 7],
  ] as const);
  const budget = (factor: number) => Math.max(5_000, Math.round((car.price * factor) / 5_000) * 5_000);
  const q = (params: Record<string, string | string[]>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) for (const v of [value].flat()) search.append(key, v);
    return search.toString();
  };
  const kind = rng.weighted([
    ['make', 25],
    ['make and model', 22],
    ['make and price', 15],
    ['landing page', 10],
    ['two makes', 5],
    ['body and price', 10],
    ['price range', 5],
    ['year and km', 5],
    ['text', 3],
  ] as const);
  switch (kind) {
    case 'make':
      return `${base}?${q({ make: car.make })}`;
    case 'make and model':
      return `${base}?${q({ make: car.make, make_model: `${car.make}:${car.model}` })}`;
    case 'make and price':
      return `${base}?${q({ make: car.make, price_max: String(budget(1.15)) })}`;
    case 'landing page':
      // /search/used-cars/toyota[/hilux]: the pages search engines and links land on.
      return `/search/used-cars/${slugify(car.make)}${rng.chance(0.5) ? `/${slugify(car.model)}` : ''}${rng.chance(0.4) ? `?${q({ price_max: String(budget(1.2)) })}` : ''}`;
    case 'two makes':
      return `${base}?${q({ make: [car.make, other.make] })}`;
    case 'body and price':
      return car.body ? `${base}?${q({ simple_body: car.body, price_max: String(budget(1.2)) })}` : `${base}?${q({ price_max: String(budget(1.2)) })}`;
    case 'price range':
      return `${base}?${q({ price_min: String(budget(0.8)), price_max: String(budget(1.2)) })}`;
    case 'year and km':
      return `${base}?${q({ year_min: String(rng.int(2016, 2024)), km_max: String(rng.pick([30_000, 60_000, 100_000])) })}`;
    case 'text':
      return `${base}?${q({ q: car.model.toLowerCase() })}`;
  }
}

/** Adds the visitors to every website of the database (which must hold the search benchmark's data and nothing of this seed). */
export async function seedAlerts(db: Db, log: Log, now = new Date()): Promise<void> {
  const started = performance.now();
  const sites = await selectRows<{ id: number; url: string }>(db, sql`select id, url from websites order by id`);
  const customerRows: (typeof customers.$inferInsert)[] = [];
  const subscriptionRows: (typeof alertSubscriptions.$inferInsert)[] = [];
  const searchRows: (typeof savedSearches.$inferInsert)[] = [];
  const favouriteRows: (typeof favourites.$inferInsert)[] = [];
  const searchesPerSite = Math.ceil(SAVED_SEARCHES / sites.length);
  const carsPerSite = Math.ceil(SAVED_CARS / sites.length);
  let refusedHrefs = 0;
  for (const [index, site] of sites.entries()) {
    const websiteId = Number(site.id);
    const tenant = (await findTenantById(websiteId)) as Tenant;
    const rng = new Random(`bench:alerts:${websiteId}`);
    const listed = (
      await selectRows<ListedCar>(
        db,
        sql`select id, make, model, price, simple_body as body, status, reserved from cars
          where website_id = ${websiteId} and show_on_dealer_website and status in ('in_stock', 'coming_soon') order by id`,
      )
    ).map((car) => ({ ...car, id: Number(car.id) }));
    const popular = listed.slice(0, 50);
    const ids: string[] = [];
    for (let n = 0; n < CUSTOMERS_PER_WEBSITE; n++) {
      const id = crypto.randomUUID();
      ids.push(id);
      const phone = `+614${String(websiteId).padStart(2, '0')}${String(n).padStart(6, '0')}`;
      const email = `visitor${n}@site${websiteId}.example`;
      const consentedAt = new Date(now.getTime() - (1 + rng.float() * 90) * DAY);
      customerRows.push({ id, websiteId, phone, firstName: rng.pick(['Alex', 'Sam', 'Jo', 'Chris', 'Pat', 'Lee', null]), email, createdAt: consentedAt });
      const sms = rng.chance(0.15);
      // Half have never had a digest; the others had their last one up to two days ago (a quarter are not due yet).
      const lastDigestAt = rng.chance(0.5) ? null : new Date(now.getTime() - rng.float() * 2 * DAY);
      subscriptionRows.push({
        customerId: id,
        websiteId,
        channel: sms ? 'sms' : 'email',
        address: sms ? phone : email,
        instantPriceDrops: rng.chance(0.25),
        consentText: consentWording(tenant),
        consentedAt,
        origin: site.url,
        unsubscribedAt: null,
        lastDigestAt,
      });
    }
    // Saved searches: 1–5 per visitor (2.5 on average) until the website has its share; those after have saved cars only.
    let remaining = Math.min(searchesPerSite, SAVED_SEARCHES - index * searchesPerSite);
    // When the visitors' draws fall short of the share, further passes give some of them one more.
    const resolved = new Map<string, Awaited<ReturnType<typeof resolveSearch>>>();
    const savedBy = new Map<string, Set<string>>();
    for (let n = 0; n < ids.length * 4 && remaining > 0; n++) {
      const wanted = Math.min(remaining, n < ids.length ? rng.weighted([[1, 30], [2, 25], [3, 20], [4, 15], [5, 10]] as const) : 1);
      const customerId = ids[n % ids.length];
      const mine = savedBy.get(customerId) ?? new Set<string>();
      savedBy.set(customerId, mine);
      const had = mine.size;
      for (let attempt = 0; mine.size < had + wanted && attempt < wanted * 5; attempt++) {
        const href = hrefFor(rng, rng.pick(listed), rng.pick(listed));
        if (!resolved.has(href)) resolved.set(href, await resolveSearch(tenant, href));
        const search = resolved.get(href);
        if (!search) {
          refusedHrefs += 1;
          continue;
        }
        const key = `${search.path}?${search.query}`;
        if (mine.has(key)) continue;
        mine.add(key);
        const createdAt = new Date(now.getTime() - (0.5 + rng.float() * 60) * DAY);
        searchRows.push({
          websiteId,
          customerId,
          name: savedSearchName(search.listing, search.state, tenant.config),
          path: search.path,
          query: search.query,
          paused: rng.chance(0.02),
          lastSeenAt: createdAt,
          createdAt,
        });
      }
      remaining -= mine.size - had;
    }
    // Saved cars: on listed cars, a fifth on the website's 50 most saved.
    const saved = new Set<string>();
    const siteCars = Math.min(carsPerSite, SAVED_CARS - index * carsPerSite);
    for (let n = 0; saved.size < siteCars && n < siteCars * 10; n++) {
      const customerId = rng.pick(ids);
      const car = rng.chance(0.2) ? rng.pick(popular) : rng.pick(listed);
      if (saved.has(`${customerId}:${car.id}`)) continue;
      saved.add(`${customerId}:${car.id}`);
      favouriteRows.push({
        websiteId,
        customerId,
        carId: car.id,
        savedPrice: car.price,
        notifiedState: carAlertState({ status: car.status, reserved: car.reserved, showOnDealerWebsite: true }),
        createdAt: new Date(now.getTime() - (0.5 + rng.float() * 60) * DAY),
      });
    }
  }
  log(
    `  generated ${customerRows.length.toLocaleString('en-AU')} customers, ${searchRows.length.toLocaleString('en-AU')} saved searches ` +
      `(${refusedHrefs} hrefs refused by resolveSearch), ${favouriteRows.length.toLocaleString('en-AU')} saved cars in ${((performance.now() - started) / 1000).toFixed(1)} s; writing…`,
  );
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await insertJson(t, customers, 'customers', customerRows);
    await insertJson(t, alertSubscriptions, 'alert_subscriptions', subscriptionRows);
    await insertJson(t, savedSearches, 'saved_searches', searchRows);
    await insertJson(t, favourites, 'favourites', favouriteRows);
  });
  for (const site of sites) await startProgress(Number(site.id));
  await db.execute(sql.raw(`create table if not exists ${META} (version text not null, built_at timestamptz not null default now())`));
  await db.execute(sql`insert into ${sql.raw(META)} (version) values (${ALERTS_SEED_VERSION})`);
  await db.execute(sql.raw('vacuum analyze'));
  log(`  visitors written in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}
