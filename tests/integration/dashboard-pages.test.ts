import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { searchPages } from '@/modules/tenancy/tenancy.schema';
import { locations, specialHours } from '@/modules/locations/locations.schema';
import { bumpStockVersion } from '@/modules/stock/stock.commands';
import { authenticate } from '@/lib/http';
import { getDashboardSessionData } from '@/modules/dashboard/dashboard.service';
import { basicAuth, callRoute, carBody, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';
import * as manufacturer from '@/app/(dashboard)/manufacturers/[slug]/route';
import * as searchSlugs from '@/app/(dashboard)/websites/[websiteId]/pages/search_slugs.json/route';
import * as templates from '@/app/(dashboard)/websites/[websiteId]/search_page_templates.json/route';
import * as sessionData from '@/app/(dashboard)/api/v1/websites/[websiteId]/website_session_data.json/route';

describe('Dashboard API manufacturers, search pages and session data', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
  });

  const manufacturerOf = (slug: string, websiteId = w.a.websiteId) =>
    callRoute(manufacturer.GET, { slug: `${slug}.json` }, { key: w.a.key, query: `?website_id=${websiteId}` });

  it("answers the manufacturer with the website's stock of its make, slug compared in lowercase", async () => {
    const response = await manufacturerOf('TOYOTA');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toMatch(/^"w\d+-s\d+"$/);
    expect(await response.json()).toEqual({
      id: w.toyotaId,
      slug: 'toyota',
      name: 'Toyota',
      display_name: 'Toyota',
      website_id: w.a.websiteId,
      // Website A: Corolla, two Camrys and the shared-slug Corolla; B's HiLux is not counted.
      stock: { count: 4, models: [{ name: 'Camry', count: 2 }, { name: 'Corolla', count: 2 }] },
    });
  });

  it('matches cars whose make is the display name (Škoda for skoda)', async () => {
    const body = await (await manufacturerOf('skoda')).json();
    expect(body.display_name).toBe('Škoda');
    expect(body.stock).toEqual({ count: 1, models: [{ name: 'Octavia', count: 1 }] });
  });

  it('answers 404 for an unknown manufacturer', async () => {
    expect((await manufacturerOf('lada')).status).toBe(404);
  });

  it('follows stock changes: a sold or withdrawn car leaves the summary', async () => {
    const params = { websiteId: String(w.a.websiteId), slug: 'a-camry-1.json' };
    await callRoute(carRoute.PUT, params, { method: 'PUT', key: w.a.key, body: carBody({ model: 'Camry', status: 'sold' }) });
    await callRoute(carRoute.DELETE, { ...params, slug: 'a-corolla-1.json' }, { method: 'DELETE', key: w.a.key });
    const body = await (await manufacturerOf('toyota')).json();
    expect(body.stock).toEqual({ count: 2, models: [{ name: 'Camry', count: 1 }, { name: 'Corolla', count: 1 }] });
  });

  it("answers the website's search page slugs and templates, not the other website's", async () => {
    const slugs = await callRoute(searchSlugs.GET, { websiteId: String(w.a.websiteId) }, { key: w.a.key });
    expect(slugs.status).toBe(200);
    expect(await slugs.json()).toEqual({ website_id: w.a.websiteId, slugs: ['new-used-and-demo-cars', 'used-cars'] });
    const list = await callRoute(templates.GET, { websiteId: String(w.a.websiteId) }, { key: w.a.key });
    const body = await list.json();
    expect(body.search_page_templates).toHaveLength(2);
    expect(body.search_page_templates[1]).toEqual({
      slug: 'used-cars',
      template: 'default',
      title: 'alpha-motors used cars',
      heading: 'Used cars',
      description: '',
      filters: { car_type: ['used'] },
    });
    expect(JSON.stringify(body)).not.toContain('beta-cars');
  });

  it('caches search pages by stock version: a new page shows once the version is bumped, with a new ETag', async () => {
    const params = { websiteId: String(w.a.websiteId) };
    const first = await callRoute(searchSlugs.GET, params, { key: w.a.key });
    const etag = first.headers.get('etag')!;
    expect((await callRoute(templates.GET, params, { key: w.a.key, headers: { 'if-none-match': etag } })).status).toBe(304);
    await db.insert(searchPages).values({ websiteId: w.a.websiteId, slug: 'demo-cars', title: 'Demo', heading: 'Demo cars' });
    expect((await (await callRoute(searchSlugs.GET, params, { key: w.a.key })).json()).slugs).not.toContain('demo-cars');
    await db.transaction((tx) => bumpStockVersion(tx, w.a.websiteId));
    const after = await callRoute(searchSlugs.GET, params, { key: w.a.key, headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await after.json()).slugs).toContain('demo-cars');
  });

  it('answers session data: navigation and upcoming special hours of visible locations', async () => {
    const [hidden] = await db
      .insert(locations)
      .values({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, name: 'Secret', slug: 'secret', visible: false })
      .returning({ id: locations.id });
    await db.insert(specialHours).values({ websiteId: w.a.websiteId, locationId: hidden.id, date: '2026-12-31', status: 'Closed', name: 'Hidden NYE' });
    const principal = (await authenticate(basicAuth(w.a.key)))!;
    const data = await getDashboardSessionData(principal, w.a.websiteId, new Date('2026-11-22T12:00:00+11:00'));
    expect(data.navigation.header.map((i) => i.name)).toEqual(['alpha-motors stock']);
    expect(data.navigation.footer.map((i) => i.url)).toEqual(['/privacy-policy']);
    expect(data.special_hours).toEqual([
      { date: '2026-12-24', status: 'Open', location_id: w.a.serviceLocationId, start_hour: '09:00', end_hour: '12:00', name: 'Christmas Eve' },
      { date: '2026-12-25', status: 'Closed', location_id: w.a.salesLocationId, start_hour: null, end_hour: null, name: 'Christmas Day' },
    ]);
    // 'Today' is the website's local date: 25 December 00:30 in Sydney is still the 24th in UTC.
    const christmas = await getDashboardSessionData(principal, w.a.websiteId, new Date('2026-12-24T13:30:00Z'));
    expect(christmas.special_hours.map((s) => s.date)).toEqual(['2026-12-25']);
  });

  it('serves session data over HTTP for the key website only, with nothing of the other website', async () => {
    const response = await callRoute(sessionData.GET, { websiteId: String(w.b.websiteId) }, { key: w.b.key });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['navigation', 'special_hours']);
    expect(body.navigation.header[0].name).toBe('beta-cars stock');
    const today = new Date().toISOString().slice(0, 10);
    for (const entry of body.special_hours) {
      expect(entry.date >= new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10)).toBe(true);
      expect([w.b.salesLocationId, w.b.serviceLocationId]).toContain(entry.location_id);
    }
    expect(JSON.stringify(body)).not.toContain('alpha');
  });
});
