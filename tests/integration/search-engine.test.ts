import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import type { WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { searchStock } from '@/modules/stock/search/search.service';
import { scopeForTenant } from '@/modules/stock/search/search.scope';
import { SqlSearchEngine } from '@/modules/stock/search/sql-search-engine';
import {
  FACETS,
  RANGE_FACETS,
  TERM_FACETS,
  type Facet,
  type SearchFilters,
  type SearchRequest,
  type SearchResponse,
  type SortOption,
} from '@/modules/stock/search/search.types';

/**
 * The SQL search engine through searchStock, on a fresh database: what a website lists, tenant
 * scoping, text matching, sorting, paging and disjunctive facet counts (SPEC §4, §5, §7, §9).
 */

const DAY = 86_400_000;
const NOW = new Date();
const ago = (ms: number) => new Date(NOW.getTime() - ms);

type CarInput = Partial<typeof cars.$inferInsert> & { slug: string };

describe('stock search engine', () => {
  let db: Db;
  let seq = 0;

  async function website(slug: string, config: WebsiteConfigInput = {}) {
    const [site] = await db.insert(websites).values({ slug, name: slug, config }).returning();
    const dealership = async (name: string, dealerSlug = `${slug}-${seq++}`) =>
      (await db.insert(dealerships).values({ websiteId: site.id, slug: dealerSlug, name }).returning())[0];
    const location = async (dealershipId: number, name: string) =>
      (await db.insert(locations).values({ websiteId: site.id, dealershipId, name, slug: `loc-${seq++}`, city: 'Sydney' }).returning())[0];
    const defaultDealer = await dealership(`${slug} dealer`, `${slug}-dealer`);
    const addCars = async (list: CarInput[]) => {
      const rows = await db
        .insert(cars)
        .values(
          list.map((c) => ({
            websiteId: site.id,
            dealershipId: defaultDealer.id,
            name: `Car ${c.slug}`,
            make: 'Toyota',
            model: 'Corolla',
            year: 2020,
            carType: 'used' as const,
            price: 20_000,
            photosCount: 5,
            createdAt: ago(30 * DAY + ++seq * 1000),
            ...c,
          })),
        )
        .returning({ id: cars.id, slug: cars.slug });
      return new Map(rows.map((r) => [r.slug, r.id]));
    };
    const tenant = async (): Promise<Tenant> => (await findTenantById(site.id))!;
    return { site, defaultDealer, dealership, location, addCars, tenant };
  }

  const search = (tenant: Tenant, request: Partial<SearchRequest> = {}, now = NOW) =>
    searchStock(tenant, { limit: 100, offset: 0, ...request }, now);
  const slugs = (response: SearchResponse) => response.hits.map((c) => c.slug).sort();
  const ordered = (response: SearchResponse) => response.hits.map((c) => c.slug);
  const withConfig = (tenant: Tenant, change: (config: Tenant['config']) => Tenant['config']): Tenant => ({
    ...tenant,
    config: change(structuredClone(tenant.config)),
  });

  let facetSite: Tenant;
  let betaSite: Tenant;
  let sortSite: Tenant;
  let textSite: Tenant;
  let visibleSite: Tenant;
  let noSoldSite: Tenant;
  let filteredSite: Tenant;
  let facetCreatedAt: Date[] = [];

  beforeAll(async () => {
    ({ db } = await useTestDatabase());

    // Facets: two dealerships, three locations (two named North Yard), six listed cars and some unlisted ones.
    const f = await website('facet-motors');
    const harbour = await f.dealership('Harbour Dealer');
    const bay = await f.dealership('Bay Dealer');
    const north = await f.location(harbour.id, 'North Yard');
    const south = await f.location(bay.id, 'South Yard');
    const north2 = await f.location(bay.id, 'North Yard');
    const facetCars = ([
      { slug: 'hilux-white', make: 'Toyota', model: 'HiLux', colour: 'White', price: 40_000, km: 50_000, year: 2019, locationId: north.id, dealershipId: harbour.id },
      { slug: 'hilux-black', make: 'Toyota', model: 'HiLux', carType: 'new', colour: 'Black', price: 55_000, km: 10, year: 2024, locationId: south.id, dealershipId: bay.id },
      { slug: 'corolla-white', make: 'Toyota', model: 'Corolla', colour: 'White', price: 20_000, km: 80_000, year: 2017, locationId: north.id, dealershipId: harbour.id, certified: true },
      { slug: 'cx5-red', make: 'Mazda', model: 'CX-5', carType: 'demo', colour: 'Red', price: 38_000, km: 5_000, year: 2023, locationId: south.id, dealershipId: bay.id },
      { slug: 'cx3-white', make: 'Mazda', model: 'CX-3', colour: 'White', price: 18_000, km: 60_000, year: 2018, locationId: north2.id, dealershipId: bay.id },
      { slug: 'rio-blue', make: 'Kia', model: 'Rio', colour: 'Blue', price: 12_000, km: 100_000, year: 2015, locationId: north.id, dealershipId: harbour.id, subscriptionPrice: 99 },
    ] satisfies CarInput[]).map((c, i): CarInput => ({ ...c, createdAt: ago((i + 1) * DAY) }));
    facetCreatedAt = facetCars.map((c) => c.createdAt as Date);
    await f.addCars([
      ...facetCars,
      // Never counted: hidden, sold long ago, sold without a date.
      { slug: 'hidden', make: 'Toyota', model: 'HiLux', colour: 'White', price: 1, km: 999_999, year: 1990, showOnDealerWebsite: false, locationId: north.id, dealershipId: harbour.id },
      { slug: 'old-sold', make: 'Toyota', model: 'HiLux', colour: 'Pink', price: 2, status: 'sold', soldDate: ago(30 * DAY), locationId: south.id, dealershipId: bay.id },
      { slug: 'sold-no-date', make: 'Holden', model: 'Ute', price: 3, status: 'sold', soldDate: null },
    ]);
    facetSite = await f.tenant();

    // Another website with look-alike names and values that must never leak into facet-motors.
    const b = await website('beta-motors');
    const betaHarbour = await b.dealership('Harbour Dealer');
    const betaNorth = await b.location(betaHarbour.id, 'North Yard');
    const betaYard = await b.location(b.defaultDealer.id, 'Beta Yard');
    await b.addCars([
      { slug: 'beta-hilux', make: 'Toyota', model: 'HiLux', colour: 'White', price: 1, km: 1, year: 1999, locationId: betaNorth.id, dealershipId: betaHarbour.id, stocknum: 'BETA123', customRank: 1000 },
      { slug: 'beta-green', make: 'BetaMake', model: 'Zeta', colour: 'Beta Green', price: 9_999_999, km: 9_999_999, year: 2030, locationId: betaYard.id, subscriptionPrice: 1 },
      { slug: 'beta-sold', make: 'Mazda', model: 'CX-5', status: 'sold', soldDate: ago(DAY), locationId: betaYard.id },
    ]);
    betaSite = await b.tenant();

    const s = await website('sort-motors');
    await s.addCars([
      { slug: 's1', customRank: 5, price: 30_000, km: 40_000, subscriptionPrice: null, createdAt: ago(1 * DAY) },
      { slug: 's2', customRank: 10, price: 10_000, km: 90_000, subscriptionPrice: 150, createdAt: ago(5 * DAY) },
      { slug: 's3', customRank: 0, price: 50_000, km: 10, subscriptionPrice: 80, createdAt: ago(2 * DAY) },
      { slug: 's4', customRank: 5, price: 20_000, km: 20_000, subscriptionPrice: null, createdAt: ago(3 * DAY) },
      { slug: 's5', customRank: 0, price: 40_000, km: 60_000, subscriptionPrice: 200, createdAt: ago(4 * DAY) },
    ]);
    sortSite = await s.tenant();

    const t = await website('text-motors');
    await t.addCars([
      { slug: 't-corolla', make: 'Toyota', model: 'Corolla', stocknum: 'AB1234' },
      { slug: 't-cx5', make: 'Mazda', model: 'CX-5', stocknum: 'AB123' },
      { slug: 't-rio', make: 'Kia', model: 'Rio', stocknum: 'XAB123' },
      { slug: 't-skoda', make: 'ŠKODA', model: 'Octavia', stocknum: 'S100' },
      { slug: 't-kicks', make: 'Nissan', model: 'Kicks', stocknum: '99999', vin: 'JT12345678' },
      { slug: 't-hilux', make: 'Toyota', model: 'HiLux', badge: 'SR5', colour: 'White', stocknum: 'H-77' },
      { slug: 't-wild', make: 'Odd%Make_1', model: 'Back\\slash', stocknum: 'W1' },
      { slug: 't-quote', make: "O'Brien", model: 'Special', stocknum: 'Q1' },
      { slug: 't-hidden', make: 'Toyota', model: 'Corolla', stocknum: 'HID123', showOnDealerWebsite: false },
    ]);
    textSite = await t.tenant();

    const v = await website('visible-motors');
    await v.addCars([
      { slug: 'v-in-stock' },
      { slug: 'v-coming-soon', status: 'coming_soon' },
      { slug: 'v-sold-2-days', status: 'sold', soldDate: ago(2 * DAY) },
      { slug: 'v-sold-4-days', status: 'sold', soldDate: ago(4 * DAY) },
      { slug: 'v-sold-no-date', status: 'sold', soldDate: null },
      { slug: 'v-hidden', showOnDealerWebsite: false, stocknum: 'HID999', colour: 'Hidden Grey', price: 1 },
      { slug: 'v-hidden-sold', status: 'sold', soldDate: ago(DAY), showOnDealerWebsite: false },
    ]);
    visibleSite = await v.tenant();

    const n = await website('no-sold-motors', { includeSoldCarsDays: 0 });
    await n.addCars([{ slug: 'n-in-stock' }, { slug: 'n-sold-now', status: 'sold', soldDate: ago(60_000) }]);
    noSoldSite = await n.tenant();

    const fl = await website('filtered-motors', {
      search: { defaultFilters: { minPhotos: 3, cities: ['Bathurst', 'Cowra'], makes: ['Mazda', 'ŠKODA'] } },
    });
    await fl.addCars([
      { slug: 'f-match', make: 'Mazda', city: 'Bathurst', photosCount: 3 },
      { slug: 'f-match-case', make: 'MAZDA', city: 'cowra', photosCount: 8 },
      { slug: 'f-skoda', make: 'ŠKODA', city: 'Cowra', photosCount: 8 },
      { slug: 'f-few-photos', make: 'Mazda', city: 'Bathurst', photosCount: 2 },
      { slug: 'f-wrong-city', make: 'Mazda', city: 'Orange', photosCount: 8 },
      { slug: 'f-no-city', make: 'Mazda', city: null, photosCount: 8 },
      { slug: 'f-wrong-make', make: 'Toyota', city: 'Bathurst', photosCount: 8 },
    ]);
    filteredSite = await fl.tenant();
  });

  describe('visibility (SPEC §4, §7, §9)', () => {
    it('lists in-stock and coming-soon cars and cars sold within 3 days by default', async () => {
      expect(slugs(await search(visibleSite))).toEqual(['v-coming-soon', 'v-in-stock', 'v-sold-2-days']);
    });

    it('never lists a car hidden from the dealer website, whatever the request', async () => {
      const all = await search(visibleSite, { facets: ['colour', 'price'] });
      expect(all.facetDistribution.colour).not.toHaveProperty('Hidden Grey');
      expect(all.facetStats.price?.min).toBe(20_000);
      expect((await search(visibleSite, { q: 'HID999' })).estimatedTotalHits).toBe(0);
      expect((await search(visibleSite, { filters: { colour: ['Hidden Grey'] } })).estimatedTotalHits).toBe(0);
      expect((await search(textSite, { q: 'HID123' })).hits).toEqual([]);
    });

    it('follows include_sold_cars_days and the time of the search', async () => {
      const tenDays = withConfig(visibleSite, (c) => ({ ...c, includeSoldCarsDays: 10 }));
      expect(slugs(await search(tenDays))).toEqual(['v-coming-soon', 'v-in-stock', 'v-sold-2-days', 'v-sold-4-days']);
      const oneDay = withConfig(visibleSite, (c) => ({ ...c, includeSoldCarsDays: 1 }));
      expect(slugs(await search(oneDay))).toEqual(['v-coming-soon', 'v-in-stock']);
      // Two days later the car sold two days ago is four days sold.
      expect(slugs(await search(visibleSite, {}, new Date(NOW.getTime() + 2 * DAY)))).toEqual(['v-coming-soon', 'v-in-stock']);
    });

    it('lists no sold car when include_sold_cars_days is 0', async () => {
      expect(slugs(await search(noSoldSite))).toEqual(['n-in-stock']);
      expect((await search(noSoldSite, { filters: { status: ['sold'] } })).estimatedTotalHits).toBe(0);
    });

    it('counts sold cars by status', async () => {
      const response = await search(visibleSite, { facets: ['status'] });
      expect(response.facetDistribution.status).toEqual({ in_stock: 1, coming_soon: 1, sold: 1 });
      expect(slugs(await search(visibleSite, { filters: { status: ['sold'] } }))).toEqual(['v-sold-2-days']);
    });

    it("applies the website's standing filters (minimum photos, cities, makes), ignoring case", async () => {
      const response = await search(filteredSite, { facets: ['make', 'city'] });
      expect(slugs(response)).toEqual(['f-match', 'f-match-case', 'f-skoda']);
      expect(response.facetDistribution.make).toEqual({ Mazda: 1, MAZDA: 1, ŠKODA: 1 });
      expect(response.facetDistribution.city).toEqual({ Bathurst: 1, cowra: 1, Cowra: 1 });
      // A visitor's filter narrows within them, never past them.
      expect(slugs(await search(filteredSite, { filters: { make: ['Toyota'] } }))).toEqual([]);
      expect(slugs(await search(filteredSite, { filters: { city: ['Orange'] } }))).toEqual([]);
    });
  });

  describe('tenant scoping', () => {
    const betaValues = ['Beta Green', 'BetaMake', 'Beta Yard', 'Zeta', 'BetaMake:Zeta'];
    const requests: Partial<SearchRequest>[] = [
      {},
      { q: 'toyota' },
      { q: 'hilux' },
      { q: 'beta' },
      { q: 'BETA123' },
      { q: 'zeta' },
      { filters: { colour: ['Beta Green'] } },
      { filters: { make: ['BetaMake'] } },
      { filters: { make_model: ['BetaMake:Zeta', 'Toyota:HiLux'] } },
      { filters: { make: ['Toyota'] } },
      { filters: { location_name: ['North Yard'] } },
      { filters: { location_name: ['Beta Yard'] } },
      { filters: { dealership_name: ['Harbour Dealer'] } },
      { filters: { dealership_name: ['beta-motors dealer'] } },
      { filters: { price: { min: 0, max: 1 } } },
      { filters: { status: ['sold'] } },
      { filters: { year: { min: 1999, max: 1999 } }, q: 'toyota' },
    ];

    it.each(requests.map((r) => [JSON.stringify(r), r] as const))("never shows another website's cars (%s)", async (_label, request) => {
      const response = await search(facetSite, { ...request, facets: [...FACETS] });
      expect(response.hits.every((c) => !c.slug.startsWith('beta'))).toBe(true);
      expect(response.estimatedTotalHits).toBe(response.hits.length);
      for (const facet of TERM_FACETS) {
        for (const value of betaValues) expect(response.facetDistribution[facet] ?? {}).not.toHaveProperty(value);
      }
      const total = await search(facetSite, { facets: ['make'] });
      for (const [make, n] of Object.entries(response.facetDistribution.make ?? {})) {
        expect(n).toBeLessThanOrEqual(total.facetDistribution.make![make]);
      }
      const { price, km, year, subscription_price: sub } = response.facetStats;
      if (price) expect([price.min >= 12_000, price.max <= 55_000]).toEqual([true, true]);
      if (km) expect([km.min >= 10, km.max <= 100_000]).toEqual([true, true]);
      if (year) expect([year.min >= 2015, year.max <= 2024]).toEqual([true, true]);
      if (sub) expect(sub).toEqual({ min: 99, max: 99 });
    });

    it('counts location and dealership names within the website only', async () => {
      const response = await search(facetSite, { filters: { location_name: ['North Yard'] }, facets: ['location_name', 'dealership_name'] });
      expect(slugs(response)).toEqual(['corolla-white', 'cx3-white', 'hilux-white', 'rio-blue']);
      expect(response.facetDistribution.location_name).toEqual({ 'North Yard': 4, 'South Yard': 2 });
      expect(response.facetDistribution.dealership_name).toEqual({ 'Harbour Dealer': 3, 'Bay Dealer': 1 });
      expect(slugs(await search(facetSite, { filters: { location_name: ['Beta Yard'] } }))).toEqual([]);
    });

    it("keeps the other website to its own cars too", async () => {
      const response = await search(betaSite, { facets: [...FACETS] });
      expect(slugs(response)).toEqual(['beta-green', 'beta-hilux', 'beta-sold']);
      expect(response.facetDistribution.make).toEqual({ Toyota: 1, BetaMake: 1, Mazda: 1 });
      expect(response.facetDistribution.location_name).toEqual({ 'North Yard': 1, 'Beta Yard': 2 });
      expect(slugs(await search(betaSite, { filters: { dealership_name: ['Bay Dealer'] } }))).toEqual([]);
      expect(slugs(await search(betaSite, { q: 'corolla' }))).toEqual([]);
    });

    it('finds nothing for a scope with no website', async () => {
      const engine = new SqlSearchEngine(db);
      const response = await engine.search(
        { websiteIds: [], soldSince: null, minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' },
        { limit: 10, offset: 0, facets: ['make', 'price'] },
      );
      expect(response).toMatchObject({ hits: [], estimatedTotalHits: 0, facetDistribution: { make: {} }, facetStats: {}, limit: 10, offset: 0 });
    });
  });

  describe('free text (SPEC §5)', () => {
    const find = async (q: string) => slugs(await search(textSite, { q }));

    it('matches a stock-number-like term only as a whole word', async () => {
      expect(await find('AB123')).toEqual(['t-cx5']);
      expect(await find('ab1234')).toEqual(['t-corolla']);
      expect(await find('XAB123')).toEqual(['t-rio']);
      expect(await find('99999')).toEqual(['t-kicks']);
      // Part of a VIN is not the VIN.
      expect(await find('12345')).toEqual([]);
      // No typo tolerance for stock numbers.
      expect(await find('AB1235')).toEqual([]);
      // Two digits are not stock-number-like: a plain substring.
      expect(await find('AB12')).toEqual(['t-corolla', 't-cx5', 't-rio']);
    });

    it('needs every term', async () => {
      expect(await find('toyota AB1234')).toEqual(['t-corolla']);
      expect(await find('toyota AB123')).toEqual([]);
      expect(await find('toyota hilux sr5 white')).toEqual(['t-hilux']);
    });

    it('tolerates typos from 5 letters', async () => {
      expect(await find('toyta')).toEqual(['t-corolla', 't-hilux']);
      expect(await find('corola')).toEqual(['t-corolla']);
      expect(await find('octavai')).toEqual(['t-skoda']);
    });

    it('folds accents and case, and finds models written without their hyphen', async () => {
      expect(await find('skoda')).toEqual(['t-skoda']);
      expect(await find('ŠKODA')).toEqual(['t-skoda']);
      expect(await find('Škoda octavia')).toEqual(['t-skoda']);
      expect(await find('cx5')).toEqual(['t-cx5']);
      expect(await find('CX-5')).toEqual(['t-cx5']);
    });

    it('tolerates typos in words that arrive with new stock, and only within the website', async () => {
      const site = await website('vocabulary-motors');
      const tenant = await site.tenant();
      expect(slugs(await search(tenant, { q: 'outlandr' }))).toEqual([]);
      await site.addCars([{ slug: 'v-outlander', make: 'Mitsubishi', model: 'Outlander' }]);
      expect(slugs(await search(tenant, { q: 'outlandr' }))).toEqual(['v-outlander']);
      expect(slugs(await search(tenant, { q: 'mitsubishi outlandr' }))).toEqual(['v-outlander']);
      // The word is known now, but another website has no such car.
      expect(slugs(await search(await (await website('vocabulary-other')).tenant(), { q: 'outlandr' }))).toEqual([]);
    });

    it('gives short words no typo tolerance', async () => {
      expect(await find('kia')).toEqual(['t-rio']);
      expect(await find('rio')).toEqual(['t-rio']);
      expect(await find('kiz')).toEqual([]);
    });

    it('removes double quotes from the query', async () => {
      expect(await find('"corolla"')).toEqual(['t-corolla']);
      expect(await find('"AB123"')).toEqual(['t-cx5']);
    });

    it('puts cars that contain the words as written before typo matches', async () => {
      const site = await website('relevance-motors');
      await site.addCars([
        { slug: 'r-fuzzy', make: 'Toyota', model: 'Corolla', customRank: 100, price: 10_000 },
        { slug: 'r-exact', make: 'Toyotas', model: 'Corolla', customRank: 0 },
      ]);
      const tenant = await site.tenant();
      expect(ordered(await search(tenant, { q: 'toyotas' }))).toEqual(['r-exact', 'r-fuzzy']);
      expect(ordered(await search(tenant, { q: 'corolla' }))).toEqual(['r-fuzzy', 'r-exact']);
      // A sort the visitor chose is kept: relevance leads only 'Most relevant'.
      expect(ordered(await search(tenant, { q: 'toyotas', sort: 'price:asc' }))).toEqual(['r-fuzzy', 'r-exact']);
    });
  });

  describe('hostile values', () => {
    const hostile = [
      "'; drop table cars; --",
      "' or '1'='1",
      '1) or (1=1',
      '$1',
      '%',
      '_',
      '\\',
      '%%',
      '_%_',
      '.*',
      '(^| )',
      '[a-z]+',
      'ab123|.*',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '🚗 Škoda',
      'x'.repeat(10_240),
      'Toyota '.repeat(2_000),
      ':',
      'Toyota:',
      ':HiLux',
      'a:b:c',
      '{"$ne":null}',
    ];

    it.each(hostile.map((v) => [JSON.stringify(v.slice(0, 30)), v] as const))('never throws on q %s', async (_label, q) => {
      const response = await search(textSite, { q, facets: [...FACETS] });
      expect(response.estimatedTotalHits).toBe(response.hits.length);
      expect(response.hits.every((c) => c.slug.startsWith('t-') && c.slug !== 't-hidden')).toBe(true);
    });

    it.each(hostile.map((v) => [JSON.stringify(v.slice(0, 30)), v] as const))('never throws on filter value %s', async (_label, value) => {
      const filters: SearchFilters = Object.fromEntries(TERM_FACETS.map((f) => [f, [value]]));
      const response = await search(textSite, { filters, facets: [...FACETS] });
      expect(response.hits.every((c) => c.slug.startsWith('t-'))).toBe(true);
      for (const facet of TERM_FACETS) {
        const single = await search(textSite, { filters: { [facet]: [value] } });
        expect(single.hits.every((c) => c.slug.startsWith('t-') && c.slug !== 't-hidden')).toBe(true);
      }
    });

    it('matches pattern characters in q literally', async () => {
      expect(slugs(await search(textSite, { q: '%' }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { q: '_' }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { q: '\\' }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { q: 'd%m' }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { q: 'k\\s' }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { q: "o'brien" }))).toEqual(['t-quote']);
      for (const q of ['%%', '_%_', '.*', '[a-z]+', '(^| )', "' or '1'='1", '1) or (1=1', '\u0000']) {
        expect(slugs(await search(textSite, { q })), q).toEqual(q === '\u0000' ? slugs(await search(textSite)) : []);
      }
    });

    it('matches filter values literally, with double quotes removed', async () => {
      expect(slugs(await search(textSite, { filters: { make: ['Odd%Make_1'] } }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { filters: { make: ['Odd%'] } }))).toEqual([]);
      expect(slugs(await search(textSite, { filters: { make: ['%'] } }))).toEqual([]);
      expect(slugs(await search(textSite, { filters: { model: ['Back\\slash'] } }))).toEqual(['t-wild']);
      expect(slugs(await search(textSite, { filters: { make: ["O'Brien"] } }))).toEqual(['t-quote']);
      expect(slugs(await search(textSite, { filters: { make: ['"Toyota"'] } }))).toEqual(['t-corolla', 't-hilux']);
      expect(slugs(await search(textSite, { filters: { make_model: ['"Toyota":"HiLux"'] } }))).toEqual(['t-hilux']);
      expect(slugs(await search(textSite, { filters: { colour: ['"White"'], make: ['Toyota"'] } }))).toEqual(['t-hilux']);
      expect(slugs(await search(textSite, { filters: { make: ["' or '1'='1"] } }))).toEqual([]);
      expect(slugs(await search(textSite, { filters: { make: ['toyota'] } }))).toEqual([]);
      // A model value without its make matches nothing, as an unknown value of any facet does.
      for (const value of ['garbage', ':HiLux', 'Toyota:']) {
        expect(slugs(await search(textSite, { filters: { make_model: [value] } })), value).toEqual([]);
      }
    });
  });

  describe('sorting and paging', () => {
    const sorted = async (sort?: SortOption, tenant = sortSite) => ordered(await search(tenant, sort ? { sort } : {}));

    it('sorts by custom_rank desc by default, newest first within a rank', async () => {
      expect(await sorted()).toEqual(['s2', 's1', 's4', 's3', 's5']);
      expect(await sorted('custom_rank:desc')).toEqual(['s2', 's1', 's4', 's3', 's5']);
    });

    it("uses the website's default sort when the request has none", async () => {
      const cheapest = withConfig(sortSite, (c) => ({ ...c, search: { ...c.search, defaultSort: 'price:asc' } }));
      expect(await sorted(undefined, cheapest)).toEqual(['s2', 's4', 's1', 's5', 's3']);
      const newest = withConfig(sortSite, (c) => ({ ...c, search: { ...c.search, defaultSort: 'created_at_timestamp:desc' } }));
      expect(await sorted(undefined, newest)).toEqual(['s1', 's3', 's4', 's5', 's2']);
      expect(await sorted('km:asc', cheapest)).toEqual(['s3', 's4', 's1', 's5', 's2']);
    });

    it.each<[SortOption, string[]]>([
      ['created_at_timestamp:desc', ['s1', 's3', 's4', 's5', 's2']],
      ['price:asc', ['s2', 's4', 's1', 's5', 's3']],
      ['price:desc', ['s3', 's5', 's1', 's4', 's2']],
      ['km:asc', ['s3', 's4', 's1', 's5', 's2']],
      ['km:desc', ['s2', 's5', 's1', 's4', 's3']],
      ['subscription_price:asc', ['s3', 's2', 's5', 's1', 's4']],
      ['subscription_price:desc', ['s5', 's2', 's3', 's1', 's4']],
    ])('sorts by %s (no subscription price last)', async (sort, expected) => {
      expect(await sorted(sort)).toEqual(expected);
    });

    it("puts cars without a price ('Enquire for price.') after the priced ones when sorting by lowest price", async () => {
      const site = await website('enquire-motors');
      await site.addCars([
        { slug: 'p-none', price: 0 },
        { slug: 'p-ten', price: 10 },
        { slug: 'p-eleven', price: 11 },
        { slug: 'p-cheap', price: 5_000 },
        { slug: 'p-dear', price: 90_000 },
      ]);
      const tenant = await site.tenant();
      expect(ordered(await search(tenant, { sort: 'price:asc' }))).toEqual(['p-eleven', 'p-cheap', 'p-dear', 'p-none', 'p-ten']);
      expect(ordered(await search(tenant, { sort: 'price:desc' }))).toEqual(['p-dear', 'p-cheap', 'p-eleven', 'p-ten', 'p-none']);
      expect(ordered(await search(tenant, { sort: 'price:asc', filters: { make: ['Toyota'] } }))).toEqual(['p-eleven', 'p-cheap', 'p-dear', 'p-none', 'p-ten']);
    });

    it('pages with limit and offset, with the total of all matches', async () => {
      const page = (limit: number, offset: number) => search(sortSite, { limit, offset });
      const first = await page(2, 0);
      expect(ordered(first)).toEqual(['s2', 's1']);
      expect(first).toMatchObject({ estimatedTotalHits: 5, limit: 2, offset: 0 });
      expect(ordered(await page(2, 2))).toEqual(['s4', 's3']);
      expect(ordered(await page(2, 4))).toEqual(['s5']);
      const past = await page(2, 6);
      expect(past).toMatchObject({ hits: [], estimatedTotalHits: 5, limit: 2, offset: 6 });
      expect(ordered(await page(1, 4))).toEqual(['s5']);
      expect(ordered(await page(100, 0))).toHaveLength(5);
    });

    it('reports its processing time: from the start of the search to its answer, in whole milliseconds', async () => {
      // The clock reads 1,000 ms when the search starts and 1,042.4 ms at every later reading.
      let readings = 0;
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => (readings++ === 0 ? 1_000 : 1_042.4));
      try {
        const response = await search(sortSite);
        expect(response.processingTimeMs).toBe(42);
      } finally {
        clock.mockRestore();
      }
    });
  });

  describe('facets (disjunctive, SPEC §3, §7)', () => {
    const ALL_TERMS: Facet[] = ['make', 'make_model', 'colour', 'car_type', 'location_name', 'dealership_name'];
    const ALL_RANGES: Facet[] = ['price', 'km', 'year', 'subscription_price'];
    const facets = (filters: SearchFilters = {}, extra: Partial<SearchRequest> = {}) =>
      search(facetSite, { filters, facets: [...ALL_TERMS, ...ALL_RANGES], ...extra });

    it('counts every listed car once per facet, and only those', async () => {
      const response = await facets();
      expect(response.estimatedTotalHits).toBe(6);
      expect(response.facetDistribution).toEqual({
        make: { Toyota: 3, Mazda: 2, Kia: 1 },
        make_model: { 'Toyota:HiLux': 2, 'Toyota:Corolla': 1, 'Mazda:CX-5': 1, 'Mazda:CX-3': 1, 'Kia:Rio': 1 },
        colour: { White: 3, Black: 1, Red: 1, Blue: 1 },
        car_type: { used: 4, new: 1, demo: 1 },
        location_name: { 'North Yard': 4, 'South Yard': 2 },
        dealership_name: { 'Harbour Dealer': 3, 'Bay Dealer': 3 },
      });
      expect(response.facetStats).toEqual({
        price: { min: 12_000, max: 55_000 },
        km: { min: 10, max: 100_000 },
        year: { min: 2015, max: 2024 },
        subscription_price: { min: 99, max: 99 },
      });
    });

    it('gives only the facets asked for', async () => {
      const response = await search(facetSite, { facets: ['colour', 'year'] });
      expect(Object.keys(response.facetDistribution)).toEqual(['colour']);
      expect(Object.keys(response.facetStats)).toEqual(['year']);
      const none = await search(facetSite);
      expect(none.facetDistribution).toEqual({});
      expect(none.facetStats).toEqual({});
    });

    it("ignores a facet's own selection and narrows the others by it", async () => {
      const response = await facets({ make: ['Toyota'] });
      expect(slugs(response)).toEqual(['corolla-white', 'hilux-black', 'hilux-white']);
      expect(response.estimatedTotalHits).toBe(3);
      expect(response.facetDistribution.make).toEqual({ Toyota: 3, Mazda: 2, Kia: 1 });
      expect(response.facetDistribution.colour).toEqual({ White: 2, Black: 1 });
      expect(response.facetDistribution.car_type).toEqual({ used: 2, new: 1 });
      expect(response.facetDistribution.location_name).toEqual({ 'North Yard': 2, 'South Yard': 1 });
      expect(response.facetStats.price).toEqual({ min: 20_000, max: 55_000 });
    });

    it('counts each facet under the other facets only', async () => {
      const response = await facets({ make: ['Toyota'], colour: ['White'] });
      expect(slugs(response)).toEqual(['corolla-white', 'hilux-white']);
      expect(response.facetDistribution.make).toEqual({ Toyota: 2, Mazda: 1 });
      expect(response.facetDistribution.colour).toEqual({ White: 2, Black: 1 });
      expect(response.facetDistribution.car_type).toEqual({ used: 2 });
      expect(response.facetDistribution.make_model).toEqual({ 'Toyota:HiLux': 1, 'Toyota:Corolla': 1, 'Mazda:CX-3': 1 });
    });

    it('ORs values within a facet and ANDs across facets', async () => {
      expect(slugs(await facets({ colour: ['White', 'Red'] }))).toEqual(['corolla-white', 'cx3-white', 'cx5-red', 'hilux-white']);
      expect(slugs(await facets({ colour: ['White', 'Red'], car_type: ['demo', 'new'] }))).toEqual(['cx5-red']);
      expect(slugs(await facets({ colour: ['Green'] }))).toEqual([]);
    });

    describe('makes and models: one group, models nested under makes', () => {
      it('narrows a selected make to its selected models and keeps other selected makes whole', async () => {
        const response = await facets({ make: ['Toyota', 'Mazda'], make_model: ['Toyota:HiLux'] });
        expect(slugs(response)).toEqual(['cx3-white', 'cx5-red', 'hilux-black', 'hilux-white']);
        // The group's own selection is ignored for both make and model counts.
        expect(response.facetDistribution.make).toEqual({ Toyota: 3, Mazda: 2, Kia: 1 });
        expect(response.facetDistribution.make_model).toEqual({
          'Toyota:HiLux': 2,
          'Toyota:Corolla': 1,
          'Mazda:CX-5': 1,
          'Mazda:CX-3': 1,
          'Kia:Rio': 1,
        });
        expect(response.facetDistribution.colour).toEqual({ White: 2, Black: 1, Red: 1 });
      });

      it('lists a selected model even when its make is not selected', async () => {
        expect(slugs(await facets({ make_model: ['Mazda:CX-5'] }))).toEqual(['cx5-red']);
        expect(slugs(await facets({ make: ['Toyota'], make_model: ['Mazda:CX-5'] }))).toEqual([
          'corolla-white',
          'cx5-red',
          'hilux-black',
          'hilux-white',
        ]);
        expect(slugs(await facets({ make: ['Toyota'], make_model: ['Toyota:HiLux', 'Toyota:Corolla'] }))).toEqual([
          'corolla-white',
          'hilux-black',
          'hilux-white',
        ]);
      });

      it('lists nothing of a make narrowed to a model it does not have', async () => {
        expect(slugs(await facets({ make: ['Toyota'], make_model: ['Toyota:Yaris'] }))).toEqual([]);
        expect(slugs(await facets({ make: ['Toyota', 'Kia'], make_model: ['Toyota:Yaris'] }))).toEqual(['rio-blue']);
      });

      it('matches makes and models exactly as stored', async () => {
        expect(slugs(await facets({ make: ['toyota'] }))).toEqual([]);
        expect(slugs(await facets({ make_model: ['Toyota:Hilux'] }))).toEqual([]);
        expect(slugs(await facets({ model: ['HiLux'] }))).toEqual(['hilux-black', 'hilux-white']);
      });
    });

    describe('ranges', () => {
      it('filters inclusively and gives min and max that ignore their own range but respect the others', async () => {
        const response = await facets({ price: { min: 18_000, max: 40_000 } });
        expect(slugs(response)).toEqual(['corolla-white', 'cx3-white', 'cx5-red', 'hilux-white']);
        expect(response.facetStats.price).toEqual({ min: 12_000, max: 55_000 });
        expect(response.facetStats.km).toEqual({ min: 5_000, max: 80_000 });
        expect(response.facetStats.year).toEqual({ min: 2017, max: 2023 });
        expect(response.facetStats).not.toHaveProperty('subscription_price');
        expect(response.facetDistribution.make).toEqual({ Toyota: 2, Mazda: 2 });
      });

      it('narrows a range by the other filters', async () => {
        const response = await facets({ price: { min: 18_000, max: 40_000 }, make: ['Toyota'] });
        expect(slugs(response)).toEqual(['corolla-white', 'hilux-white']);
        expect(response.facetStats.price).toEqual({ min: 20_000, max: 55_000 });
        expect(response.facetStats.km).toEqual({ min: 50_000, max: 80_000 });
        expect(response.facetDistribution.make).toEqual({ Toyota: 2, Mazda: 2 });
      });

      it('takes open and single-value ranges', async () => {
        expect(slugs(await facets({ price: { min: 40_000, max: 40_000 } }))).toEqual(['hilux-white']);
        expect(slugs(await facets({ km: { max: 10 } }))).toEqual(['hilux-black']);
        expect(slugs(await facets({ year: { min: 2023 } }))).toEqual(['cx5-red', 'hilux-black']);
        expect(slugs(await facets({ subscription_price: { max: 1_000 } }))).toEqual(['rio-blue']);
        expect(slugs(await facets({ price: {} }))).toHaveLength(6);
        expect(slugs(await facets({ price: { min: 1_000_000 } }))).toEqual([]);
      });

      it('filters and reports created_at_timestamp in epoch milliseconds', async () => {
        const response = await search(facetSite, { facets: ['created_at_timestamp'] });
        const times = facetCreatedAt.map((d) => d.getTime());
        const stats = response.facetStats.created_at_timestamp!;
        expect(Math.abs(stats.min - Math.min(...times))).toBeLessThan(1000);
        expect(Math.abs(stats.max - Math.max(...times))).toBeLessThan(1000);
        const recent = await search(facetSite, { filters: { created_at_timestamp: { min: ago(2.5 * DAY).getTime() } } });
        expect(slugs(recent)).toEqual(['hilux-black', 'hilux-white']);
      });
    });

    it('filters and counts by location and dealership name, several locations sharing a name', async () => {
      expect(slugs(await facets({ location_name: ['South Yard'] }))).toEqual(['cx5-red', 'hilux-black']);
      expect(slugs(await facets({ location_name: ['North Yard', 'South Yard'] }))).toHaveLength(6);
      const bay = await facets({ dealership_name: ['Bay Dealer'] });
      expect(slugs(bay)).toEqual(['cx3-white', 'cx5-red', 'hilux-black']);
      expect(bay.facetDistribution.dealership_name).toEqual({ 'Harbour Dealer': 3, 'Bay Dealer': 3 });
      expect(bay.facetDistribution.location_name).toEqual({ 'North Yard': 1, 'South Yard': 2 });
      expect(slugs(await facets({ location_name: ['north yard'] }))).toEqual([]);
      expect(slugs(await facets({ dealership_name: ['No Such Dealer'] }))).toEqual([]);
    });

    it('filters certified by true or false only', async () => {
      expect(slugs(await facets({ certified: ['true'] }))).toEqual(['corolla-white']);
      expect(slugs(await facets({ certified: ['false'] }))).toHaveLength(5);
      expect(slugs(await facets({ certified: ['yes'] }))).toEqual([]);
    });

    it('counts every facet of FACETS at once', async () => {
      const response = await search(facetSite, { facets: [...FACETS] });
      expect(Object.keys(response.facetDistribution).sort()).toEqual([...TERM_FACETS].sort());
      expect(Object.keys(response.facetStats).sort()).toEqual([...RANGE_FACETS].sort());
      const d = response.facetDistribution;
      expect(d.certified).toEqual({ true: 1, false: 5 });
      expect(d.status).toEqual({ in_stock: 6 });
      expect(d.item_type).toEqual({ car: 6 });
      expect(d.model).toEqual({ HiLux: 2, Corolla: 1, 'CX-5': 1, 'CX-3': 1, Rio: 1 });
      expect(d.make).toEqual({ Toyota: 3, Mazda: 2, Kia: 1 });
      expect(d.make_model).toEqual({ 'Toyota:HiLux': 2, 'Toyota:Corolla': 1, 'Mazda:CX-5': 1, 'Mazda:CX-3': 1, 'Kia:Rio': 1 });
      // Unset values (no badge, tag, body…) are not counted as a value.
      expect(d.badge).toEqual({});
      expect(d.tag).toEqual({});
      for (const facet of ['make', 'car_type', 'status', 'item_type', 'certified', 'location_name', 'dealership_name'] as const) {
        expect(Object.values(d[facet]!).reduce((a, b) => a + b, 0), facet).toBe(6);
      }
    });

    it('filters on every facet at once', async () => {
      const filters: SearchFilters = {
        location_name: ['North Yard'],
        car_type: ['used'],
        make: ['Toyota'],
        make_model: ['Toyota:HiLux'],
        model: ['HiLux'],
        colour: ['White'],
        dealership_name: ['Harbour Dealer'],
        status: ['in_stock'],
        city: ['Sydney', 'Melbourne'],
        certified: ['false'],
        item_type: ['car'],
        price: { min: 40_000, max: 40_000 },
        km: { max: 50_000 },
        year: { min: 2019 },
        created_at_timestamp: { max: NOW.getTime() },
      };
      // Cars here have no city, so that filter alone leaves nothing; without it, one car.
      expect((await search(facetSite, { filters, facets: [...FACETS] })).estimatedTotalHits).toBe(0);
      const withoutCity = { ...filters };
      delete withoutCity.city;
      const response = await search(facetSite, { filters: withoutCity, facets: [...FACETS] });
      expect(slugs(response)).toEqual(['hilux-white']);
      expect(response.facetDistribution.colour).toEqual({ White: 1 });
    });
  });

  describe('searches without text or filters, in the stock index and in SQL', () => {
    // The SQL statement alone (the fallback, decision 032) and the engine counting over the stock
    // index (decision 020); both kept across the tests, so the index follows each change by patching.
    let inSql: SqlSearchEngine;
    let indexed: SqlSearchEngine;
    beforeAll(() => {
      inSql = new SqlSearchEngine(db, { stockIndexCars: 0 });
      indexed = new SqlSearchEngine(db);
    });
    const searchInSql = (tenant: Tenant, request: Partial<SearchRequest> = {}, now = NOW) =>
      inSql.search(scopeForTenant(tenant, now), { limit: 100, offset: 0, ...request });

    /** The same search counted over the stock index and in SQL, without and with a filter that filters nothing out. */
    async function indexAndSql(tenant: Tenant, now = NOW) {
      const pick = (r: SearchResponse) => ({ hits: r.hits, estimatedTotalHits: r.estimatedTotalHits, facetDistribution: r.facetDistribution, facetStats: r.facetStats });
      const request = { limit: 100, offset: 0, facets: [...FACETS] };
      const index = pick(await indexed.search(scopeForTenant(tenant, now), request));
      const inSqlResult = pick(await searchInSql(tenant, request, now));
      const filtered = pick(await searchInSql(tenant, { ...request, filters: { price: { min: 0 } } }, now));
      expect(inSqlResult).toEqual(filtered);
      return { index, sql: inSqlResult };
    }

    it('counts the same in the stock index as in SQL, first time and again', async () => {
      for (const tenant of [facetSite, betaSite, sortSite, textSite, visibleSite, noSoldSite, filteredSite]) {
        for (let round = 0; round < 2; round++) {
          const { index, sql: counted } = await indexAndSql(tenant);
          expect(index, `${tenant.slug} round ${round}`).toEqual(counted);
        }
      }
    });

    it('follows every change to the cars at once, however it is written', async () => {
      const site = await website('fresh-motors');
      const yard = await site.location(site.defaultDealer.id, 'Fresh Yard');
      const ids = await site.addCars([
        { slug: 'fresh-1', make: 'Toyota', colour: 'White', locationId: yard.id },
        { slug: 'fresh-2', make: 'Toyota', colour: 'White', locationId: yard.id },
        { slug: 'fresh-3', make: 'Mazda', colour: 'Red', locationId: yard.id, price: 30_000 },
      ]);
      const tenant = await site.tenant();
      const counts = async (now = NOW) => {
        const { index, sql: counted } = await indexAndSql(tenant, now);
        expect(index).toEqual(counted);
        return counted;
      };
      expect((await counts()).facetDistribution.make).toEqual({ Toyota: 2, Mazda: 1 });

      const kia = await site.addCars([{ slug: 'fresh-4', make: 'Kia', colour: 'Blue', locationId: yard.id, price: 5_000 }]);
      let now = await counts();
      expect(now.estimatedTotalHits).toBe(4);
      expect(now.facetDistribution.make).toEqual({ Toyota: 2, Mazda: 1, Kia: 1 });
      expect(now.facetStats.price).toEqual({ min: 5_000, max: 30_000 });

      await db.update(cars).set({ make: 'Mazda' }).where(eq(cars.id, ids.get('fresh-1')!));
      expect((await counts()).facetDistribution.make).toEqual({ Toyota: 1, Mazda: 2, Kia: 1 });

      await db.execute(sql`update cars set colour = 'Green' where id = ${ids.get('fresh-2')!}`);
      expect((await counts()).facetDistribution.colour).toEqual({ White: 1, Green: 1, Red: 1, Blue: 1 });

      await db.update(cars).set({ showOnDealerWebsite: false }).where(eq(cars.id, ids.get('fresh-3')!));
      now = await counts();
      expect(now.estimatedTotalHits).toBe(3);
      expect(now.facetStats.price).toEqual({ min: 5_000, max: 20_000 });

      await db.update(cars).set({ status: 'sold', soldDate: NOW }).where(eq(cars.id, ids.get('fresh-2')!));
      now = await counts();
      expect(now.estimatedTotalHits).toBe(3);
      expect(now.facetDistribution.status).toEqual({ in_stock: 2, sold: 1 });
      // Four days on, the sold car is no longer listed, with no change to the cars.
      const later = await counts(new Date(NOW.getTime() + 4 * DAY));
      expect(later.estimatedTotalHits).toBe(2);
      expect(later.facetDistribution.status).toEqual({ in_stock: 2 });
      expect(later.facetDistribution.colour).toEqual({ White: 1, Blue: 1 });

      await db.delete(cars).where(eq(cars.id, kia.get('fresh-4')!));
      now = await counts();
      expect(now.facetDistribution.make).toEqual({ Mazda: 1, Toyota: 1 });
      expect(slugs(await searchInSql(tenant))).toEqual(['fresh-1', 'fresh-2']);

      await db.update(locations).set({ name: 'Renamed Yard' }).where(eq(locations.id, yard.id));
      expect((await counts()).facetDistribution.location_name).toEqual({ 'Renamed Yard': 2 });
    });

    it('follows each kind of change to the cars as a copy loaded afresh counts it', async () => {
      const site = await website('delta-motors', { search: { defaultFilters: { minPhotos: 3 } } });
      const yard = await site.location(site.defaultDealer.id, 'Delta Yard');
      const ids = await site.addCars([
        { slug: 'delta-cheap', make: 'Kia', model: 'Rio', price: 9_000, km: 90_000, colour: 'Red' },
        { slug: 'delta-mid', make: 'Toyota', model: 'Corolla', price: 20_000, km: 40_000, colour: 'White', locationId: yard.id },
        { slug: 'delta-dear', make: 'Mazda', model: 'CX-5', price: 45_000, km: 5_000, certified: true, subscriptionPrice: 199 },
      ]);
      const tenant = await site.tenant();
      const generation = async () =>
        Number(
          ((await db.execute(sql`select generation from car_generations where website_id = ${tenant.id}`)) as unknown as { rows: { generation: string }[] }).rows[0]
            ?.generation ?? 0,
        );
      const followed = async (name: string) => {
        const { index, sql: counted } = await indexAndSql(tenant);
        expect(index, name).toEqual(counted);
        // A new engine loads the website whole: the patched copy must count as it does.
        const fresh = await new SqlSearchEngine(db).search(scopeForTenant(tenant, NOW), { limit: 100, offset: 0, facets: [...FACETS] });
        expect({ ...fresh, processingTimeMs: 0 }, name).toEqual({ ...(await indexed.search(scopeForTenant(tenant, NOW), { limit: 100, offset: 0, facets: [...FACETS] })), processingTimeMs: 0 });
        return counted;
      };
      await followed('at first');

      const changes: Array<[string, () => Promise<unknown>]> = [
        ['a new car', () => site.addCars([{ slug: 'delta-new', make: 'Kia', model: 'Cerato', price: 15_000, km: 60_000, state: 'NSW' }])],
        ['a price inside the range', () => db.update(cars).set({ price: 21_000 }).where(eq(cars.id, ids.get('delta-mid')!))],
        ['a new make and model', () => db.update(cars).set({ make: 'Honda', model: 'Jazz' }).where(eq(cars.id, ids.get('delta-mid')!))],
        ['a column no facet counts', () => db.update(cars).set({ description: 'Freshly detailed.' }).where(eq(cars.id, ids.get('delta-cheap')!))],
        ['too few photos for the standing filter', () => db.update(cars).set({ photosCount: 2 }).where(eq(cars.id, ids.get('delta-mid')!))],
        ['hidden from the dealer website', () => db.execute(sql`update cars set show_on_dealer_website = not show_on_dealer_website where slug = 'delta-new'`)],
        ['a coming-soon car', () => site.addCars([{ slug: 'delta-soon', status: 'coming_soon', make: 'Kia', price: 30_000, locationId: yard.id, tag: 'Low kms' }])],
        ['a car deleted', () => db.delete(cars).where(eq(cars.slug, 'delta-soon'))],
        ['a car sold', () => db.update(cars).set({ status: 'sold', soldDate: NOW }).where(eq(cars.slug, 'delta-new'))],
      ];
      for (const [name, change] of changes) {
        const before = await generation();
        await change();
        // The generation the stock index and the page cache read moves with every write to the cars.
        expect(await generation(), name).toBe(before + 1);
        await followed(name);
      }

      // The dearest car is sold: it stays listed for the sold window, so the price range keeps it
      // (delta-mid has too few photos, delta-new is hidden).
      await db.update(cars).set({ status: 'sold', soldDate: NOW }).where(eq(cars.id, ids.get('delta-dear')!));
      const afterSale = await followed('the dearest car sold');
      expect(afterSale.estimatedTotalHits).toBe(2);
      expect(afterSale.facetDistribution.status).toEqual({ in_stock: 1, sold: 1 });
      expect(afterSale.facetStats.price).toEqual({ min: 9_000, max: 45_000 }); // sold cars stay listed for 3 days
    });

    it("follows a change to the website's standing filters", async () => {
      const site = await website('standing-motors');
      await site.addCars([
        { slug: 'st-few', make: 'Toyota', photosCount: 1 },
        { slug: 'st-many', make: 'Mazda', photosCount: 9 },
      ]);
      const tenant = await site.tenant();
      const withFilters = (minPhotos: number | null, makes: string[] = []) =>
        withConfig(tenant, (c) => ({ ...c, search: { ...c.search, defaultFilters: { ...c.search.defaultFilters, minPhotos, makes } } }));
      for (const [config, expected] of [
        [tenant, { Toyota: 1, Mazda: 1 }],
        [withFilters(3), { Mazda: 1 }],
        [withFilters(null, ['TOYOTA']), { Toyota: 1 }],
        [tenant, { Toyota: 1, Mazda: 1 }],
      ] as const) {
        const { index, sql: counted } = await indexAndSql(config);
        expect(counted.facetDistribution.make).toEqual(expected);
        expect(index).toEqual(counted);
      }
    });

    it('answers searches running side by side with changes to the cars', async () => {
      const site = await website('busy-motors');
      await site.addCars([{ slug: 'busy-0' }]);
      const tenant = await site.tenant();
      const work = Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0 ? site.addCars([{ slug: `busy-${i + 1}`, make: i % 2 ? 'Mazda' : 'Kia' }]) : searchInSql(tenant, { facets: [...FACETS] }),
      );
      await Promise.all(work);
      const { index, sql: counted } = await indexAndSql(tenant);
      expect(index).toEqual(counted);
      expect(counted.estimatedTotalHits).toBe(5);
      expect(counted.facetDistribution.make).toEqual({ Toyota: 1, Kia: 2, Mazda: 2 });
    });

    it('adds up several websites in one scope', async () => {
      const engine = new SqlSearchEngine(db);
      const scope = { websiteIds: [facetSite.id, betaSite.id], soldSince: ago(3 * DAY), minPhotos: null, cities: [], makes: [], defaultSort: 'custom_rank:desc' as const };
      const both = await engine.search(scope, { limit: 100, offset: 0, facets: ['make', 'location_name', 'price'] });
      expect(both.estimatedTotalHits).toBe(9);
      expect(both.facetDistribution.make).toEqual({ Toyota: 4, Mazda: 3, Kia: 1, BetaMake: 1 });
      expect(both.facetDistribution.location_name).toEqual({ 'North Yard': 5, 'South Yard': 2, 'Beta Yard': 2 });
      expect(both.facetStats.price).toEqual({ min: 1, max: 9_999_999 });
      const live = await engine.search(scope, { limit: 100, offset: 0, facets: ['make', 'location_name', 'price'], filters: { price: { min: 0 } } });
      expect({ ...both, processingTimeMs: 0 }).toEqual({ ...live, processingTimeMs: 0 });
      const counted = await inSql.search(scope, { limit: 100, offset: 0, facets: ['make', 'location_name', 'price'] });
      expect({ ...both, processingTimeMs: 0 }).toEqual({ ...counted, processingTimeMs: 0 });
    });
  });

  it('returns hits with the fields the search screen needs', async () => {
    const [hit] = (await search(facetSite, { filters: { make_model: ['Kia:Rio'] } })).hits;
    expect(hit).toMatchObject({
      slug: 'rio-blue',
      make: 'Kia',
      model: 'Rio',
      year: 2015,
      km: 100_000,
      price: 12_000,
      subscriptionPrice: 99,
      carType: 'used',
      status: 'in_stock',
      showOnDealerWebsite: true,
      location: { name: 'North Yard', city: 'Sydney' },
      soldDateTimestamp: null,
    });
    expect(typeof hit.createdAtTimestamp).toBe('number');
    expect(Math.abs(hit.createdAtTimestamp - facetCreatedAt[5].getTime())).toBeLessThan(1000);
  });
});
