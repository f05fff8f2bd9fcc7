import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { carImages, cars } from '@/modules/stock/stock.schema';
import type { WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { getCarBySlug, getFeaturedCars } from '@/modules/stock/stock.queries';
import { searchStock } from '@/modules/stock/search/search.service';
import { pageCount } from '@/modules/stock/search/search.types';
import type { CarType } from '@/modules/stock/stock.types';

/** The stock list as the search page asks the engine for it. */
async function listVisibleCars(tenant: Tenant, options: { q?: string; carType?: CarType; page?: number; pageSize?: number }) {
  const page = options.page ?? 1;
  const pageSize = options.pageSize ?? tenant.config.search.pageSize;
  const response = await searchStock(tenant, {
    q: options.q,
    filters: options.carType ? { car_type: [options.carType] } : {},
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return { cars: response.hits, total: response.estimatedTotalHits, page, pages: pageCount(response.estimatedTotalHits, pageSize) };
}

const DAY = 86_400_000;
const now = Date.now();
const ago = (ms: number) => new Date(now - ms);

type CarInput = Partial<typeof cars.$inferInsert> & { slug: string };

describe('stock queries', () => {
  let db: Db;
  let seq = 0;

  async function website(slug: string, config: WebsiteConfigInput = {}) {
    const [site] = await db.insert(websites).values({ slug, name: slug, phone: '02 9000 0000', config }).returning();
    const [dealership] = await db
      .insert(dealerships)
      .values({ websiteId: site.id, slug: `${slug}-dealer`, name: `${slug} dealer`, phone: '02 9111 1111' })
      .returning();
    const [location] = await db
      .insert(locations)
      .values({ websiteId: site.id, dealershipId: dealership.id, name: `${slug} yard`, slug: 'yard', city: 'Sydney', phone: '02 9222 2222' })
      .returning();
    const addCars = async (list: CarInput[]) => {
      const rows = await db
        .insert(cars)
        .values(
          list.map((c) => ({
            websiteId: site.id,
            dealershipId: dealership.id,
            locationId: location.id,
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
    return { site, dealership, location, addCars, tenant };
  }

  const slugsOf = (list: { slug: string }[]) => list.map((c) => c.slug).sort();
  const allOf = async (tenant: Tenant) => (await listVisibleCars(tenant, { page: 1, pageSize: 100 })).cars;

  let alpha: Tenant;
  let beta: Tenant;
  let none: Tenant;
  let filtered: Tenant;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());

    const a = await website('alpha-motors', { search: { defaultSort: 'price:asc' } });
    const ids = await a.addCars([
      { slug: 'in-stock', price: 30_000 },
      { slug: 'coming-soon', status: 'coming_soon', price: 25_000 },
      { slug: 'sold-2-days', status: 'sold', soldDate: ago(2 * DAY), price: 15_000 },
      { slug: 'sold-4-days', status: 'sold', soldDate: ago(4 * DAY) },
      { slug: 'sold-no-date', status: 'sold', soldDate: null },
      { slug: 'hidden', showOnDealerWebsite: false },
      { slug: 'one-photo', photosCount: 1, price: 10_000 },
      { slug: 'new-car', carType: 'new', make: 'Mazda', model: 'CX-5', price: 45_000 },
      { slug: 'demo-car', carType: 'demo', make: 'Mazda', model: 'CX-3', badge: 'Maxx Sport', price: 35_000 },
      { slug: 'ranked', customRank: 10, price: 50_000, stocknum: 'AB123C' },
      { slug: 'wildcard', make: 'Odd%Make_1', model: 'Under_score', price: 12_000 },
      { slug: 'unicode', make: 'Škoda', model: 'Octavia', price: 33_000 },
    ]);
    await db.insert(carImages).values([
      { websiteId: a.site.id, carId: ids.get('in-stock')!, position: 2, url: '/media/cars/b.jpg', width: 1200, height: 900 },
      { websiteId: a.site.id, carId: ids.get('in-stock')!, position: 1, url: '/media/cars/a.jpg', width: 1200, height: 900, alt: 'Front' },
    ]);
    alpha = await a.tenant();

    const b = await website('beta-cars');
    await b.addCars([
      { slug: 'beta-only', make: 'Toyota', model: 'Corolla', customRank: 99 },
      { slug: 'beta-sold', status: 'sold', soldDate: ago(DAY) },
    ]);
    beta = await b.tenant();

    const n = await website('no-sold-motors', { includeSoldCarsDays: 0 });
    await n.addCars([
      { slug: 'n-in-stock' },
      { slug: 'n-sold-today', status: 'sold', soldDate: ago(60_000) },
    ]);
    none = await n.tenant();

    const f = await website('filtered-motors', {
      search: { defaultFilters: { minPhotos: 3, cities: ['Bathurst', 'Cowra'], makes: ['Mazda', 'ŠKODA'] } },
    });
    await f.addCars([
      { slug: 'f-match', make: 'Mazda', city: 'Bathurst', photosCount: 3 },
      { slug: 'f-match-case', make: 'MAZDA', city: 'cowra', photosCount: 8 },
      { slug: 'f-skoda', make: 'ŠKODA', city: 'Cowra', photosCount: 8 },
      { slug: 'f-few-photos', make: 'Mazda', city: 'Bathurst', photosCount: 2 },
      { slug: 'f-wrong-city', make: 'Mazda', city: 'Orange', photosCount: 8 },
      { slug: 'f-no-city', make: 'Mazda', city: null, photosCount: 8 },
      { slug: 'f-wrong-make', make: 'Toyota', city: 'Bathurst', photosCount: 8 },
    ]);
    filtered = await f.tenant();
  });

  describe('visibility', () => {
    it('lists available cars and cars sold within the window, never hidden ones', async () => {
      const slugs = slugsOf(await allOf(alpha));
      expect(slugs).toContain('in-stock');
      expect(slugs).toContain('coming-soon');
      expect(slugs).toContain('sold-2-days');
      expect(slugs).not.toContain('sold-4-days');
      expect(slugs).not.toContain('sold-no-date');
      expect(slugs).not.toContain('hidden');
    });

    it('lists no sold car when includeSoldCarsDays is 0', async () => {
      expect(slugsOf(await allOf(none))).toEqual(['n-in-stock']);
      expect(await getCarBySlug(none, 'n-sold-today')).toBeNull();
    });

    it('gives a car page only for listed cars', async () => {
      expect((await getCarBySlug(alpha, 'sold-2-days'))?.status).toBe('sold');
      expect(await getCarBySlug(alpha, 'sold-4-days')).toBeNull();
      expect(await getCarBySlug(alpha, 'hidden')).toBeNull();
      expect(await getCarBySlug(alpha, 'no-such-car')).toBeNull();
    });

    it('applies the website default filters: minimum photos, cities and makes, ignoring case', async () => {
      expect(slugsOf(await allOf(filtered))).toEqual(['f-match', 'f-match-case', 'f-skoda']);
      expect(await getCarBySlug(filtered, 'f-few-photos')).toBeNull();
      expect((await getCarBySlug(filtered, 'f-match'))?.slug).toBe('f-match');
    });
  });

  describe('featured cars', () => {
    it('takes listed in-stock used cars with more than one photo, highest rank first, then newest', async () => {
      const featured = await getFeaturedCars(alpha);
      const slugs = featured.map((c) => c.slug);
      expect(slugs[0]).toBe('ranked');
      expect(slugs).not.toContain('one-photo');
      expect(slugs).not.toContain('new-car');
      expect(slugs).not.toContain('demo-car');
      expect(slugs).not.toContain('coming-soon');
      expect(slugs).not.toContain('sold-2-days');
      expect(slugs).not.toContain('hidden');
      expect(slugs).not.toContain('beta-only');
      // Same rank: newest first (cars were inserted with increasing age).
      expect(slugs.slice(1)).toEqual(['in-stock', 'wildcard', 'unicode']);
    });

    it('stops at the limit, 6 by default', async () => {
      const d = await website('many-motors');
      await d.addCars(Array.from({ length: 8 }, (_, i) => ({ slug: `many-${i}` })));
      const many = await d.tenant();
      expect(await getFeaturedCars(many)).toHaveLength(6);
      expect(await getFeaturedCars(many, 2)).toHaveLength(2);
    });

    it('gives the first photo when the car has no primary image', async () => {
      const featured = await getFeaturedCars(alpha);
      expect(featured.find((c) => c.slug === 'in-stock')?.image?.url).toBe('/media/cars/a.jpg');
      expect(featured.find((c) => c.slug === 'ranked')?.image).toBeNull();
      expect(featured.find((c) => c.slug === 'in-stock')?.location).toEqual({ name: 'alpha-motors yard', slug: 'yard', city: 'Sydney' });
    });
  });

  describe('car page', () => {
    it('returns the detail with photos in order, location and phone', async () => {
      const car = await getCarBySlug(alpha, 'in-stock');
      expect(car).toMatchObject({ slug: 'in-stock', price: 30_000, carType: 'used', phone: '02 9222 2222' });
      expect(car?.images.map((i) => i.url)).toEqual(['/media/cars/a.jpg', '/media/cars/b.jpg']);
      expect(car?.images.map((i) => i.alt)).toEqual(['Front', 'Car in-stock, photo 2']);
      expect(car?.location?.name).toBe('alpha-motors yard');
      expect(typeof car?.createdAtTimestamp).toBe('number');
    });

    it('refuses malformed slugs before any query', async () => {
      for (const slug of ['', 'abc$%', "in-stock' or '1'='1", 'in-stock;--', '../in-stock', 'in stock', 'a'.repeat(300)]) {
        expect(await getCarBySlug(alpha, slug)).toBeNull();
      }
    });
  });

  describe('cross-tenant', () => {
    it("never returns another website's car by slug", async () => {
      expect(await getCarBySlug(alpha, 'beta-only')).toBeNull();
      expect(await getCarBySlug(beta, 'in-stock')).toBeNull();
      expect((await getCarBySlug(beta, 'beta-only'))?.slug).toBe('beta-only');
    });

    it("never lists another website's car, whatever the query", async () => {
      for (const q of [undefined, 'Toyota', 'Corolla', '%', "' or 1=1 --"]) {
        const alphaList = await listVisibleCars(alpha, { q, page: 1, pageSize: 100 });
        expect(slugsOf(alphaList.cars).filter((s) => s.startsWith('beta'))).toEqual([]);
        const betaList = await listVisibleCars(beta, { q, page: 1, pageSize: 100 });
        expect(betaList.cars.every((c) => c.slug.startsWith('beta'))).toBe(true);
      }
      expect(slugsOf(await allOf(beta))).toEqual(['beta-only', 'beta-sold']);
    });
  });

  describe('stock list', () => {
    it('sorts by the website default sort and pages with pages = ceil(total / pageSize)', async () => {
      const all = await allOf(alpha);
      expect(all.map((c) => c.price)).toEqual([...all.map((c) => c.price)].sort((x, y) => x - y));
      const total = all.length;
      const first = await listVisibleCars(alpha, { page: 1, pageSize: 3 });
      expect(first).toMatchObject({ total, page: 1, pages: Math.ceil(total / 3) });
      expect(first.cars).toHaveLength(3);
      const last = await listVisibleCars(alpha, { page: first.pages, pageSize: 3 });
      expect(last.cars).toHaveLength(total - 3 * (first.pages - 1));
      const seen = new Set<string>();
      for (let page = 1; page <= first.pages; page++) {
        for (const c of (await listVisibleCars(alpha, { page, pageSize: 3 })).cars) seen.add(c.slug);
      }
      expect(seen.size).toBe(total);
      expect((await listVisibleCars(alpha, { page: 99, pageSize: 3 })).cars).toEqual([]);
    });

    it('sorts by custom rank by default', async () => {
      const ranked = await listVisibleCars((await findTenantById(beta.id))!, { page: 1 });
      expect(ranked.cars[0].slug).toBe('beta-only');
      const alphaDefault = { ...alpha, config: { ...alpha.config, search: { ...alpha.config.search, defaultSort: 'custom_rank:desc' as const } } };
      expect((await listVisibleCars(alphaDefault, { page: 1 })).cars[0].slug).toBe('ranked');
    });

    it('uses the website page size when none is given', async () => {
      const small = { ...alpha, config: { ...alpha.config, search: { ...alpha.config.search, pageSize: 2 } } };
      const list = await listVisibleCars(small, { page: 1 });
      expect(list.cars).toHaveLength(2);
      expect(list.pages).toBe(Math.ceil(list.total / 2));
    });

    it('presets the car type', async () => {
      expect(slugsOf((await listVisibleCars(alpha, { carType: 'new', page: 1 })).cars)).toEqual(['new-car']);
      expect(slugsOf((await listVisibleCars(alpha, { carType: 'demo', page: 1 })).cars)).toEqual(['demo-car']);
      const used = await listVisibleCars(alpha, { carType: 'used', page: 1 });
      expect(used.cars.every((c) => c.carType === 'used')).toBe(true);
    });

    it('matches q against make, model, badge and stock number, case-insensitively, every word', async () => {
      const find = async (q: string) => slugsOf((await listVisibleCars(alpha, { q, page: 1, pageSize: 100 })).cars);
      expect(await find('mazda')).toEqual(['demo-car', 'new-car']);
      expect(await find('cx-5')).toEqual(['new-car']);
      expect(await find('maxx SPORT')).toEqual(['demo-car']);
      expect(await find('ab123c')).toEqual(['ranked']);
      expect(await find('mazda cx-3')).toEqual(['demo-car']);
      expect(await find('"mazda"')).toEqual(['demo-car', 'new-car']);
      expect(await find('  ')).toHaveLength((await allOf(alpha)).length);
    });

    it('treats hostile q values as plain text', async () => {
      const find = async (q: string) => listVisibleCars(alpha, { q, page: 1, pageSize: 100 });
      expect((await find('%')).cars.map((c) => c.slug)).toEqual(['wildcard']);
      expect((await find('_')).cars.map((c) => c.slug)).toEqual(['wildcard']);
      expect((await find('d%M')).cars.map((c) => c.slug)).toEqual(['wildcard']);
      expect((await find('\\')).total).toBe(0);
      for (const q of [
        "'; drop table cars; --",
        "' or '1'='1",
        '1) or (1=1',
        '$1',
        '\u0000',
        'a\u0000b',
        '\ud800',
        '🚗 Škoda',
        'x'.repeat(10_240),
        'Toyota '.repeat(2_000),
      ]) {
        const result = await find(q);
        expect(result.total).toBe(result.cars.length);
        expect(result.cars.every((c) => !c.slug.startsWith('beta'))).toBe(true);
      }
      expect((await find("'; drop table cars; --")).total).toBe(0);
      expect((await find('Octavia')).cars.map((c) => c.slug)).toEqual(['unicode']);
      expect((await allOf(alpha)).length).toBeGreaterThan(5);
    });
  });
});
