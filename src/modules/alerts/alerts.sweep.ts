import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { carAlertState, matchCars, type CarStatus } from '@/modules/stock/server';
import { makesOf, resolveSearch, storedResolution, storeResolutions, type ListingCache } from './alerts.saved-searches';
import type { AlertKind, ResolvedFilters } from './alerts.schema';

/**
 * Finds what visitors with alerts on are to be told (decision 066), from the stock changes the
 * database already records: `car_changes` (the cars each car generation touched, decision 020)
 * and `car_price_changes` (decision 064), read per website from the generation `alert_progress`
 * holds. Each fact about a saved car is written once into alert_items (unique customer and source),
 * and each new car a search finds once into alert_matches (unique search and car), so sweeps that
 * overlap, in one process or several, find nothing twice. Sending is alerts.digest.ts's.
 */

/** `car_changes` keeps a website's last 20 generations (migration 0007). */
const GENERATIONS_KEPT = 20;
/** Reads reach this far before the last sweep, for changes committed late by a long transaction. */
export const OVERLAP_MS = 10 * 60_000;

/** `websiteGeneration`: the website's generation now (website_generations), which saved searches' resolutions are kept under. */
type Progress = { websiteId: number; generation: number; sweptAt: Date; current: number; websiteGeneration: string };
type Found = { customerId: string; kind: AlertKind; carId: number; oldPrice?: number; newPrice?: number; source: string };

export type SweepFigures = { websites: number; changedCars: number; found: number };

/** `now`: what the search engine counts as listed (a sold car's days on the website); the windows read the database's clock. */
export async function findAlerts(now = new Date()): Promise<SweepFigures> {
  const db = await getDb();
  const websites = rowsOf<{ websiteId: number; generation: string; sweptAt: Date | string; current: string | null; websiteGeneration: string }>(
    await db.execute(sql`
      select p.website_id as "websiteId", p.generation, p.swept_at as "sweptAt", g.generation as current, coalesce(wg.generation, 0)::text as "websiteGeneration"
      from alert_progress p left join car_generations g on g.website_id = p.website_id left join website_generations wg on wg.website_id = p.website_id
      where exists (select 1 from alert_subscriptions s where s.website_id = p.website_id and s.unsubscribed_at is null)`),
  ).map((row): Progress => ({ websiteId: row.websiteId, generation: Number(row.generation), sweptAt: new Date(row.sweptAt), current: Number(row.current ?? 0), websiteGeneration: row.websiteGeneration }));
  const figures: SweepFigures = { websites: 0, changedCars: 0, found: 0 };
  for (const progress of websites) {
    if (progress.current <= progress.generation) continue;
    const tenant = await findTenantById(progress.websiteId);
    if (!tenant) continue;
    const changed = await changedCars(progress);
    const found = changed.length ? [...(await priceDrops(progress, changed)), ...(await stateChanges(progress, changed))] : [];
    figures.found += await record(progress.websiteId, found);
    figures.found += await advance(progress, changed.length ? await newStock(tenant, progress, changed, now) : []);
    figures.websites += 1;
    figures.changedCars += changed.length;
  }
  return figures;
}

type Match = { path: string; query: string; car_id: number };

/**
 * Moves the website's progress on to the generation read, and records the new stock found with
 * that generation, in one statement (so in one transaction): a digest that reads the progress at a
 * generation finds every match of that generation and before already written (decision 070). A
 * sweep that finds the progress moved by another (their reads overlap) records nothing; the matches
 * recorded: the number of searches × cars.
 */
async function advance(progress: Progress, matches: Match[]): Promise<number> {
  const db = await getDb();
  const [{ recorded }] = rowsOf<{ recorded: number }>(
    await db.execute(sql`
      with moved as (
        -- The database's clock, as every time the windows compare with (changed_at, created_at).
        update alert_progress set generation = ${progress.current}, swept_at = now()
        where website_id = ${progress.websiteId} and generation = ${progress.generation}
        returning 1
      ), inserted as (
        insert into alert_matches (website_id, path, query, car_id, generation)
        select ${progress.websiteId}, m.path, m.query, m.car_id, ${progress.current}
        from jsonb_to_recordset(${JSON.stringify(matches)}::jsonb) as m(path text, query text, car_id int)
        where exists (select 1 from moved)
        on conflict do nothing
        returning 1
      )
      select count(*)::int as recorded from inserted`),
  );
  return recorded;
}

/** The cars the website's generations after the cursor touched; all cars touched since the last sweep when car_changes no longer reaches back that far. */
async function changedCars(progress: Progress): Promise<number[]> {
  const db = await getDb();
  const since = new Date(progress.sweptAt.getTime() - OVERLAP_MS);
  const complete = progress.generation >= progress.current - GENERATIONS_KEPT;
  const rows = rowsOf<{ id: number }>(
    await db.execute(
      complete
        ? sql`select distinct car_id as id from car_changes where website_id = ${progress.websiteId} and generation > ${progress.generation} and generation <= ${progress.current}`
        : sql`select id from cars where website_id = ${progress.websiteId} and (updated_at >= ${since} or created_at >= ${since})`,
    ),
  );
  return rows.map((row) => Number(row.id));
}

const idList = (ids: number[]) => sql`(${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`;

/** Price reductions of changed cars that visitors with alerts on saved, made after they saved the car and agreed to alerts. */
async function priceDrops(progress: Progress, changed: number[]): Promise<Found[]> {
  const db = await getDb();
  const rows = rowsOf<{ customerId: string; carId: number; id: string; oldPrice: number; newPrice: number }>(
    await db.execute(sql`
      select f.customer_id as "customerId", pc.car_id as "carId", pc.id, pc.old_price as "oldPrice", pc.new_price as "newPrice"
      from car_price_changes pc
      join favourites f on f.website_id = pc.website_id and f.car_id = pc.car_id
      join alert_subscriptions s on s.customer_id = f.customer_id and s.website_id = pc.website_id and s.unsubscribed_at is null
      where pc.website_id = ${progress.websiteId} and pc.car_id in ${idList(changed)} and pc.new_price < pc.old_price
        and pc.changed_at >= ${new Date(progress.sweptAt.getTime() - OVERLAP_MS)} and pc.changed_at > f.created_at and pc.changed_at > s.consented_at`),
  );
  return rows.map((row) => ({ customerId: row.customerId, kind: 'price_drop', carId: Number(row.carId), oldPrice: row.oldPrice, newPrice: row.newPrice, source: `price:${row.id}` }));
}

const KIND_OF_STATE = { sold: 'sold', reserved: 'reserved', available: 'back_in_stock' } as const;

/**
 * Saved cars whose state (carAlertState) is no longer the one their visitor was last told of:
 * sold, reserved, or back in stock. Every saver's remembered state moves on, told or not (a
 * visitor without alerts who turns them on later hears only of what happens after).
 */
async function stateChanges(progress: Progress, changed: number[]): Promise<Found[]> {
  const db = await getDb();
  const rows = rowsOf<{ favouriteId: number; customerId: string; carId: number; notified: string | null; status: CarStatus; reserved: boolean; shown: boolean; alertsOn: boolean }>(
    await db.execute(sql`
      select f.id as "favouriteId", f.customer_id as "customerId", f.car_id as "carId", f.notified_state as notified,
        c.status, c.reserved, c.show_on_dealer_website as shown,
        exists (select 1 from alert_subscriptions s where s.customer_id = f.customer_id and s.unsubscribed_at is null) as "alertsOn"
      from favourites f join cars c on c.website_id = f.website_id and c.id = f.car_id
      where f.website_id = ${progress.websiteId} and f.car_id in ${idList(changed)}`),
  );
  const found: Found[] = [];
  const moved: { id: number; state: string }[] = [];
  for (const row of rows) {
    const state = carAlertState({ status: row.status, reserved: row.reserved, showOnDealerWebsite: row.shown });
    if (!state || state === (row.notified ?? 'available')) continue;
    if (row.alertsOn) found.push({ customerId: row.customerId, kind: KIND_OF_STATE[state], carId: Number(row.carId), source: `state:${row.carId}:${state}:${progress.current}` });
    moved.push({ id: Number(row.favouriteId), state });
  }
  if (moved.length > 0) {
    await db.execute(sql`update favourites f set notified_state = v.state
      from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as v(id int, state text) where f.id = v.id`);
  }
  return found;
}

type StoredSearch = { path: string; query: string; current: boolean; resolved: ResolvedFilters | null };

/**
 * Listed cars created since the last sweep, matched with the website's active saved searches of
 * visitors with alerts on. The same search saved by many visitors is one search, and its matches
 * are recorded once (alert_matches; each visitor's digest reads those of their searches, for cars
 * listed after they saved the search, decision 070). Each search keeps what its page resolves to
 * (saved_searches.resolved, under the website generation it was resolved at) and the makes it
 * names: only the distinct searches of the new cars' makes and those of any make are read (the
 * index by make), and only those resolved under another website generation are resolved again (and
 * stored). Then the stock index tests the new cars alone against each distinct search (matchCars,
 * the search engine's own conditions).
 */
async function newStock(tenant: Tenant, progress: Progress, changed: number[], now: Date): Promise<Match[]> {
  const db = await getDb();
  const fresh = rowsOf<{ id: number; make: string }>(
    await db.execute(sql`
      select id, make from cars
      where website_id = ${progress.websiteId} and id in ${idList(changed)} and created_at >= ${new Date(progress.sweptAt.getTime() - OVERLAP_MS)}`),
  ).map((row) => ({ id: Number(row.id), make: row.make.toLowerCase() }));
  if (fresh.length === 0) return [];
  const freshMakes = [...new Set(fresh.map((car) => car.make))];
  const generation = progress.websiteGeneration;
  const stored = rowsOf<StoredSearch>(
    await db.execute(sql`
      select ss.path, ss.query, bool_and(ss.resolved_generation is not distinct from ${generation}) as current,
        (array_agg(ss.resolved) filter (where ss.resolved_generation = ${generation}))[1] as resolved
      from saved_searches ss join alert_subscriptions s on s.customer_id = ss.customer_id and s.website_id = ${progress.websiteId} and s.unsubscribed_at is null
      where ss.website_id = ${progress.websiteId} and not ss.paused
        and (ss.resolved_generation is distinct from ${generation} or ss.makes = '{}' or ss.makes && ${`{${freshMakes.map((make) => JSON.stringify(make)).join(',')}}`}::text[])
      group by ss.path, ss.query`),
  );
  if (stored.length === 0) return [];
  const searches: { path: string; query: string; resolved: ResolvedFilters }[] = [];
  const listings: ListingCache = new Map();
  const again: { path: string; query: string; resolved: ResolvedFilters; makes: string[] }[] = [];
  for (const search of stored) {
    let resolved = search.current ? search.resolved : null;
    let makes = resolved ? makesOf(resolved.filters) : [];
    if (!resolved) {
      const found = await resolveSearch(tenant, search.query ? `${search.path}?${search.query}` : search.path, listings);
      // Not a search page now (a landing path of a make no longer in stock): tried again next sweep.
      if (!found) continue;
      ({ resolved, makes } = storedResolution(found, tenant));
      again.push({ path: search.path, query: search.query, resolved, makes });
    }
    if (makes.length > 0 && !makes.some((make) => freshMakes.includes(make))) continue;
    searches.push({ path: search.path, query: search.query, resolved });
  }
  await storeResolutions(progress.websiteId, generation, again);
  const matched = await matchCars(tenant, searches.map((search) => search.resolved), fresh.map((car) => car.id), now);
  return searches.flatMap((search, k) => matched[k].map((carId) => ({ path: search.path, query: search.query, car_id: carId })));
}

async function record(websiteId: number, found: Found[]): Promise<number> {
  if (found.length === 0) return 0;
  const db = await getDb();
  let recorded = 0;
  for (let i = 0; i < found.length; i += 500) {
    const chunk = found.slice(i, i + 500);
    const values = sql.join(
      chunk.map((f) => sql`(${websiteId}, ${f.customerId}::uuid, ${f.kind}, ${f.carId}, ${f.oldPrice ?? null}::int, ${f.newPrice ?? null}::int, ${f.source})`),
      sql`, `,
    );
    const inserted = rowsOf<{ id: string }>(
      await db.execute(sql`insert into alert_items (website_id, customer_id, kind, car_id, old_price, new_price, source)
        values ${values} on conflict (customer_id, source) do nothing returning id`),
    );
    recorded += inserted.length;
  }
  return recorded;
}
