import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { seedDashboardWorld, carBody, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import { clearDashboardCache } from '@/modules/dashboard/dashboard.cache';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { findOrCreateCustomer, startSession } from '@/modules/identity/identity.sessions';
import { upsertCar, carInputSchema } from '@/modules/stock/server';
import { savedSearches } from '@/modules/alerts/alerts.schema';
import * as collection from '@/app/api/saved-searches/route';
import * as item from '@/app/api/saved-searches/[id]/route';
import * as form from '@/app/api/saved-searches/form/route';

const HOST_A = 'alpha-motors.localhost';
const HOST_B = 'beta-cars.localhost';

type Saved = { id: string; name: string; href: string };
type Listed = Saved & { paused: boolean; matching: number | null; new_since_last_visit: number | null; created_at: string };

/** Issue 35, item 1: saved searches through their API, for the signed-in visitor only. */
describe('saved searches', () => {
  let db: Db;
  let w: DashboardWorld;
  let a: Tenant;
  let mia: string;
  let noah: string;
  let onB: string;

  async function cookieFor(tenant: Tenant, phone: string): Promise<string> {
    const customer = await findOrCreateCustomer(tenant, phone, {});
    return `dp_access=${(await startSession(tenant, customer)).access_token}`;
  }

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    clearDashboardCache();
    w = await seedDashboardWorld(db);
    const [row] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
    await db.update(websites).set({ config: { ...row.config, phoneSignIn: { enabled: true }, garage: { enabled: true } } }).where(eq(websites.id, w.a.websiteId));
    a = (await findTenantById(w.a.websiteId))!;
    mia = await cookieFor(a, '+61413000101');
    noah = await cookieFor(a, '+61413000102');
    onB = await cookieFor(w.b.tenant, '+61413000103');
  });

  const save = (href: unknown, cookie = mia, host = HOST_A, headers: Record<string, string> = {}) =>
    callLeadRoute(collection.POST, { host, body: { href }, headers: { cookie, ...headers } });
  const list = async (cookie = mia): Promise<Listed[]> => {
    const response = await callLeadRoute(collection.GET, { host: HOST_A, method: 'GET', headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    return ((await response.json()) as { saved_searches: Listed[] }).saved_searches;
  };
  const patch = (id: string, body: unknown, cookie = mia) => callLeadRoute(item.PATCH, { host: HOST_A, method: 'PATCH', body, params: { id }, headers: { cookie } });
  const remove = (id: string, cookie = mia) => callLeadRoute(item.DELETE, { host: HOST_A, method: 'DELETE', params: { id }, headers: { cookie } });

  let toyotas: Saved;

  it('saves a search page’s filters under a name made from them (201), and the same search again is the one saved (200)', async () => {
    const response = await save('/search/used-cars?price_max=36000&make=Toyota&page=3');
    expect(response.status).toBe(201);
    toyotas = ((await response.json()) as { saved_search: Saved }).saved_search;
    // The page number is not part of a search; the query is written as the search page writes it.
    expect(toyotas).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Toyota under $36,000', href: '/search/used-cars?make=Toyota&price_max=36000' });
    const again = await save('/search/used-cars?make=Toyota&price_max=36000');
    expect(again.status).toBe(200);
    expect(((await again.json()) as { saved_search: Saved }).saved_search).toEqual(toyotas);
  });

  it('lists the visitor’s saved searches with the cars each finds now and the cars listed since their last look', async () => {
    // Alpha's used Toyotas up to $36,000: two Corollas at $27,990 and the $35,990 Camry (the $36,990 one is over).
    expect(await list()).toEqual([{ ...toyotas, paused: false, matching: 3, new_since_last_visit: 0, created_at: expect.any(String) }]);
    await upsertCar(a, w.a.dealershipId, 'a-corolla-new', carInputSchema.parse(carBody({ model: 'Corolla', price: 24_990, location_id: w.a.salesLocationId })));
    const [after] = await list();
    expect(after).toMatchObject({ matching: 4, new_since_last_visit: 1 });
    // Looking was a visit: nothing is new since.
    const [next] = await list();
    expect(next).toMatchObject({ matching: 4, new_since_last_visit: 0 });
  });

  it('renames and pauses a saved search; a name that is not one line of text, an unknown key or an empty change is refused naming the field', async () => {
    expect((await patch(toyotas.id, { name: 'Small Toyotas' })).status).toBe(200);
    expect((await patch(toyotas.id, { paused: true })).status).toBe(200);
    expect(await list()).toEqual([expect.objectContaining({ id: toyotas.id, name: 'Small Toyotas', paused: true })]);
    for (const [body, field] of [
      [{ name: 'a\nb' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ paused: 'yes' }, 'paused'],
      [{ paused: true, owner: 'me' }, 'owner'],
      [{}, 'body'],
    ] as const) {
      const response = await patch(toyotas.id, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(((await response.json()) as { fields: Record<string, string> }).fields)).toContain(field);
    }
  });

  it('refuses what is not a search page of this website (422 naming href) and keeps nothing of it', async () => {
    const before = (await db.select().from(savedSearches)).length;
    for (const href of [
      'https://evil.test/search/used-cars',
      '//evil.test/search/used-cars',
      '/about-us',
      '/search/no-such-page',
      '/search/used-cars/%E0%A4%A',
      '/search/used-cars\u0000',
      'javascript:alert(1)',
      'search/used-cars',
      '\\\\evil.test/search/used-cars',
    ]) {
      const response = await save(href);
      expect(response.status, href).toBe(422);
      expect(await response.json()).toEqual({ error: 'Please check the highlighted fields.', fields: { href: 'is not a search page of this website' } });
    }
    for (const body of [{ href: 5 }, { href: '' }, { href: 'x'.repeat(2_001) }, { href: '/search/used-cars', extra: 1 }]) {
      expect((await callLeadRoute(collection.POST, { host: HOST_A, body, headers: { cookie: mia } })).status, JSON.stringify(body).slice(0, 40)).toBe(422);
    }
    expect((await save('/search/used-cars', mia, HOST_A, { origin: 'https://evil.test' })).status).toBe(403);
    expect((await callLeadRoute(collection.POST, { host: HOST_A, rawBody: 'href=/search/used-cars', headers: { cookie: mia, 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await db.select().from(savedSearches)).length).toBe(before);
  });

  it('is the visitor’s own: signed out 401, another visitor’s search 404 to change or delete, and another website’s visitor is not signed in here', async () => {
    const signedOut = await save('/search/used-cars', '');
    expect(signedOut.status).toBe(401);
    // A browser would prompt for a user name and password over the page on a Basic challenge.
    expect(signedOut.headers.get('www-authenticate')).toBeNull();
    expect((await callLeadRoute(collection.GET, { host: HOST_A, method: 'GET' })).status).toBe(401);
    expect(await list(noah)).toEqual([]);
    expect((await patch(toyotas.id, { name: 'Mine now' }, noah)).status).toBe(404);
    expect((await remove(toyotas.id, noah)).status).toBe(404);
    // B's sign-in cookie on A's host is not a session of A.
    expect((await save('/search/used-cars', onB)).status).toBe(401);
    // Where the garage is off (website B), there are no saved searches at all.
    expect((await save('/search/used-cars', onB, HOST_B)).status).toBe(404);
    expect(await list()).toEqual([expect.objectContaining({ id: toyotas.id, name: 'Small Toyotas' })]);
  });

  it('deletes a saved search (204), then it is gone (404); an id that is not one is 404', async () => {
    expect((await remove('not-a-uuid')).status).toBe(404);
    expect((await remove(toyotas.id)).status).toBe(204);
    expect((await remove(toyotas.id)).status).toBe(404);
    expect(await list()).toEqual([]);
  });

  it('keeps at most 20 saved searches per visitor, with the limit’s message', async () => {
    for (let price = 1; price <= 20; price++) expect((await save(`/search/used-cars?price_max=${price * 1_000}`, noah)).status).toBe(201);
    const response = await save('/search/used-cars?price_max=99000', noah);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'Please check the highlighted fields.', fields: { href: 'You can save up to 20 searches. Delete one to save another.' } });
    expect(await list(noah)).toHaveLength(20);
  });

  it('saves from the plain form a tap before the page’s scripts sends: to the garage when signed in, to sign-in and back otherwise', async () => {
    const post = (href: string, cookie: string, headers: Record<string, string> = {}) =>
      callLeadRoute(form.POST, { host: HOST_A, rawBody: new URLSearchParams({ href }).toString(), headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers } });
    const signedOut = await post('/search/used-cars?make=Škoda', '');
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe(`/sign-in?next=${encodeURIComponent('/search/used-cars?make=Škoda')}`);

    const saved = await post('/search/used-cars?make=Škoda', mia);
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/my-garage#saved-searches');
    expect((await list()).map((search) => search.name)).toEqual(['Škoda']);

    const refused = await post('https://evil.test/search/used-cars', mia);
    expect(refused.status).toBe(303);
    expect(await list()).toHaveLength(1);
    expect((await post('/search/used-cars', mia, { origin: 'https://evil.test' })).status).toBe(403);
    expect((await callLeadRoute(form.POST, { host: HOST_A, body: { href: '/search/used-cars' }, headers: { cookie: mia } })).status).toBe(415);
  });
});
