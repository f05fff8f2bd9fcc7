import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { apiKeys } from '@/modules/tenancy/tenancy.schema';
import { cars } from '@/modules/stock/stock.schema';
import { authenticate, createApiKey, revokeApiKey, verifySecret } from '@/lib/http';
import { basicAuth, callRoute, carBody, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';
import * as serviceBookings from '@/app/(dashboard)/dealerships/[id]/available_service_bookings.json/route';
import * as appointmentBookings from '@/app/(dashboard)/dealerships/[id]/available_appointment_bookings.json/route';
import * as sessionData from '@/app/(dashboard)/api/v1/websites/[websiteId]/website_session_data.json/route';
import * as searchSlugs from '@/app/(dashboard)/websites/[websiteId]/pages/search_slugs.json/route';
import * as templates from '@/app/(dashboard)/websites/[websiteId]/search_page_templates.json/route';
import * as manufacturer from '@/app/(dashboard)/manufacturers/[slug]/route';

describe('Dashboard API authentication', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
  });

  const carParams = () => ({ websiteId: String(w.a.websiteId), slug: 'a-corolla-1.json' });

  async function expect401(response: Response) {
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="dashboard"/);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(typeof body.error).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/stack|at .*\.ts/);
  }

  it('answers 401 without an Authorization header', async () => {
    await expect401(await callRoute(carRoute.GET, carParams()));
  });

  it.each([
    ['not basic', 'Bearer abc'],
    ['no credentials', 'Basic '],
    ['not base64', 'Basic !!!!'],
    ['no colon', `Basic ${Buffer.from('dk_0123').toString('base64')}`],
    ['empty secret', `Basic ${Buffer.from('dk_0123456789abcdef01234567:').toString('base64')}`],
    ['unknown key id', `Basic ${Buffer.from('dk_0123456789abcdef01234567:whatever').toString('base64')}`],
    ['huge header', `Basic ${'A'.repeat(5000)}`],
  ])('answers 401 to a malformed or unknown credential (%s)', async (_label, authorization) => {
    await expect401(await callRoute(carRoute.GET, carParams(), { authorization }));
  });

  it('answers 401 to a wrong secret', async () => {
    await expect401(await callRoute(carRoute.GET, carParams(), { key: { keyId: w.a.key.keyId, secret: `${w.a.key.secret}x` } }));
    await expect401(await callRoute(carRoute.GET, carParams(), { key: { keyId: w.a.key.keyId, secret: w.b.key.secret } }));
  });

  it('answers 200 to the right key, and 401 once it is revoked', async () => {
    const key = await createApiKey('alpha-motors-dealer');
    expect(key).not.toBeNull();
    const credentials = { keyId: key!.keyId, secret: key!.secret };
    const ok = await callRoute(carRoute.GET, carParams(), { key: credentials });
    expect(ok.status).toBe(200);
    expect((await ok.json()).slug).toBe('a-corolla-1');
    expect(await revokeApiKey(key!.keyId)).toBe(true);
    await expect401(await callRoute(carRoute.GET, carParams(), { key: credentials }));
    expect(await authenticate(basicAuth(credentials))).toBeNull();
  });

  it('keeps only a salted scrypt hash of the secret', async () => {
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyId, w.a.key.keyId));
    expect(row.secretHash).not.toContain(w.a.key.secret);
    expect(row.secretHash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifySecret(w.a.key.secret, row.secretHash)).toBe(true);
    expect(await verifySecret(w.b.key.secret, row.secretHash)).toBe(false);
    // Same secret, different salt: two keys never share a hash.
    const all = await db.select({ hash: apiKeys.secretHash }).from(apiKeys);
    expect(new Set(all.map((r) => r.hash)).size).toBe(all.length);
  });

  it('creates no key for an unknown dealership', async () => {
    expect(await createApiKey('no-such-dealer')).toBeNull();
  });

  it('gives the principal of the key: its dealership and website', async () => {
    const principal = await authenticate(basicAuth(w.b.key));
    expect(principal).toMatchObject({ websiteId: w.b.websiteId, dealershipId: w.b.dealershipId, keyId: w.b.key.keyId });
  });
});

describe('Dashboard API tenant isolation', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
  });

  async function expect404(response: Response) {
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found' });
  }

  it("answers 404 to A's key asking for B's car, exactly as for a car that does not exist", async () => {
    const foreign = await callRoute(carRoute.GET, { websiteId: String(w.b.websiteId), slug: 'b-hilux-1.json' }, { key: w.a.key });
    const missing = await callRoute(carRoute.GET, { websiteId: String(w.a.websiteId), slug: 'no-such-car.json' }, { key: w.a.key });
    const noWebsite = await callRoute(carRoute.GET, { websiteId: '999999', slug: 'b-hilux-1.json' }, { key: w.a.key });
    for (const response of [foreign, missing, noWebsite]) {
      expect(response.status).toBe(404);
      expect(response.headers.get('etag')).toBeNull();
    }
    const bodies = await Promise.all([foreign, missing, noWebsite].map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
  });

  it("answers each website's own car for the slug both websites use", async () => {
    const a = await callRoute(carRoute.GET, { websiteId: String(w.a.websiteId), slug: 'shared-slug.json' }, { key: w.a.key });
    const b = await callRoute(carRoute.GET, { websiteId: String(w.b.websiteId), slug: 'shared-slug.json' }, { key: w.b.key });
    expect((await a.json()).name).toBe('Alpha shared car');
    expect((await b.json()).name).toBe('Beta shared car');
  });

  it("answers 404 to A's key for B's dealership bookings, B's session data, search pages and manufacturer stock", async () => {
    const b = String(w.b.websiteId);
    await expect404(await callRoute(serviceBookings.GET, { id: String(w.b.dealershipId) }, { key: w.a.key }));
    await expect404(await callRoute(appointmentBookings.GET, { id: String(w.b.dealershipId) }, { key: w.a.key }));
    await expect404(await callRoute(sessionData.GET, { websiteId: b }, { key: w.a.key }));
    await expect404(await callRoute(searchSlugs.GET, { websiteId: b }, { key: w.a.key }));
    await expect404(await callRoute(templates.GET, { websiteId: b }, { key: w.a.key }));
    await expect404(await callRoute(manufacturer.GET, { slug: 'toyota.json' }, { key: w.a.key, query: `?website_id=${b}` }));
    // …while B's key gets them.
    expect((await callRoute(serviceBookings.GET, { id: String(w.b.dealershipId) }, { key: w.b.key })).status).toBe(200);
    expect((await callRoute(sessionData.GET, { websiteId: b }, { key: w.b.key })).status).toBe(200);
  });

  it("changes nothing in B when A's key PUTs or DELETEs on B's website", async () => {
    const before = await db.select().from(cars).where(eq(cars.websiteId, w.b.websiteId)).orderBy(cars.id);
    const put = await callRoute(
      carRoute.PUT,
      { websiteId: String(w.b.websiteId), slug: 'b-hilux-1.json' },
      { method: 'PUT', key: w.a.key, body: carBody({ name: 'Hijacked', price: 1 }) },
    );
    await expect404(put);
    const create = await callRoute(
      carRoute.PUT,
      { websiteId: String(w.b.websiteId), slug: 'planted-car.json' },
      { method: 'PUT', key: w.a.key, body: carBody() },
    );
    await expect404(create);
    await expect404(
      await callRoute(carRoute.DELETE, { websiteId: String(w.b.websiteId), slug: 'b-hilux-1.json' }, { method: 'DELETE', key: w.a.key }),
    );
    const after = await db.select().from(cars).where(eq(cars.websiteId, w.b.websiteId)).orderBy(cars.id);
    expect(after).toEqual(before);
  });

  it("refuses (422) a car on A's website that names B's dealership or location", async () => {
    const params = { websiteId: String(w.a.websiteId), slug: 'cross-ref.json' };
    const dealership = await callRoute(carRoute.PUT, params, { method: 'PUT', key: w.a.key, body: carBody({ dealership_id: w.b.dealershipId }) });
    expect(dealership.status).toBe(422);
    expect((await dealership.json()).fields).toEqual({ dealership_id: 'is not a dealership of this website' });
    const location = await callRoute(carRoute.PUT, params, { method: 'PUT', key: w.a.key, body: carBody({ location_id: w.b.salesLocationId }) });
    expect(location.status).toBe(422);
    expect((await location.json()).fields).toEqual({ location_id: 'is not a location of this website' });
    expect(await db.select().from(cars).where(eq(cars.slug, 'cross-ref'))).toEqual([]);
  });
});
