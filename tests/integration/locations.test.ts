import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { locations } from '@/modules/locations/locations.schema';
import { findDealershipContact, findVisibleLocation, getMapsKey, listDealerLicences, getWebsiteSessionData, listVisibleLocations } from '@/modules/locations/locations.queries';
import { groupLocations } from '@/modules/locations/locations.grouping';
import { callRoute, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as sessionData from '@/app/(dashboard)/api/v1/websites/[websiteId]/website_session_data.json/route';

describe('locations queries', () => {
  let db: Db;
  let w: DashboardWorld;
  let a: Tenant;
  let b: Tenant;
  let partsId: number;
  let brisbaneId: number;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
    await db.update(dealerships).set({ dealerLicenseNumber: ' MD012345 ' }).where(eq(dealerships.id, w.a.dealershipId));
    const inserted = await db
      .insert(locations)
      .values([
        {
          websiteId: w.a.websiteId,
          dealershipId: w.a.dealershipId,
          name: 'Alpha Parts',
          slug: 'alpha-parts',
          locationType: 'parts',
          position: 3,
          reviewsCount: 40,
          reviewsAverageRating: 3.9,
        },
        {
          websiteId: w.a.websiteId,
          dealershipId: w.a.dealershipId,
          name: 'Alpha Brisbane',
          slug: 'alpha-brisbane',
          locationType: 'service-and-parts',
          position: 2,
          state: 'QLD',
          // Stored wrongly as Sydney: the state decides.
          timeZone: 'Australia/Sydney',
          dealerLicenseNumber: 'QLD-777',
          reviewsCount: 12,
          reviewsAverageRating: 4,
          lat: -27.47,
          long: 153.03,
        },
      ])
      .returning({ id: locations.id });
    [partsId, brisbaneId] = inserted.map((r) => r.id);
    await db
      .update(websites)
      .set({
        config: {
          timeZone: 'Australia/Sydney',
          specialHours: [
            // Nested shape, for a visible location of this website.
            { date: '2026-12-31', status: 'Open', location: { id: brisbaneId }, hours: { begin: '09:00', end: '13:00' }, name: "New Year's Eve" },
            // Another website's location: never shown here.
            { date: '2026-12-31', status: 'Closed', location_id: w.b.salesLocationId, name: 'Beta closure' },
            // The table already has 25 December for the sales location: the table wins.
            { date: '2026-12-25', status: 'Open', location_id: w.a.salesLocationId, start_hour: '10:00', end_hour: '14:00' },
            'not an entry',
          ],
        },
        secrets: { googleMapsKey: 'maps-key-alpha' },
      })
      .where(eq(websites.id, w.a.websiteId));
    a = (await findTenantById(w.a.websiteId))!;
    b = (await findTenantById(w.b.websiteId))!;
  });

  it("lists the website's visible locations in position order with paths, hours and types ('' is sales)", async () => {
    const list = await listVisibleLocations(a);
    expect(list.map((l) => l.slug)).toEqual(['alpha-motors-sales', 'alpha-motors-service', 'alpha-brisbane', 'alpha-parts']);
    const [sales] = list;
    expect(sales).toMatchObject({
      locationType: 'sales',
      path: '/our-locations/alpha-motors-sales',
      contactPath: '/contact-us/alpha-motors-dealer',
      dealershipName: 'alpha-motors dealer',
      timeZone: 'Australia/Sydney',
    });
    expect(sales.openingHours).toHaveLength(7);
    expect(JSON.stringify(list)).not.toContain('beta');
    expect(JSON.stringify(list)).not.toContain('leadEmail');
  });

  it('keeps hours in the zone of the state and shows reviews only from a rating of 4', async () => {
    const list = await listVisibleLocations(a);
    const brisbane = list.find((l) => l.id === brisbaneId)!;
    expect(brisbane.timeZone).toBe('Australia/Brisbane');
    expect(brisbane.reviews).toEqual({ count: 12, averageRating: 4 });
    expect(list.find((l) => l.id === partsId)!.reviews).toBeNull();
  });

  it('groups them as primary, sales, service, parts, service-and-parts and all', async () => {
    const groups = groupLocations(await listVisibleLocations(a));
    const slugs = (g: keyof typeof groups) => groups[g].map((l) => l.slug);
    expect(slugs('primary')).toEqual(['alpha-motors-sales']);
    expect(slugs('sales')).toEqual(['alpha-motors-sales']);
    expect(slugs('service')).toEqual(['alpha-motors-service', 'alpha-brisbane']);
    expect(slugs('parts')).toEqual(['alpha-brisbane', 'alpha-parts']);
    expect(slugs('service-and-parts')).toEqual(['alpha-motors-service', 'alpha-brisbane', 'alpha-parts']);
    expect(slugs('all')).toHaveLength(4);
  });

  it('finds a location by slug only on its own website, never a hidden one', async () => {
    expect((await findVisibleLocation(a, 'alpha-brisbane'))?.name).toBe('Alpha Brisbane');
    expect((await findVisibleLocation(a, 'ALPHA-BRISBANE'))?.name).toBe('Alpha Brisbane');
    expect(await findVisibleLocation(b, 'alpha-brisbane')).toBeNull();
    expect(await findVisibleLocation(a, 'alpha-motors-hidden')).toBeNull();
    expect(await findVisibleLocation(a, "x' or '1'='1")).toBeNull();
    expect(await findVisibleLocation(a, 'a'.repeat(500))).toBeNull();
  });

  it('finds a dealership by slug with its visible locations, only on its own website', async () => {
    const contact = await findDealershipContact(a, 'alpha-motors-dealer');
    expect(contact).toMatchObject({ name: 'alpha-motors dealer', dealerLicenseNumber: 'MD012345' });
    expect(contact!.locations).toHaveLength(4);
    expect(await findDealershipContact(b, 'alpha-motors-dealer')).toBeNull();
    expect(await findDealershipContact(a, '../etc/passwd')).toBeNull();
  });

  it('lists dealer licence numbers for the footer, trimmed, only where the dealer has one', async () => {
    expect(await listDealerLicences(a)).toEqual([{ dealershipName: 'alpha-motors dealer', number: 'MD012345' }]);
    expect(await listDealerLicences(b)).toEqual([]);
  });

  it("gives the maps key of the website's own secrets only", async () => {
    expect(await getMapsKey(a)).toBe('maps-key-alpha');
    expect(await getMapsKey(b)).toBeNull();
  });

  it('website_session_data merges table and configuration special hours (both shapes) of its own visible locations', async () => {
    const data = await getWebsiteSessionData(a, new Date('2026-12-20T00:00:00Z'));
    expect(data.special_hours).toEqual([
      { date: '2026-12-24', status: 'Open', location_id: w.a.serviceLocationId, start_hour: '09:00', end_hour: '12:00', name: 'Christmas Eve' },
      { date: '2026-12-25', status: 'Closed', location_id: w.a.salesLocationId, start_hour: null, end_hour: null, name: 'Christmas Day' },
      { date: '2026-12-31', status: 'Open', location_id: brisbaneId, start_hour: '09:00', end_hour: '13:00', name: "New Year's Eve" },
    ]);
    expect(JSON.stringify(await getWebsiteSessionData(b, new Date('2026-12-20T00:00:00Z')))).not.toContain('Beta closure');
  });

  it('is served at /api/v1/websites/{id}/website_session_data.json with the same special hours', async () => {
    const response = await callRoute(sessionData.GET, { websiteId: String(w.a.websiteId) }, { key: w.a.key });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.special_hours.some((s: { location_id: number }) => s.location_id === brisbaneId)).toBe(true);
    const other = await callRoute(sessionData.GET, { websiteId: String(w.b.websiteId) }, { key: w.a.key });
    expect(other.status).toBe(404);
    const malformed = await callRoute(sessionData.GET, { websiteId: 'abc' }, { key: w.a.key });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
  });
});
