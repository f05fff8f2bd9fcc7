import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { carImages, cars } from '@/modules/stock/stock.schema';
import { clearDashboardCache } from '@/modules/dashboard/dashboard.cache';
import { callRoute, carBody, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';

describe('Dashboard API cars: PUT, GET, DELETE', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    clearDashboardCache();
    w = await seedDashboardWorld(db);
  });

  const params = (slug: string) => ({ websiteId: String(w.a.websiteId), slug: `${slug}.json` });
  const get = (slug: string, headers: Record<string, string> = {}) => callRoute(carRoute.GET, params(slug), { key: w.a.key, headers });
  const put = (slug: string, body: unknown) => callRoute(carRoute.PUT, params(slug), { method: 'PUT', key: w.a.key, body });
  const del = (slug: string) => callRoute(carRoute.DELETE, params(slug), { method: 'DELETE', key: w.a.key });

  it('creates a car with PUT (201) and returns it in the SPEC §3 shape, which GET then answers', async () => {
    const body = carBody({
      name: '2021 Toyota Corolla Ascent',
      stocknum: 'T100',
      vin: 'JTNB23HK603123456',
      status: 'in_stock',
      images: ['https://img.example.com/1.jpg', { url: 'https://img.example.com/2.jpg', thumbnail_url: 'https://img.example.com/2-t.jpg' }],
      file: 'https://reports.example.com/t100.pdf',
      location_id: w.a.salesLocationId,
      payment_processors: [{ authorization_type: 'stripe', authorization_key: 'pk_test_1', deposit_amount: 500 }],
      autograb_data: { average_market_price: 29000, state_average_market_price: 28500 },
      created_at_timestamp: Date.UTC(2026, 9, 1),
    });
    const created = await put('new-corolla', body);
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const car = await created.json();
    expect(car).toMatchObject({
      slug: 'new-corolla',
      name: '2021 Toyota Corolla Ascent',
      make: 'Toyota',
      model: 'Corolla',
      year: 2021,
      price: 27990,
      car_type: 'used',
      status: 'in_stock',
      sold: false,
      sold_date_timestamp: null,
      photos_count: 2,
      primary_image_url: 'https://img.example.com/1.jpg',
      images: [{ image: { url: 'https://img.example.com/1.jpg' } }, { image: { url: 'https://img.example.com/2.jpg' } }],
      thumbnails: ['https://img.example.com/1.jpg', 'https://img.example.com/2-t.jpg'],
      file: 'https://reports.example.com/t100.pdf',
      dealership_id: w.a.dealershipId,
      dealership_slug: 'alpha-motors-dealer',
      location_id: w.a.salesLocationId,
      location: { name: 'alpha-motors Sales', phone: '02 9999 0000', slug: 'alpha-motors-sales', distribution_locations: [] },
      payment_processors: [{ authorization_type: 'stripe', authorization_key: 'pk_test_1', deposit_amount: 500 }],
      has_checkout_payment_processor: true,
      autograb_data: { average_market_price: 29000, state_average_market_price: 28500 },
      created_at_timestamp: Date.UTC(2026, 9, 1),
      created_at: '2026-10-01T00:00:00.000Z',
      show_on_dealer_website: true,
    });
    expect(typeof car.id).toBe('number');

    const fetched = await get('new-corolla');
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(car);
  });

  it('replaces the car with a second PUT (200): images replaced, photos_count follows, created_at kept', async () => {
    const before = await (await get('new-corolla')).json();
    const updated = await put('new-corolla', carBody({ price: 25990, images: ['https://img.example.com/3.jpg'], location_id: w.a.salesLocationId }));
    expect(updated.status).toBe(200);
    const car = await updated.json();
    expect(car.id).toBe(before.id);
    expect(car.price).toBe(25990);
    expect(car.photos_count).toBe(1);
    expect(car.images).toEqual([{ image: { url: 'https://img.example.com/3.jpg' } }]);
    expect(car.created_at_timestamp).toBe(before.created_at_timestamp);
    // PUT replaces: what was not sent is back to its default.
    expect(car.payment_processors).toEqual([]);
    expect(car.has_checkout_payment_processor).toBe(false);
    expect(car.autograb_data).toBeNull();
    const rows = await db.select().from(carImages).where(eq(carImages.carId, car.id));
    expect(rows.map((r) => r.url)).toEqual(['https://img.example.com/3.jpg']);
  });

  it('marks a car sold with a sold date in milliseconds, and keeps that date on a later PUT', async () => {
    const sold = await (await put('sold-car', carBody({ status: 'sold' }))).json();
    expect(sold.sold).toBe(true);
    expect(sold.status).toBe('sold');
    expect(Math.abs(sold.sold_date_timestamp - Date.now())).toBeLessThan(60_000);
    const again = await (await put('sold-car', carBody({ sold: true, price: 1000 }))).json();
    expect(again.sold_date_timestamp).toBe(sold.sold_date_timestamp);
    const relisted = await (await put('sold-car', carBody({ status: 'in_stock' }))).json();
    expect(relisted.sold).toBe(false);
    expect(relisted.sold_date_timestamp).toBeNull();
  });

  it('withdraws a car with DELETE (204): GET then answers 404, the row stays with show_on_dealer_website false', async () => {
    await put('to-withdraw', carBody());
    const deleted = await del('to-withdraw');
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await get('to-withdraw')).status).toBe(404);
    const [row] = await db.select().from(cars).where(and(eq(cars.websiteId, w.a.websiteId), eq(cars.slug, 'to-withdraw')));
    expect(row.showOnDealerWebsite).toBe(false);
    // A second DELETE and a DELETE of an unknown car: 404.
    expect((await del('to-withdraw')).status).toBe(404);
    expect((await del('never-existed')).status).toBe(404);
    // PUT lists it again, as the same car (200, same id).
    const relisted = await put('to-withdraw', carBody());
    expect(relisted.status).toBe(200);
    expect((await relisted.json()).id).toBe(row.id);
    expect((await get('to-withdraw')).status).toBe(200);
  });

  it('answers 404 for a path segment without .json, and for a slug with other characters', async () => {
    expect((await callRoute(carRoute.GET, { websiteId: String(w.a.websiteId), slug: 'a-corolla-1' }, { key: w.a.key })).status).toBe(404);
    expect((await get('a-corolla-1')).status).toBe(200);
    expect((await get('abc$%')).status).toBe(404);
    expect((await get('a-corolla-1.json')).status).toBe(404);
  });
});

describe('Dashboard API cars: ETag, 304 and the stock-version cache', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    clearDashboardCache();
    w = await seedDashboardWorld(db);
  });

  const params = (slug: string) => ({ websiteId: String(w.a.websiteId), slug: `${slug}.json` });
  const get = (slug: string, headers: Record<string, string> = {}) => callRoute(carRoute.GET, params(slug), { key: w.a.key, headers });
  const stockVersion = async (websiteId: number) =>
    (await db.select({ v: websites.stockVersion }).from(websites).where(eq(websites.id, websiteId)))[0].v;

  it('answers with an ETag and revalidation headers, and 304 with no body to a matching If-None-Match', async () => {
    const first = await get('a-corolla-1');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"w\d+-s\d+"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=0, must-revalidate');
    const again = await get('a-corolla-1', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get('a-corolla-1', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get('a-corolla-1', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('bumps stock_version in the same transaction as a PUT, so the next GET has the new data and a new ETag', async () => {
    const before = await get('a-corolla-1');
    const etag = before.headers.get('etag')!;
    expect((await before.json()).price).toBe(27990);
    const versionBefore = await stockVersion(w.a.websiteId);
    const versionOfB = await stockVersion(w.b.websiteId);

    const put = await callRoute(carRoute.PUT, params('a-corolla-1'), { method: 'PUT', key: w.a.key, body: carBody({ price: 19990 }) });
    expect(put.status).toBe(200);
    expect(await stockVersion(w.a.websiteId)).toBe(versionBefore + 1);
    expect(await stockVersion(w.b.websiteId)).toBe(versionOfB);
    expect(put.headers.get('etag')).not.toBe(etag);

    const after = await get('a-corolla-1', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).toBe(put.headers.get('etag'));
    expect((await after.json()).price).toBe(19990);
  });

  it('serves a cached car until the stock version moves (a write that bypasses it is not seen; one that bumps it is)', async () => {
    const first = await (await get('a-camry-1')).json();
    // A write that does not bump the version is invisible to the cache: proof the answer was cached.
    await db.update(cars).set({ price: 1 }).where(and(eq(cars.websiteId, w.a.websiteId), eq(cars.slug, 'a-camry-1')));
    expect((await (await get('a-camry-1')).json()).price).toBe(first.price);
    // Any stock change of the website (here another car) bumps the version and the next GET re-reads.
    await callRoute(carRoute.DELETE, params('a-camry-2'), { method: 'DELETE', key: w.a.key });
    expect((await (await get('a-camry-1')).json()).price).toBe(1);
  });

  it('caches a miss too, and a PUT of that slug makes it found', async () => {
    expect((await get('arrives-later')).status).toBe(404);
    const etagless = await get('arrives-later');
    expect(etagless.status).toBe(404);
    await callRoute(carRoute.PUT, params('arrives-later'), { method: 'PUT', key: w.a.key, body: carBody() });
    expect((await get('arrives-later')).status).toBe(200);
  });

  it("does not change website B's ETag when A's stock changes", async () => {
    const bParams = { websiteId: String(w.b.websiteId), slug: 'b-hilux-1.json' };
    const bEtag = (await callRoute(carRoute.GET, bParams, { key: w.b.key })).headers.get('etag')!;
    await callRoute(carRoute.PUT, params('another'), { method: 'PUT', key: w.a.key, body: carBody() });
    const again = await callRoute(carRoute.GET, bParams, { key: w.b.key, headers: { 'if-none-match': bEtag } });
    expect(again.status).toBe(304);
  });
});
