import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';
import { carBody } from '@/modules/dashboard/dashboard.test-support';
import { POST as lookup } from '@/app/api/nevdis/route';
import { POST as estimate } from '@/app/api/simple-autograb-lookup/route';
import { upsertCar } from '@/modules/stock/stock.commands';
import { carInputSchema } from '@/modules/stock/stock.validation';
import { cars } from '@/modules/stock/stock.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { VEHICLE_LIMITS } from '@/modules/vehicles/vehicles.service';
import { VEHICLE_MESSAGES } from '@/modules/vehicles/vehicles.validation';
import { VIN_MESSAGES } from '@/modules/vehicles/vin';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';

let ip = 0;
const nextIp = () => `192.0.2.${(ip += 1) % 250}`;

describe('vehicle lookups and estimates', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
    // Mazda CX-5s on both websites: 2019–2021 listed, one hidden, one sold long ago, one sold lately.
    const add = async (site: LeadWorld['a'], slug: string, fields: Record<string, unknown>) =>
      upsertCar(site.tenant, site.dealershipId, slug, carInputSchema.parse(carBody({ make: 'Mazda', model: 'CX-5', location_id: site.salesLocationId, ...fields })));
    await add(w.a, 'cx5-1', { year: 2020, km: 50_000, price: 30_000 });
    await add(w.a, 'cx5-2', { year: 2020, km: 70_000, price: 28_000 });
    await add(w.b, 'cx5-3', { year: 2021, km: 40_000, price: 34_000 });
    await add(w.b, 'cx5-4', { year: 2019, km: 80_000, price: 25_000 });
    await add(w.a, 'cx5-hidden', { year: 2020, km: 60_000, price: 90_000, show_on_dealer_website: false });
    await add(w.a, 'cx5-sold-long-ago', { year: 2020, km: 60_000, price: 95_000, status: 'sold' });
    await db.update(cars).set({ soldDate: new Date(Date.now() - 400 * 86_400_000) }).where(eq(cars.slug, 'cx5-sold-long-ago'));
  });

  const post = (handler: typeof lookup, body: unknown, address = nextIp(), host = w.hostA) =>
    callLeadRoute(handler, { host, body, headers: { [CLIENT_ADDRESS_HEADER]: address } });

  describe('POST /api/nevdis', () => {
    it('decodes a VIN offline from the vPIC data', async () => {
      const response = await post(lookup, { vin: '1hgcm82633a004352' });
      expect(response.status).toBe(200);
      const { vehicle } = (await response.json()) as { vehicle: Record<string, unknown> };
      expect(vehicle).toMatchObject({ vin: '1HGCM82633A004352', make: 'Honda', model: 'Accord', year: 2003 });
    });

    it('knows at least the maker of an Australian-delivered Toyota', async () => {
      const { vehicle } = (await (await post(lookup, { vin: 'JTMBFREV10D123456' })).json()) as { vehicle: { make: string } | null };
      expect(vehicle?.make).toBe('Toyota');
    });

    it('refuses a VIN whose check digit fails where it applies, naming the field', async () => {
      const response = await post(lookup, { vin: '1HGCM82634A004352' });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { fields: Record<string, string> }).fields.vin).toBe(VIN_MESSAGES.checkDigit);
    });

    it('answers a registration, which cannot be resolved offline, with what to do', async () => {
      const response = await post(lookup, { rego: 'abc 123', state: 'NSW' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ vehicle: null, message: VEHICLE_MESSAGES.registrationOffline });
    });

    it('answers malformed and hostile bodies with 4xx, never 5xx', async () => {
      const bodies: unknown[] = [
        {}, { rego: 'ABC123' }, { state: 'NSW' }, { vin: 'x'.repeat(5000) }, { vin: 42 }, { vin: ['1HGCM82633A004352'] },
        { rego: 'ABC\u0000123', state: 'NSW' }, { rego: 'ABC123', state: 'XX' }, { vin: '1HGCM82633A004352', rego: 'ABC1', state: 'NSW' },
        { __proto__: { vin: '1HGCM82633A004352' } }, { constructor: 'x' }, null, [], 'vin',
      ];
      for (const body of bodies) {
        const status = (await post(lookup, body)).status;
        expect(status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(status, JSON.stringify(body)).toBeLessThan(500);
      }
      const text = await callLeadRoute(lookup, { host: w.hostA, rawBody: 'vin=1', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
    });

    it('limits lookups per client address (they cost money with a provider)', async () => {
      const address = '192.0.2.251';
      let last: Response | undefined;
      for (let i = 0; i <= VEHICLE_LIMITS.lookupsPerIpPerHour; i += 1) last = await post(lookup, { rego: 'ABC123', state: 'VIC' }, address);
      expect(last!.status).toBe(429);
      expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await post(lookup, { rego: 'ABC123', state: 'VIC' }, '192.0.2.252')).status).toBe(200);
    });

    it('answers on a website host only', async () => {
      expect((await post(lookup, { vin: '1HGCM82633A004352' }, nextIp(), 'nowhere.localhost')).status).toBe(404);
    });
  });

  describe('POST /api/simple-autograb-lookup', () => {
    type Answer = { ok: boolean; source: string; comparables: number; retail?: { low: number; median: number; high: number }; tradeIn?: { median: number }; reason?: string };

    it('estimates from listed and recently sold comparables of every website in the currency, never hidden or long-sold ones', async () => {
      const response = await post(estimate, { make: 'mazda', model: 'cx-5', year: 2020, km: 60_000, state: 'NSW' });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Answer;
      expect(body).toMatchObject({ ok: true, source: 'comparables', comparables: 4 });
      // The hidden and long-sold cars (90,000 and 95,000) would pull the median far up.
      expect(body.retail!.median).toBeGreaterThan(26_000);
      expect(body.retail!.median).toBeLessThan(32_000);
      expect(body.tradeIn!.median).toBe(Math.round((body.retail!.median * 0.85) / 100) * 100);
    });

    it('leaves out websites that price in another currency', async () => {
      const [b] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.b.websiteId));
      await db.update(websites).set({ config: { ...b.config, currency: 'NZD' } }).where(eq(websites.id, w.b.websiteId));
      try {
        const body = (await (await post(estimate, { make: 'Mazda', model: 'CX-5', year: 2020, km: 60_000 })).json()) as Answer;
        expect(body).toMatchObject({ ok: false, reason: 'not enough data', comparables: 2 });
      } finally {
        await db.update(websites).set({ config: b.config }).where(eq(websites.id, w.b.websiteId));
      }
    });

    it('says not enough data rather than guessing', async () => {
      const body = (await (await post(estimate, { make: 'Mazda', model: 'MX-5', year: 2020, km: 10_000 })).json()) as Answer;
      expect(body).toEqual({ ok: false, reason: 'not enough data', comparables: 0, source: 'comparables' });
    });

    it('answers malformed and hostile bodies with 4xx', async () => {
      for (const body of [{}, { make: 'Mazda' }, { make: 'Mazda', model: 'CX-5', year: 'new', km: 1 }, { make: '<script>', model: 'x', year: 2020, km: 1 }, { make: 'Mazda', model: 'CX-5', year: 2020, km: -1 }, { make: 'Mazda', model: 'CX-5', year: 2020, km: 1, extra: 1 }]) {
        const status = (await post(estimate, body)).status;
        expect(status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(status).toBeLessThan(500);
      }
    });
  });

  it('keeps the fixture honest: the hidden comparable exists', async () => {
    expect(await db.select().from(cars).where(and(eq(cars.slug, 'cx5-hidden'), eq(cars.showOnDealerWebsite, false)))).toHaveLength(1);
  });
});
