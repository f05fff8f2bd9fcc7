import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as sendRoute } from '@/app/api/phone-codes/route';
import { POST as verifyRoute } from '@/app/api/phone-codes/verify/route';
import { POST as rateLimitRoute } from '@/app/api/rate-limit/route';
import { POST as lookupRoute } from '@/app/api/nevdis/route';
import { sendPhoneCode } from '@/modules/identity/identity.codes';
import { CODE_MESSAGES } from '@/modules/identity/identity.validation';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';
import { locations } from '@/modules/locations/locations.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { feedResponse } from '@/modules/feeds/feeds.route';
import { lookupVehicle } from '@/modules/vehicles/vehicles.service';
import { VEHICLE_MESSAGES } from '@/modules/vehicles/vehicles.validation';
import { rateLimits } from '@/modules/leads/leads.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { env } from '@/lib/env';

/**
 * Issue 33 item 5: the abuse limits across the platform, at the routes, across websites. Limits
 * are decision 029's (3 codes per phone an hour, 10 per client address an hour, a resend after 30 s).
 */

let counter = 0;
/** A fresh Australian mobile number per call. */
const mobile = () => `0413 ${String(100 + (counter += 1)).padStart(3, '0')} ${String(600 + counter).slice(-3)}`;
const e164 = (local: string) => `+61${local.replace(/\s/g, '').slice(1)}`;
const freshAddress = () => `203.0.113.${(counter += 1) % 250}`;

describe('abuse limits across the platform', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  const post = (handler: typeof sendRoute, host: string, body: unknown, ip = freshAddress()) => callLeadRoute(handler, { host, body, headers: { [CLIENT_ADDRESS_HEADER]: ip } });
  const smsTo = async (phone: string) => (await db.select().from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms'))).filter((r) => r.payload.kind === 'sms' && r.payload.to === e164(phone));

  describe('SMS limits count every website together', () => {
    it('a phone gets one code per 30 s whichever website asks: the second website is refused', async () => {
      const phone = mobile();
      expect((await post(sendRoute, w.hostA, { phone })).status).toBe(200);
      const second = await post(sendRoute, w.hostB, { phone });
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ error: CODE_MESSAGES.rateLimit });
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      // /api/rate-limit says the same on either website.
      expect((await post(rateLimitRoute, w.hostB, { phone })).status).toBe(429);
      expect(await smsTo(phone)).toHaveLength(1);
    });

    it('a phone gets 3 codes an hour in all, alternating between websites', async () => {
      const phone = mobile();
      const t = Date.now();
      const send = (tenant: LeadWorld['a']['tenant'], at: number) => sendPhoneCode(tenant, { phone }, null, undefined, at).then(() => 200, (e: { status?: number }) => e.status ?? 500);
      const statuses = [await send(w.a.tenant, t), await send(w.b.tenant, t + 31_000), await send(w.a.tenant, t + 62_000), await send(w.b.tenant, t + 93_000)];
      expect(statuses).toEqual([200, 200, 200, 429]);
    });

    it('a client address gets 10 codes an hour in all: 5 on one website and 5 on another use it up', async () => {
      const ip = '198.51.100.33';
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) statuses.push((await post(sendRoute, i < 5 ? w.hostA : w.hostB, { phone: mobile() }, ip)).status);
      expect(statuses).toEqual(Array<number>(10).fill(200));
      const eleventh = await post(sendRoute, w.hostB, { phone: mobile() }, ip);
      expect(eleventh.status).toBe(429);
      expect(await eleventh.json()).toMatchObject({ error: CODE_MESSAGES.rateLimit });
    });
  });

  it('phone-code routes answer 404 where the website has neither sign-in nor instant finance, and send nothing', async () => {
    const [before] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.b.websiteId));
    const setConfig = (config: Record<string, unknown>) => db.update(websites).set({ config: { ...before.config, ...config } }).where(eq(websites.id, w.b.websiteId));
    try {
      await setConfig({ finance: { instantQuote: false }, phoneSignIn: { enabled: false } });
      const phone = mobile();
      for (const [handler, body] of [
        [sendRoute, { phone }],
        [verifyRoute, { phone, code: '123456' }],
        [rateLimitRoute, { phone }],
      ] as const) {
        expect((await post(handler, w.hostB, body)).status).toBe(404);
      }
      expect(await smsTo(phone)).toHaveLength(0);
      // Sign-in alone is enough to send codes.
      await setConfig({ finance: { instantQuote: false }, phoneSignIn: { enabled: true } });
      expect((await post(sendRoute, w.hostB, { phone })).status).toBe(200);
    } finally {
      await db.update(websites).set({ config: before.config }).where(eq(websites.id, w.b.websiteId));
    }
  });

  it('a Host header with userinfo, a path or junk is refused with 400, never matched to a website', async () => {
    for (const host of [`${w.hostA}:80@evil.example`, `${w.hostA}:80/x`, `${w.hostA}:x`, `${w.hostA}:80:81`, `[::1]junk`]) {
      // The URL a server builds from such a Host cannot be a Request's (it has credentials): only the header carries it.
      const request = new Request('http://server.invalid/api/phone-codes', { method: 'POST', headers: { host, 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: freshAddress() }, body: JSON.stringify({ phone: mobile() }) });
      const response = await sendRoute(request, { params: Promise.resolve({}) });
      expect(response.status, host).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'Bad request: the Host header is not a host name', fields: { host: 'is not a host name' } });
    }
    // A port alone is the website.
    expect((await callLeadRoute(rateLimitRoute, { host: `${w.hostA}:3000`, body: { phone: mobile() } })).status).toBe(200);
  });

  it('{slug}.localhost names a website only in demo mode', async () => {
    const settings = env();
    const demo = settings.demoMode;
    try {
      settings.demoMode = false;
      expect((await post(rateLimitRoute, w.hostA, { phone: mobile() })).status).toBe(404);
      expect((await feedResponse(w.hostA, 'meta-vehicles.csv')).status).toBe(404);
      settings.demoMode = true;
      expect((await post(rateLimitRoute, w.hostA, { phone: mobile() })).status).toBe(200);
    } finally {
      settings.demoMode = demo;
    }
  });

  it('the CSV feed neutralises cells that would start a formula, and keeps plain (negative) numbers', async () => {
    const hostile = { name: '=HYPERLINK("http://evil.example","Click")', make: '@SUM(1+1)', model: '+cmd|\' /C calc\'!A0', colour: '-2+3', primaryImageUrl: '/media/a.jpg' };
    const [car] = await db.select().from(cars).where(eq(cars.id, w.carA));
    await db.update(cars).set(hostile).where(eq(cars.id, w.carA));
    await db.update(locations).set({ lat: -33.8688, long: 151.2093, phone: '+61 2 9999 0000' }).where(eq(locations.id, w.a.salesLocationId));
    try {
      const response = await feedResponse(w.hostA, 'meta-vehicles.csv');
      expect(response.status).toBe(200);
      const [header, ...rows] = parse(await response.text()) as string[][];
      const row = Object.fromEntries(header.map((name, i) => [name, rows.find((r) => r[0] === String(w.carA))![i]]));
      expect(row).toMatchObject({
        title: `'${hostile.name}`,
        make: `'${hostile.make}`,
        model: `'${hostile.model}`,
        exterior_color: `'${hostile.colour}`,
        dealer_phone: "'+61 2 9999 0000",
        latitude: '-33.8688',
        longitude: '151.2093',
      });
      for (const cells of rows) for (const cell of cells) expect(cell, cell).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/);
    } finally {
      await db.update(cars).set({ name: car.name, make: car.make, model: car.model, colour: car.colour, primaryImageUrl: car.primaryImageUrl }).where(eq(cars.id, w.carA));
    }
  });

  describe('VIN decodes', () => {
    const siteQuota = (websiteId: number) => `vehicle-lookup-site:${websiteId}`;
    const quotaUsed = async (websiteId: number) => (await db.select().from(rateLimits).where(eq(rateLimits.key, siteQuota(websiteId))))[0]?.points ?? 0;

    it('an offline decode costs no provider quota, and answers while the quota is used up', async () => {
      for (let i = 0; i < 3; i += 1) expect((await post(lookupRoute, w.hostB, { vin: '1HGCM82633A004352' })).status).toBe(200);
      expect(await quotaUsed(w.b.websiteId)).toBe(0);
      // The website's daily quota of paid lookups (2,000), used up.
      await db.insert(rateLimits).values({ key: siteQuota(w.a.websiteId), points: 2000, expire: Date.now() + 86_400_000 }).onConflictDoUpdate({ target: rateLimits.key, set: { points: 2000 } });
      const response = await post(lookupRoute, w.hostA, { vin: '1HGCM82633A004352' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ vehicle: { make: 'Honda', model: 'Accord', year: 2003 }, message: null });
    });

    it('a paid lookup counts against the quota; past it, the provider is not called', async () => {
      // A provider that cannot answer: called, it fails (providerDown); not called, the registration has no offline answer.
      const provider = { url: 'http://127.0.0.1:9', key: 'k' };
      await db.delete(rateLimits).where(eq(rateLimits.key, siteQuota(w.b.websiteId)));
      expect(await lookupVehicle(w.b.tenant, { rego: 'ABC123', state: 'NSW' }, null, provider)).toEqual({ vehicle: null, message: VEHICLE_MESSAGES.providerDown });
      expect(await quotaUsed(w.b.websiteId)).toBe(1);
      await db.update(rateLimits).set({ points: 2000 }).where(eq(rateLimits.key, siteQuota(w.b.websiteId)));
      expect(await lookupVehicle(w.b.tenant, { rego: 'ABC123', state: 'NSW' }, null, provider)).toEqual({ vehicle: null, message: VEHICLE_MESSAGES.registrationOffline });
      expect(await lookupVehicle(w.b.tenant, { vin: '1HGCM82633A004352' }, null, provider)).toMatchObject({ vehicle: { make: 'Honda' } });
    });
  });
});
