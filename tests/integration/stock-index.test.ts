import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import type { DatabaseHandle } from '@/db/client';
import { heldGenerationsOf } from '@/modules/tenancy/tenancy.generations';
import { useTestDatabase } from '../support/database';
import { dealerships, websites, carGenerations } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { carImages, cars } from '@/modules/stock/stock.schema';
import { SqlSearchEngine } from '@/modules/stock/search/sql-search-engine';
import { websiteGeneration } from '@/modules/tenancy/tenancy.memo';
import { SORT_OPTIONS } from '@/modules/tenancy/tenancy.config';
import { FACETS, type SearchFilters, type SearchRequest, type SearchResponse, type SearchScope, type SortOption } from '@/modules/stock/search/search.types';

/**
 * The stock index (decision 020) against the SQL statement it stands in for: the same searches,
 * drawn at random over varied stock on three websites, must give the same hits in the same order,
 * the same totals, facet counts and ranges. And a change to the cars shows in the very next search.
 */

const DAY = 86_400_000;
const NOW = new Date();

/** A small seeded generator, so a failure can be run again. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(list: readonly T[]): T => list[int(list.length)];
  const some = <T,>(list: readonly T[], max: number): T[] => [...new Set(Array.from({ length: 1 + int(max) }, () => pick(list)))];
  return { next, int, pick, some };
}

const MODELS: Record<string, string[]> = {
  Toyota: ['HiLux', 'Corolla', 'RAV4'],
  Mazda: ['CX-5', 'CX-3', 'BT-50'],
  Kia: ['Rio', 'Sportage'],
  ŠKODA: ['Octavia', 'Kodiaq'],
  Ford: ['Ranger', 'Ranger:Raptor'],
};
const MAKES = Object.keys(MODELS);
const BODIES = ['SUV', 'Ute', 'Hatchback', 'Sedan', null];
const COLOURS = ['White', 'Black', 'Red', "O'Brien Blue", null];
const TRANSMISSIONS = ['Automatic', 'Manual', null];
const DRIVES = ['4x4', 'FWD', 'AWD', null];
const FUELS = ['Petrol', 'Diesel', 'Hybrid', 'Electric', null];
const CITIES = ['Bathurst', 'cowra', 'Orange', null];
const TAGS = ['Special', null, null];
const STATUSES = ['in_stock', 'in_stock', 'in_stock', 'coming_soon', 'sold', 'sold'] as const;
const LOCATION_NAMES = ['North Yard', 'South Yard', 'North Yard'];

describe('stock index', () => {
  let handle: DatabaseHandle;
  let db: Db;
  let indexed: SqlSearchEngine;
  let inSql: SqlSearchEngine;
  const websiteIds: number[] = [];
  const carIds: number[] = [];

  beforeAll(async () => {
    handle = await useTestDatabase();
    ({ db } = handle);
    indexed = new SqlSearchEngine(db);
    inSql = new SqlSearchEngine(db, { stockIndexCars: 0 });
    const r = random(20261121);
    for (const slug of ['index-a', 'index-b', 'index-c']) {
      const [site] = await db.insert(websites).values({ slug, name: slug, config: {} }).returning();
      websiteIds.push(site.id);
      const dealers = await db
        .insert(dealerships)
        .values(['Harbour Dealer', 'Bay Dealer'].map((name, i) => ({ websiteId: site.id, slug: `${slug}-d${i}`, name })))
        .returning();
      const yards = await db
        .insert(locations)
        .values(LOCATION_NAMES.map((name, i) => ({ websiteId: site.id, dealershipId: dealers[i % 2].id, name, slug: `${slug}-l${i}`, city: 'Sydney' })))
        .returning();
      const rows = Array.from({ length: 160 }, (_, i) => {
        const make = r.pick(MAKES);
        const status = r.pick(STATUSES);
        return {
          websiteId: site.id,
          dealershipId: r.pick(dealers).id,
          locationId: r.next() < 0.15 ? null : r.pick(yards).id,
          slug: `${slug}-${i}`,
          name: `Car ${i}`,
          make,
          model: r.pick(MODELS[make]),
          year: 2010 + r.int(16),
          km: r.int(20) * 10_000,
          // Some 'Enquire for price.' cars (10 or less) and many equal prices, to test the order of ties.
          price: r.next() < 0.1 ? r.int(11) : 5_000 + r.int(30) * 2_500,
          subscriptionPrice: r.next() < 0.5 ? null : 100 + r.int(10) * 10,
          carType: r.pick(['used', 'new', 'demo'] as const),
          status,
          soldDate: status === 'sold' ? (r.next() < 0.2 ? null : new Date(NOW.getTime() - r.int(10) * DAY)) : null,
          showOnDealerWebsite: r.next() > 0.05,
          photosCount: r.int(8),
          customRank: r.int(3),
          // Whole seconds, so that many cars share a created_at and the order falls to the id.
          createdAt: new Date(Math.floor(NOW.getTime() / 1000) * 1000 - r.int(40) * DAY - r.int(3) * 1000),
          colour: r.pick(COLOURS),
          simpleBody: r.pick(BODIES),
          simpleTransmission: r.pick(TRANSMISSIONS),
          simpleDrive: r.pick(DRIVES),
          simpleFuel: r.pick(FUELS),
          city: r.pick(CITIES),
          certified: r.next() < 0.3,
          tag: r.pick(TAGS),
          badge: r.pick(['SR5', 'GX', 'Sport', 'Sports', null]),
          stocknum: `${slug.slice(-1).toUpperCase()}K${1000 + i}`,
          vin: r.next() < 0.3 ? `JT${100000 + i}X` : null,
        } satisfies typeof cars.$inferInsert;
      });
      const inserted = await db.insert(cars).values(rows).returning({ id: cars.id });
      carIds.push(...inserted.map((row) => row.id));
    }
  });

  /**
   * Statements sent while `run` runs, on either driver: PGlite's query and exec, or a pool's query
   * and its connections' (the prepared statements run on a connection of their own).
   */
  const statementsDuring = async (run: () => Promise<unknown>) => {
    const sent = { count: 0 };
    type Client = Record<string, (...args: unknown[]) => unknown>;
    const client = (db as unknown as { $client: Client }).$client;
    const counting = (target: Client, name: string) => {
      const original = target[name];
      target[name] = (...args: unknown[]) => (sent.count++, original.apply(target, args));
      return () => void (target[name] = original);
    };
    const restore = ['query', 'exec'].filter((name) => typeof client[name] === 'function').map((name) => counting(client, name));
    if (typeof client.connect === 'function') {
      const connect = client.connect;
      const watch = (connection: Client) => {
        const release = connection.release;
        const undo = counting(connection, 'query');
        connection.release = (...releaseArgs: unknown[]) => (undo(), (connection.release = release), release.apply(connection, releaseArgs));
        return connection;
      };
      // pg's Pool calls connect with a callback itself (pool.query); callers outside use the promise.
      client.connect = (...args: unknown[]) => {
        const callback = args[0];
        if (typeof callback !== 'function') return (connect.apply(client, args) as Promise<Client>).then(watch);
        return connect.call(client, (error: unknown, connection: Client | undefined, done: unknown) =>
          callback(error, connection && !error ? watch(connection) : connection, done),
        );
      };
      restore.push(() => void (client.connect = connect));
    }
    try {
      await run();
    } finally {
      for (const undo of restore) undo();
    }
    return sent.count;
  };
  function randomSearch(seed: number): { scope: SearchScope; request: SearchRequest } {
    const r = random(seed);
    const scope: SearchScope = {
      // One, two or three websites.
      websiteIds: r.next() < 0.4 ? websiteIds : r.next() < 0.5 ? websiteIds.filter((id) => id !== r.pick(websiteIds)) : [r.pick(websiteIds)],
      soldSince: r.next() < 0.2 ? null : new Date(NOW.getTime() - r.int(6) * DAY),
      minPhotos: r.next() < 0.3 ? r.int(5) : null,
      cities: r.next() < 0.2 ? r.some(['BATHURST', 'Cowra', 'Orange'], 2) : [],
      makes: r.next() < 0.15 ? r.some(['toyota', 'MAZDA', 'Kia'], 2) : [],
      defaultSort: 'custom_rank:desc',
    };
    const filters: SearchFilters = {};
    const choices: Array<() => void> = [
      () => (filters.make = r.some([...MAKES, 'Holden'], 2)),
      () => {
        const make = r.pick(MAKES);
        filters.make_model = [`${make}:${r.pick(MODELS[make])}`, ...(r.next() < 0.3 ? ['Ford:Ranger:Raptor', 'NoModel'] : [])];
      },
      () => (filters.simple_body = r.some(['SUV', 'Ute', 'Hatchback', '"SUV"'], 2)),
      () => (filters.colour = r.some(['White', 'Red', "O'Brien Blue"], 2)),
      () => (filters.location_name = r.some(['North Yard', 'South Yard', 'Nowhere'], 2)),
      () => (filters.dealership_name = r.some(['Harbour Dealer', 'Bay Dealer'], 1)),
      () => (filters.certified = r.some(['true', 'false', 'yes'], 2)),
      () => (filters.car_type = r.some(['used', 'new', 'demo'], 2)),
      () => (filters.simple_fuel = r.some(['Hybrid', 'Electric', 'Diesel'], 2)),
      () => (filters.status = r.some(['in_stock', 'sold', 'coming_soon'], 2)),
      () => (filters.city = r.some(['Bathurst', 'cowra'], 1)),
      () => (filters.tag = ['Special']),
      () => (filters.price = { min: r.next() < 0.7 ? r.int(40_000) : undefined, max: r.next() < 0.7 ? 20_000 + r.int(60_000) : undefined }),
      () => (filters.km = { min: r.int(50_000), max: 50_000 + r.int(150_000) }),
      () => (filters.year = { min: 2010 + r.int(8) }),
      () => (filters.subscription_price = { max: 100 + r.int(100) }),
      () => (filters.created_at_timestamp = { min: NOW.getTime() - r.int(40) * DAY }),
    ];
    // Sometimes none: searches without filters across websites are counted by the index too.
    const count = r.int(5);
    for (let i = 0; i < count; i++) r.pick(choices)();
    // Text: substrings, misspellings (5+ letters are matched fuzzily), stock numbers and VINs (whole
    // words: 'k100' is in no stock number as a word). 'sports' finds Sports as written before Sport.
    const q =
      r.next() < 0.4
        ? r.pick(['toyta', 'corola hilux', 'hilux', 'rangr', 'cx', 'gx sr5', 'raptor', 'octavia', 'koda', 'sportag', 'red', "o'brien", 'black toyota', 'ak1003', 'ck1150 mazda', 'k10', 'jt100002x', 'nothing', 'k100', 'ck115', 'sports', 'sports toyota'])
        : undefined;
    const limit = r.pick([0, 1, 5, 24]);
    return {
      scope,
      request: {
        q,
        filters,
        facets: FACETS,
        sort: r.next() < 0.2 ? undefined : (r.pick(SORT_OPTIONS) as SortOption),
        limit,
        offset: r.next() < 0.7 ? 0 : r.int(60),
      },
    };
  }

  const comparable = (response: SearchResponse) => ({
    ids: response.hits.map((hit) => hit.id),
    hits: response.hits,
    total: response.estimatedTotalHits,
    facets: response.facetDistribution,
    stats: response.facetStats,
  });

  async function expectSameAnswers(seeds: number[]) {
    for (const seed of seeds) {
      const { scope, request } = randomSearch(seed);
      const [fromIndex, fromSql] = await Promise.all([indexed.search(scope, request), inSql.search(scope, request)]);
      expect(comparable(fromIndex), `search ${seed}: ${JSON.stringify({ scope, request })}`).toEqual(comparable(fromSql));
    }
  }

  it('answers 300 random searches (filters, text, sorts, pages) exactly as the SQL statements do', async () => {
    await expectSameAnswers(Array.from({ length: 300 }, (_, i) => i + 1));
    // 300 searches through the SQL statements: about 20 s alone, over 30 s on a loaded machine.
  }, 120_000);

  it('finds cars on every website it is asked about, and on no other', async () => {
    const request: SearchRequest = { filters: { make: MAKES }, facets: FACETS, limit: 1000, offset: 0 };
    const scope = (ids: number[]): SearchScope => ({ websiteIds: ids, soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' });
    const all = await indexed.search(scope(websiteIds), request);
    const one = await indexed.search(scope([websiteIds[1]]), request);
    const owners = await db.select({ id: cars.id, websiteId: cars.websiteId }).from(cars);
    const ownerOf = new Map(owners.map((row) => [row.id, row.websiteId]));
    expect(new Set(all.hits.map((hit) => ownerOf.get(hit.id)))).toEqual(new Set(websiteIds));
    expect(one.hits.length).toBeGreaterThan(0);
    expect(one.hits.every((hit) => ownerOf.get(hit.id) === websiteIds[1])).toBe(true);
    expect(one.estimatedTotalHits).toBeLessThan(all.estimatedTotalHits);
  });

  /** Every sort across all websites, whole pages: the index's orders (kept per copy) against SQL. */
  async function expectSameOrders() {
    const scope: SearchScope = { websiteIds, soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' };
    for (const sort of SORT_OPTIONS) {
      const request: SearchRequest = { sort, limit: 500, offset: 0 };
      const [fromIndex, fromSql] = await Promise.all([indexed.search(scope, request), inSql.search(scope, request)]);
      expect(fromIndex.hits.map((hit) => hit.id), sort).toEqual(fromSql.hits.map((hit) => hit.id));
    }
  }

  it('shows every change to the cars in the very next search', async () => {
    const seeds = [7, 8, 9, 10, 11, 12];
    await expectSameAnswers(seeds); // loads the websites
    await expectSameOrders(); // and sorts them every way, so the changed copies take those orders over
    const [first, second, third] = carIds;
    await db.update(cars).set({ price: 12_345, make: 'Kia', model: 'Rio', simpleBody: 'SUV' }).where(eq(cars.id, first));
    await db.update(cars).set({ status: 'sold', soldDate: NOW }).where(eq(cars.id, second));
    await db.update(cars).set({ showOnDealerWebsite: false }).where(eq(cars.id, third));
    await db.delete(cars).where(eq(cars.id, carIds[3]));
    await db.execute(sql`update ${cars} set ${sql.identifier('colour')} = 'Red' where ${cars.websiteId} = ${websiteIds[2]}`);
    const [template] = await db.select().from(cars).where(eq(cars.id, carIds[5]));
    await db.insert(cars).values({ ...template, id: undefined, slug: 'index-new-car', status: 'in_stock', showOnDealerWebsite: true, make: 'Ford', model: 'Ranger' });
    await expectSameAnswers(seeds);
    await expectSameOrders();
    await expectSameAnswers(Array.from({ length: 40 }, (_, i) => 1000 + i));
  });

  it('finds stock numbers by looking their words up, as the SQL statement finds them, across websites and after changes', async () => {
    const [onA] = await db.select().from(cars).where(eq(cars.id, carIds[10]));
    const [onB] = await db.select().from(cars).where(eq(cars.id, carIds[170]));
    const copy = (template: typeof onA, slug: string, stocknum: string, vin: string | null = null) => ({
      ...template,
      id: undefined,
      slug,
      stocknum,
      vin,
      status: 'in_stock' as const,
      soldDate: null,
      showOnDealerWebsite: true,
      photosCount: 5,
    });
    // A stock number two dealers share (and one dealer uses twice), one with a VIN that is a stock-number-like word too.
    const added = await db
      .insert(cars)
      .values([copy(onA, 'dup-a1', 'DUP123', 'XK777'), copy(onA, 'dup-a2', 'DUP123'), copy(onB, 'dup-b1', 'DUP123'), copy(onB, 'solo-b', 'SOLO9001')])
      .returning({ id: cars.id });
    const scopes: SearchScope[] = [websiteIds, [websiteIds[0]], [websiteIds[1]], [websiteIds[2]]].map((ids) => ({
      websiteIds: ids,
      soldSince: new Date(NOW.getTime() - 3 * DAY),
      minPhotos: null,
      cities: [],
      makes: [],
      defaultSort: 'custom_rank:desc',
    }));
    const queries = ['dup123', 'DUP123', ' dup123  ', 'dup123 xk777', 'xk777', 'dup123 solo9001', 'dup123 toyota', 'dup123 toyta', 'dup12', 'up123', 'solo9001', 'ak1003'];
    const expectSame = async (label: string) => {
      for (const scope of scopes) {
        for (const q of queries) {
          const request: SearchRequest = { q, facets: FACETS, limit: 24, offset: 0 };
          const [fromIndex, fromSql] = await Promise.all([indexed.search(scope, request), inSql.search(scope, request)]);
          expect(comparable(fromIndex), `${label}: '${q}' on ${scope.websiteIds.join()}`).toEqual(comparable(fromSql));
        }
      }
    };
    await expectSame('added');
    const all = scopes[0];
    expect((await indexed.search(all, { q: 'DUP123', limit: 24, offset: 0 })).estimatedTotalHits).toBe(3);
    expect((await indexed.search(all, { q: 'dup123 xk777', limit: 24, offset: 0 })).hits.map((hit) => hit.slug)).toEqual(['dup-a1']);
    // 'up123' is stock-number-like, so it must be a whole word; 'dup12' (two digits) is a substring.
    expect((await indexed.search(all, { q: 'up123', limit: 24, offset: 0 })).estimatedTotalHits).toBe(0);
    expect((await indexed.search(all, { q: 'dup12', limit: 24, offset: 0 })).estimatedTotalHits).toBe(3);

    // Renumbered, hidden, deleted: the next search looks the words up in the changed copies.
    await db.update(cars).set({ stocknum: 'NEW456' }).where(eq(cars.id, added[1].id));
    await db.update(cars).set({ showOnDealerWebsite: false }).where(eq(cars.id, added[2].id));
    await db.delete(cars).where(eq(cars.id, added[3].id));
    queries.push('new456');
    await expectSame('changed');
    expect((await indexed.search(all, { q: 'dup123', limit: 24, offset: 0 })).hits.map((hit) => hit.slug)).toEqual(['dup-a1']);
    expect((await indexed.search(all, { q: 'new456', limit: 24, offset: 0 })).hits.map((hit) => hit.slug)).toEqual(['dup-a2']);
    expect((await indexed.search(all, { q: 'solo9001', limit: 24, offset: 0 })).estimatedTotalHits).toBe(0);
  });

  it('loads a website whole when it is further behind than the change log reaches', async () => {
    const seeds = [21, 22, 23];
    await expectSameAnswers(seeds);
    const websiteCars = await db.select({ id: cars.id }).from(cars).where(eq(cars.websiteId, websiteIds[0]));
    // 25 changes, one statement each: more generations than car_changes keeps (20).
    for (const [k, car] of websiteCars.slice(0, 25).entries()) await db.update(cars).set({ price: 1_000 + k, showOnDealerWebsite: true }).where(eq(cars.id, car.id));
    const log = (await db.execute(sql`select min(generation) as kept from car_changes where website_id = ${websiteIds[0]}`)) as unknown as { rows: { kept: number | string }[] };
    const kept = log.rows[0].kept;
    const [{ generation }] = await db.select({ generation: carGenerations.generation }).from(carGenerations).where(eq(carGenerations.websiteId, websiteIds[0]));
    expect(Number(generation) - Number(kept)).toBe(19);
    await expectSameAnswers(seeds);
  });

  it('shows a page again from the cards it has shown while the website generation holds, and every change in the next search', async () => {
    const withCards = new SqlSearchEngine(db);
    const site = websiteIds[1];
    // As a page render does: the website generation read first, then the search.
    const search = async (seed: number) => {
      const { request } = randomSearch(seed);
      const scope: SearchScope = { websiteIds: [site], soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' };
      await websiteGeneration(site);
      const fromCards = await withCards.search(scope, request);
      expect(comparable(fromCards), `search ${seed}`).toEqual(comparable(await inSql.search(scope, request)));
    };
    const seeds = Array.from({ length: 30 }, (_, i) => 3000 + i);
    for (const seed of seeds) await search(seed);
    const generationReads = await statementsDuring(() => websiteGeneration(site).then(() => undefined));
    const firstPage = async () => {
      await websiteGeneration(site);
      await withCards.search(
        { websiteIds: [site], soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' },
        { facets: FACETS, limit: 24, offset: 0 },
      );
    };
    await firstPage();
    // The test's generation read and the copy's check of the generations; the page from the copy, no statement.
    expect(await statementsDuring(firstPage)).toBe(generationReads + 1);

    // A car's price changes (its car generation moves, the website generation does not), then a
    // location's name (the website generation covers locations): each shows in the next search.
    const everyCar = async () => {
      await websiteGeneration(site);
      return (
        await withCards.search(
          { websiteIds: [site], soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' },
          { facets: FACETS, limit: 500, offset: 0 },
        )
      ).hits;
    };
    const shownCar = (await everyCar())[0];
    await db.update(cars).set({ price: 54_321 }).where(eq(cars.id, shownCar.id));
    expect((await everyCar()).find((hit) => hit.id === shownCar.id)?.price).toBe(54_321);
    await db.update(locations).set({ name: 'East Yard' }).where(eq(locations.websiteId, site));
    // Outside a render the process learns the new website generation by notification or its poll:
    // within decision 055's bound of 1 s.
    await expect
      .poll(async () => new Set((await everyCar()).flatMap((hit) => (hit.location ? [hit.location.name] : []))), { timeout: 1_000, interval: 50 })
      .toEqual(new Set(['East Yard']));
    for (const seed of seeds) await search(seed);
  });

  it('answers a stock number across websites in one statement, the generations read, and a renumbered car in the next search', async () => {
    // Decision 072: the copies are checked against one read of the generations, and the page is
    // made from them; a copy found behind is brought up to date by one more statement.
    const engine = new SqlSearchEngine(db);
    const scope: SearchScope = { websiteIds, soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' };
    const [car] = await db.select({ id: cars.id }).from(cars).where(eq(cars.id, carIds[42]));
    await db.update(cars).set({ stocknum: 'LOOK4242', status: 'in_stock', showOnDealerWebsite: true, photosCount: 5 }).where(eq(cars.id, car.id));
    await engine.search(scope, { q: 'look4242', limit: 24, offset: 0 });
    const inSqlStatement = vi.spyOn(engine as unknown as { counted: () => Promise<unknown> }, 'counted');
    try {
      let found: SearchResponse | undefined;
      expect(await statementsDuring(async () => (found = await engine.search(scope, { q: 'LOOK4242', facets: FACETS, limit: 24, offset: 0 })))).toBe(1);
      expect(found!.hits.map((hit) => hit.id)).toEqual([car.id]);
      expect(comparable(found!)).toEqual(comparable(await inSql.search(scope, { q: 'LOOK4242', facets: FACETS, limit: 24, offset: 0 })));

      await db.update(cars).set({ stocknum: 'RENUM777' }).where(eq(cars.id, car.id));
      // The generations read finds the copy behind; the sync statement reads the changed car.
      expect(await statementsDuring(async () => expect((await engine.search(scope, { q: 'renum777', limit: 24, offset: 0 })).hits.map((hit) => hit.id)).toEqual([car.id]))).toBe(2);
      expect((await engine.search(scope, { q: 'look4242', limit: 24, offset: 0 })).estimatedTotalHits).toBe(0);
      // Counted by the index, not by the SQL statement.
      expect(inSqlStatement).not.toHaveBeenCalled();
      // The patched copy renumbers its cars (the changed one moves to the end): every other stock number still finds its car.
      const others = await db.select({ stocknum: cars.stocknum }).from(cars).where(eq(cars.websiteId, websiteIds[0]));
      for (const { stocknum } of others) {
        const request: SearchRequest = { q: stocknum!, limit: 24, offset: 0 };
        expect(comparable(await engine.search(scope, request)), stocknum!).toEqual(comparable(await inSql.search(scope, request)));
      }
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('answers a stock number from the copies alone while they are at the generations the process holds, and a change once the process knows of it', async () => {
    // Decision 071: every card column is held in the copy, and the copies are checked against the
    // generations this process keeps for the database (decision 055), not read again.
    const engine = new SqlSearchEngine(db, { generations: heldGenerationsOf(handle) });
    const scope: SearchScope = { websiteIds, soldSince: new Date(NOW.getTime() - 3 * DAY), minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' };
    // Cards showing every column: a series, a price before, reserved, on preorder, a primary image,
    // a first photo (of two), sold yesterday; a yard and none.
    const [yard] = await db.select().from(locations).where(eq(locations.websiteId, websiteIds[0]));
    const [a, b, c, d] = (await db.select({ id: cars.id }).from(cars).where(eq(cars.websiteId, websiteIds[0])).orderBy(cars.id).limit(4)).map((car) => car.id);
    const listed = { status: 'in_stock' as const, soldDate: null, showOnDealerWebsite: true };
    await db.update(cars).set({ ...listed, stocknum: 'CARD701', series: 'XV70', beforePrice: 45_000, reserved: true, priceType: 'drive_away', primaryImageUrl: 'https://img.example/a.jpg', locationId: yard.id }).where(eq(cars.id, a));
    await db.update(cars).set({ ...listed, preorder: true, locationId: null }).where(eq(cars.id, b));
    const [carB] = await db.select({ websiteId: cars.websiteId }).from(cars).where(eq(cars.id, b));
    await db.insert(carImages).values([
      { websiteId: carB.websiteId, carId: b, position: 1, url: 'https://img.example/b-second.jpg' },
      { websiteId: carB.websiteId, carId: b, position: 0, url: 'https://img.example/b-first.jpg' },
    ]);
    await db.update(cars).set({ status: 'sold', soldDate: new Date(NOW.getTime() - DAY), showOnDealerWebsite: true }).where(eq(cars.id, c));
    await db.update(cars).set({ ...listed, simpleFuel: 'Diesel', certified: true }).where(eq(cars.id, d));
    const stocknums = (
      await db.select({ stocknum: cars.stocknum }).from(cars).where(and(inArray(cars.websiteId, websiteIds), eq(cars.showOnDealerWebsite, true)))
    ).map((row) => row.stocknum!);
    const stocknumA = 'card701';
    await engine.search(scope, { q: stocknumA, limit: 24, offset: 0 });

    let found = 0;
    for (const q of stocknums) {
      const request: SearchRequest = { q, facets: FACETS, limit: 24, offset: 0 };
      let fromCopies: SearchResponse | undefined;
      expect(await statementsDuring(async () => (fromCopies = await engine.search(scope, request))), q).toBe(0);
      found += fromCopies!.hits.length;
      expect(comparable(fromCopies!), q).toEqual(comparable(await inSql.search(scope, request)));
    }
    expect(found).toBeGreaterThan(stocknums.length / 2);

    // A price change (car generation) and a yard renamed (website generation) show once the
    // process knows of them: within decision 055's bound of 1 s.
    await db.update(cars).set({ price: 12_345 }).where(eq(cars.id, a));
    const carA = async () => (await engine.search(scope, { q: stocknumA, facets: FACETS, limit: 24, offset: 0 })).hits.find((hit) => hit.id === a);
    await expect.poll(async () => (await carA())?.price, { timeout: 1_000, interval: 20 }).toBe(12_345);
    await db.update(locations).set({ name: 'Renamed Yard' }).where(eq(locations.id, yard.id));
    await expect.poll(async () => (await carA())?.location?.name, { timeout: 1_000, interval: 20 }).toBe('Renamed Yard');
    const request: SearchRequest = { q: stocknumA, facets: FACETS, limit: 24, offset: 0 };
    expect(comparable(await engine.search(scope, request))).toEqual(comparable(await inSql.search(scope, request)));
  });

  it('answers the same when it may hold fewer cars than the searches need', async () => {
    const small = new SqlSearchEngine(db, { stockIndexCars: 100 });
    for (let seed = 2000; seed < 2040; seed++) {
      const { scope, request } = randomSearch(seed);
      expect(comparable(await small.search(scope, request))).toEqual(comparable(await inSql.search(scope, request)));
    }
  });

  describe('matchCars: which of a few cars each search finds', () => {
    /** The ids among `ids` in the search's hits (every hit: no page limit), from the SQL statement. */
    async function hitsAmong(scope: SearchScope, request: Pick<SearchRequest, 'q' | 'filters'>, ids: readonly number[]): Promise<number[]> {
      const all = await inSql.search(scope, { ...request, limit: 10_000, offset: 0 });
      return all.hits.map((hit) => hit.id).filter((id) => ids.includes(id)).sort((x, y) => x - y);
    }
    const sorted = (found: number[][]) => found.map((ids) => [...ids].sort((x, y) => x - y));

    it('finds what the search finds, for each kind of saved search: make, make and model, price range, year and km, body, text, landing page', async () => {
      const scope: SearchScope = { websiteIds: [websiteIds[0]], soldSince: new Date(NOW.getTime() - 3 * DAY), minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' };
      const ids = (await db.select({ id: cars.id }).from(cars).where(eq(cars.websiteId, websiteIds[0]))).map((row) => row.id);
      const searches: Pick<SearchRequest, 'q' | 'filters'>[] = [
        { filters: { make: ['Toyota'] } },
        { filters: { make: ['Mazda', 'Kia'] } },
        { filters: { make: ['Toyota'], make_model: ['Toyota:HiLux'] } },
        { filters: { make: ['Ford'], make_model: ['Ford:Ranger:Raptor'] } },
        { filters: { make: ['Toyota'], price: { max: 40_000 } } },
        { filters: { price: { min: 20_000, max: 45_000 } } },
        { filters: { year: { min: 2016 }, km: { max: 100_000 } } },
        { filters: { simple_body: ['SUV'], price: { max: 50_000 } } },
        { q: 'hilux' },
        { q: 'corola' },
        { q: 'ak1003' },
        { q: 'red', filters: { make: ['ŠKODA'] } },
        // /search/used-cars/toyota/hilux as the landing page presets it, with the visitor's budget.
        { filters: { car_type: ['used'], make: ['Toyota'], make_model: ['Toyota:HiLux'], price: { max: 60_000 } } },
        { filters: { car_type: ['used'], make: ['Mazda'] } },
        { filters: { location_name: ['North Yard'] } },
        {},
      ];
      // Every car of the website (listed or not, sold long ago or not), and a handful.
      for (const among of [ids, ids.filter((_, i) => i % 23 === 0)]) {
        const expected = await Promise.all(searches.map((search) => hitsAmong(scope, search, among)));
        expect(sorted(await indexed.matchCars(scope, searches, among))).toEqual(expected);
        expect(sorted(await inSql.matchCars(scope, searches, among))).toEqual(expected);
      }
      // Each kind finds some of the website's cars and misses others, so the comparison tells something.
      const everyCar = await Promise.all(searches.slice(0, -1).map((search) => hitsAmong(scope, search, ids)));
      for (const [k, found] of everyCar.entries()) {
        expect(found.length, JSON.stringify(searches[k])).toBeLessThan(ids.length);
        if (searches[k].q !== 'ak1003' && searches[k].q !== 'red') expect(found.length, JSON.stringify(searches[k])).toBeGreaterThan(0);
      }
    });

    it('finds what 200 random searches find among a few cars of their websites', async () => {
      const all = await db.select({ id: cars.id }).from(cars);
      const r = random(20261129);
      for (let seed = 3000; seed < 3200; seed += 10) {
        const batch = Array.from({ length: 10 }, (_, k) => randomSearch(seed + k));
        // One scope per call (matchCars takes one website's searches): each search of the batch under the first one's scope.
        const scope = batch[0].scope;
        const among = r.some(all.map((row) => row.id), 12);
        const searches = batch.map(({ request }) => ({ q: request.q, filters: request.filters }));
        const expected = await Promise.all(searches.map((search) => hitsAmong(scope, search, among)));
        expect(sorted(await indexed.matchCars(scope, searches, among)), `searches ${seed}–${seed + 9}`).toEqual(expected);
      }
    }, 120_000);
  });
});
