import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import type { WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { getLeadCar, getLeadSite, listLeadLocations } from '@/modules/leads/leads.form-context';

/** What the lead forms read from the database: the site's rules, its locations and a car by id. */
describe('lead form context', () => {
  let db: Db;
  let seq = 0;

  async function website(slug: string, config: WebsiteConfigInput = {}) {
    const [site] = await db.insert(websites).values({ slug, name: slug, phone: '02 9000 0000', config }).returning();
    const [dealership] = await db
      .insert(dealerships)
      .values({ websiteId: site.id, slug: `${slug}-dealer`, name: `${slug} dealer` })
      .returning();
    const place = (name: string, locationType: string, position: number, visible = true) =>
      db
        .insert(locations)
        .values({ websiteId: site.id, dealershipId: dealership.id, name, slug: `${slug}-${++seq}`, locationType, position, visible })
        .returning()
        .then(([row]) => row);
    const yard = await place(`${slug} yard`, '', 1);
    const workshop = await place(`${slug} workshop`, 'service', 0);
    await place(`${slug} hidden`, 'parts', 2, false);
    const [car] = await db
      .insert(cars)
      .values({
        websiteId: site.id,
        dealershipId: dealership.id,
        locationId: yard.id,
        slug: `${slug}-car`,
        name: '2021 Mazda CX-5 Maxx',
        make: 'Mazda',
        model: 'CX-5',
        year: 2021,
        carType: 'demo',
        stocknum: 'D123',
      })
      .returning();
    const [hiddenCar] = await db
      .insert(cars)
      .values({
        websiteId: site.id,
        dealershipId: dealership.id,
        slug: `${slug}-hidden`,
        name: 'Hidden',
        make: 'Mazda',
        model: 'CX-3',
        year: 2020,
        carType: 'used',
        showOnDealerWebsite: false,
      })
      .returning();
    const tenant: Tenant = (await findTenantById(site.id))!;
    return { tenant, dealership, yard, workshop, car, hiddenCar };
  }

  let a: Awaited<ReturnType<typeof website>>;
  let b: Awaited<ReturnType<typeof website>>;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    a = await website('alpha-motors', { leads: { mobileOnly: true, messageRequired: false } });
    b = await website('kiwi-cars', { locale: 'en-NZ' });
  });

  it('gives the site its dealership and phone rule from configuration', async () => {
    const site = await getLeadSite(a.tenant);
    expect(site).toMatchObject({
      websiteSlug: 'alpha-motors',
      dealershipSlug: 'alpha-motors-dealer',
      messageRequired: false,
      phoneRule: { country: 'AU', mobileOnly: true },
    });
    expect((await getLeadSite(b.tenant)).phoneRule.country).toBe('NZ');
  });

  it('lists visible locations in position order, narrowed by type when any match', async () => {
    expect((await listLeadLocations(a.tenant)).map((l) => l.name)).toEqual(['alpha-motors workshop', 'alpha-motors yard']);
    expect((await listLeadLocations(a.tenant, ['service'])).map((l) => l.name)).toEqual(['alpha-motors workshop']);
    expect((await listLeadLocations(a.tenant, ['sales'])).map((l) => l.locationType)).toEqual(['sales']);
    // No parts location is visible: every location rather than none.
    expect(await listLeadLocations(a.tenant, ['parts'])).toHaveLength(2);
  });

  it('finds a listed car of the website by id, dropping what follows a question mark', async () => {
    expect(await getLeadCar(a.tenant, String(a.car.id))).toMatchObject({
      id: a.car.id,
      carType: 'demo',
      dealershipSlug: 'alpha-motors-dealer',
      locationId: a.yard.id,
      stocknum: 'D123',
    });
    expect((await getLeadCar(a.tenant, `${a.car.id}?utm_source=x`))?.id).toBe(a.car.id);
    expect((await getLeadCar(a.tenant, [String(a.car.id)]))?.id).toBe(a.car.id);
  });

  it('refuses another website’s car, an unlisted car and malformed ids', async () => {
    expect(await getLeadCar(b.tenant, String(a.car.id))).toBeNull();
    expect(await getLeadCar(a.tenant, String(a.hiddenCar.id))).toBeNull();
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '99999999999', "1' or '1'='1", '1e3x', null]) {
      expect(await getLeadCar(a.tenant, bad)).toBeNull();
    }
  });
});
