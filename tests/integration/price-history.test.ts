import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { carPriceChanges, cars } from '@/modules/stock/stock.schema';
import { getCarBySlug } from '@/modules/stock/stock.queries';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { clearDashboardCache } from '@/modules/dashboard/dashboard.cache';
import { callRoute, carBody, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';

/** Issue 35, item 3: every price change is recorded, whatever makes it, and the car page reads them for its own website only. */
describe('price history', () => {
  let db: Db;
  let w: DashboardWorld;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    clearDashboardCache();
    w = await seedDashboardWorld(db);
    a = (await findTenantById(w.a.websiteId))!;
    b = (await findTenantById(w.b.websiteId))!;
  });

  const put = (site: DashboardWorld['a'], slug: string, body: unknown) =>
    callRoute(carRoute.PUT, { websiteId: String(site.websiteId), slug: `${slug}.json` }, { method: 'PUT', key: site.key, body });
  const changesOf = (carId: number) =>
    db.select({ websiteId: carPriceChanges.websiteId, oldPrice: carPriceChanges.oldPrice, newPrice: carPriceChanges.newPrice }).from(carPriceChanges).where(eq(carPriceChanges.carId, carId)).orderBy(carPriceChanges.id);

  it('records a price changed through the Dashboard API, with the price before, and the car page lists it', async () => {
    expect((await put(w.a, 'history-corolla', carBody({ price: 27_990, location_id: w.a.salesLocationId }))).status).toBe(201);
    const created = await getCarBySlug(a, 'history-corolla');
    expect(created?.priceChanges).toEqual([]);

    const before = Date.now();
    expect((await put(w.a, 'history-corolla', carBody({ price: 25_990, location_id: w.a.salesLocationId }))).status).toBe(200);
    const car = await getCarBySlug(a, 'history-corolla');
    expect(await changesOf(car!.id)).toEqual([{ websiteId: w.a.websiteId, oldPrice: 27_990, newPrice: 25_990 }]);
    expect(car!.priceChanges).toEqual([{ at: expect.any(Number), from: 27_990, to: 25_990 }]);
    expect(car!.priceChanges[0].at).toBeGreaterThanOrEqual(before - 1_000);
    expect(car!.priceChanges[0].at).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('records nothing when an update leaves the price as it was', async () => {
    const car = await getCarBySlug(a, 'history-corolla');
    expect((await put(w.a, 'history-corolla', carBody({ price: 25_990, km: 43_000, location_id: w.a.salesLocationId }))).status).toBe(200);
    expect(await changesOf(car!.id)).toHaveLength(1);
  });

  it('records a change made outside the API too (an import or a script updating many cars in one statement): one row per car', async () => {
    expect((await put(w.a, 'history-yaris', carBody({ model: 'Yaris', price: 19_990, location_id: w.a.salesLocationId }))).status).toBe(201);
    const ids = (await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, w.a.websiteId), sql`${cars.slug} in ('history-corolla', 'history-yaris')`))).map((row) => row.id);
    await db.update(cars).set({ price: sql`${cars.price} - 500` }).where(sql`${cars.id} in (${sql.join(ids, sql`, `)})`);
    const corolla = await getCarBySlug(a, 'history-corolla');
    const yaris = await getCarBySlug(a, 'history-yaris');
    expect(corolla!.priceChanges.map(({ from, to }) => [from, to])).toEqual([
      [25_990, 25_490],
      [27_990, 25_990],
    ]);
    expect(yaris!.priceChanges.map(({ from, to }) => [from, to])).toEqual([[19_990, 19_490]]);
  });

  it('keeps each website’s history to its own cars: the same slug on another website has its own, and A’s car is not found on B', async () => {
    expect((await put(w.b, 'history-corolla', carBody({ price: 40_000, location_id: w.b.salesLocationId }))).status).toBe(201);
    expect((await put(w.b, 'history-corolla', carBody({ price: 41_000, location_id: w.b.salesLocationId }))).status).toBe(200);
    const onB = await getCarBySlug(b, 'history-corolla');
    expect(onB!.priceChanges.map(({ from, to }) => [from, to])).toEqual([[40_000, 41_000]]);
    expect(await changesOf(onB!.id)).toEqual([{ websiteId: w.b.websiteId, oldPrice: 40_000, newPrice: 41_000 }]);
    expect(await getCarBySlug(b, 'history-yaris')).toBeNull();
    const onA = await getCarBySlug(a, 'history-corolla');
    expect(onA!.priceChanges).toHaveLength(2);
  });

  it('lists the newest change first', async () => {
    const car = await getCarBySlug(a, 'history-corolla');
    expect(car!.priceChanges[0].at).toBeGreaterThanOrEqual(car!.priceChanges[1].at);
    expect(car!.priceChanges[0]).toMatchObject({ from: 25_990, to: 25_490 });
  });
});
