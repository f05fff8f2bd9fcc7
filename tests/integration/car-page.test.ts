import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { carPaymentProcessors, cars } from '@/modules/stock/stock.schema';
import { analyticsEvents } from '@/modules/widgets/widgets.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { getCarBySlug, getSoldCarBySlug } from '@/modules/stock/stock.queries';
import { carJsonLd } from '@/modules/stock/car-page.structured-data';
import { POST as phoneReveal } from '@/app/api/phone-reveal/route';
import { POST as carPhoneCall } from '@/app/api/events/car_phone_call/route';
import { wasPhoneRevealed } from '@/modules/stock/car-phone.commands';

/** The car page's data (getCarBySlug's page fields, the sold lookup) and its phone calls. */

const DAY = 86_400_000;

describe('car page data and phone calls', () => {
  let db: Db;
  let tenant: Tenant;
  let other: Tenant;
  let dealerId: number;
  let otherDealerId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    const [site] = await db.insert(websites).values({ slug: 'page-motors', name: 'Page Motors', phone: '1300 000 000', config: { checkout: { enabled: true } } }).returning();
    const [dealer] = await db
      .insert(dealerships)
      .values({ websiteId: site.id, slug: 'page-motors-dealer', name: 'Page Motors Dealer', phone: '02 9000 0000', whatsappNumber: '+61491570156' })
      .returning();
    dealerId = dealer.id;
    const [yard] = await db
      .insert(locations)
      .values({ websiteId: site.id, dealershipId: dealer.id, name: 'Page Yard', slug: 'yard', street: '1 Main St', city: 'Sydney', state: 'NSW', postcode: '2000', phone: '02 9555 0101' })
      .returning();
    const base = { websiteId: site.id, dealershipId: dealer.id, locationId: yard.id, year: 2021, carType: 'used' as const, price: 25_000, photosCount: 5 };
    const rows = await db
      .insert(cars)
      .values([
        { ...base, slug: 'listed', name: 'Listed Car', make: 'Mazda', model: 'CX-5', reservable: false, historyReportUrl: '/media/r.pdf', autograbAverageMarketPrice: 27_000, autograbStateAverageMarketPrice: 26_000, nvic: 'N1' },
        { ...base, slug: 'no-location', name: 'No Location', make: 'Kia', model: 'Rio', locationId: null },
        { ...base, slug: 'sold-long-ago', name: 'Old Sale', make: 'Mazda', model: 'CX-3', status: 'sold' as const, soldDate: new Date(Date.now() - 30 * DAY) },
        { ...base, slug: 'sold-hidden', name: 'Hidden Sale', make: 'Mazda', model: 'CX-9', status: 'sold' as const, soldDate: new Date(Date.now() - 30 * DAY), showOnDealerWebsite: false },
        { ...base, slug: 'hidden', name: 'Hidden', make: 'Kia', model: 'Cerato', showOnDealerWebsite: false },
      ])
      .returning({ id: cars.id, slug: cars.slug });
    for (const row of rows) ids[row.slug] = row.id;
    await db.insert(carPaymentProcessors).values([
      { websiteId: site.id, carId: ids.listed, authorizationType: 'Stripe', authorizationKey: 'pk_test_1', depositAmount: 500 },
      { websiteId: site.id, carId: ids['no-location'], authorizationType: 'Stripe', authorizationKey: '', depositAmount: 500 },
    ]);
    tenant = (await findTenantById(site.id))!;

    const [otherSite] = await db.insert(websites).values({ slug: 'other-page-motors', name: 'Other', config: {} }).returning();
    const [otherDealer] = await db.insert(dealerships).values({ websiteId: otherSite.id, slug: 'other-page-dealer', name: 'Other Dealer', phone: '07 0000 0000' }).returning();
    otherDealerId = otherDealer.id;
    const [otherCar] = await db
      .insert(cars)
      .values({ websiteId: otherSite.id, dealershipId: otherDealer.id, slug: 'other-car', name: 'Other Car', make: 'Ford', model: 'Ranger', year: 2020, carType: 'used' })
      .returning({ id: cars.id });
    ids['other-car'] = otherCar.id;
    other = (await findTenantById(otherSite.id))!;
  });

  describe('getCarBySlug', () => {
    it('carries what the actions and structured data need', async () => {
      const car = (await getCarBySlug(tenant, 'listed'))!;
      expect(car).toMatchObject({
        reservable: false,
        hasPaymentProcessor: true,
        historyReportUrl: '/media/r.pdf',
        marketAveragePrice: 27_000,
        stateMarketAveragePrice: 26_000,
        nvic: 'N1',
        dealershipSlug: 'page-motors-dealer',
        dealershipName: 'Page Motors Dealer',
        whatsappNumber: '+61491570156',
        phone: '02 9555 0101',
        location: { name: 'Page Yard', street: '1 Main St', city: 'Sydney', state: 'NSW', postcode: '2000', country: 'AU' },
      });
    });

    it('does not count a processor without a key, and falls back to the dealership phone', async () => {
      const car = (await getCarBySlug(tenant, 'no-location'))!;
      expect(car.hasPaymentProcessor).toBe(false);
      expect(car.location).toBeNull();
      expect(car.phone).toBe('02 9000 0000');
    });

    it('describes the car and its offer for search engines', async () => {
      const car = (await getCarBySlug(tenant, 'listed'))!;
      const data = carJsonLd(car, tenant.config, tenant, { page: 'https://page.test/cars/listed', images: ['https://page.test/media/a.jpg'] });
      expect(data).toMatchObject({
        '@type': 'Car',
        name: 'Listed Car',
        brand: { '@type': 'Brand', name: 'Mazda' },
        mileageFromOdometer: { unitCode: 'KMT' },
        offers: {
          '@type': 'Offer',
          price: 25_000,
          priceCurrency: 'AUD',
          availability: 'https://schema.org/InStock',
          seller: {
            '@type': 'AutoDealer',
            name: 'Page Motors Dealer',
            telephone: '02 9555 0101',
            address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: 'Sydney', addressRegion: 'NSW', postalCode: '2000', addressCountry: 'AU' },
          },
        },
      });
    });
  });

  describe('getSoldCarBySlug', () => {
    it('finds a car sold before its window, not a hidden one, a listed one or another website’s', async () => {
      expect(await getCarBySlug(tenant, 'sold-long-ago')).toBeNull();
      expect(await getSoldCarBySlug(tenant, 'sold-long-ago')).toMatchObject({ slug: 'sold-long-ago', make: 'Mazda', model: 'CX-3' });
      expect(await getSoldCarBySlug(tenant, 'sold-hidden')).toBeNull();
      expect(await getSoldCarBySlug(tenant, 'listed')).toBeNull();
      expect(await getSoldCarBySlug(other, 'sold-long-ago')).toBeNull();
      expect(await getSoldCarBySlug(tenant, 'abc$%')).toBeNull();
    });
  });

  const post = (handler: (r: Request) => Promise<Response>, body: BodyInit, host = 'page-motors.localhost', type = 'application/json') =>
    handler(new Request('http://x/api', { method: 'POST', headers: { host, 'content-type': type }, body }));
  const json = (value: unknown) => JSON.stringify(value);
  const events = async (websiteId: number) => db.select().from(analyticsEvents).where(eq(analyticsEvents.websiteId, websiteId));

  describe('POST /api/phone-reveal', () => {
    it('answers the full number and records the reveal with the car, dealership and website ids', async () => {
      const before = (await events(tenant.id)).length;
      const response = await post(phoneReveal, json({ car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ phone: '02 9555 0101' });
      const recorded = await events(tenant.id);
      expect(recorded).toHaveLength(before + 1);
      expect(recorded.at(-1)).toMatchObject({
        category: 25,
        eventProperties: { name: 'phone_reveal', car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id },
      });
    });

    it('sends a form post without JavaScript back to the car page with the number shown', async () => {
      const response = await post(
        phoneReveal,
        `car_id=${ids.listed}&dealership_id=${dealerId}&website_id=${tenant.id}`,
        undefined,
        'application/x-www-form-urlencoded',
      );
      expect(response.status).toBe(303);
      const location = response.headers.get('location') ?? '';
      expect(location).toMatch(/^\/cars\/listed\?show_phone=[0-9a-f-]{36}#call-dealer$/);
      const token = /show_phone=([0-9a-f-]{36})/.exec(location)![1];
      // The token is good for this car only, and a made-up one shows nothing.
      expect(await wasPhoneRevealed(tenant, ids.listed, token)).toBe(true);
      expect(await wasPhoneRevealed(tenant, ids.listed, '1')).toBe(false);
      expect(await wasPhoneRevealed(tenant, ids.listed, crypto.randomUUID())).toBe(false);
      expect(await wasPhoneRevealed(tenant, ids.listed + 1, token)).toBe(false);
    });

    it('refuses malformed and hostile bodies with 4xx naming the field', async () => {
      const cases: [BodyInit, number, string?][] = [
        ['', 400],
        ['{', 400],
        [json([]), 400, 'body'],
        [json({ car_id: '1', dealership_id: dealerId, website_id: tenant.id }), 400, 'car_id'],
        [json({ car_id: -1, dealership_id: dealerId, website_id: tenant.id }), 400, 'car_id'],
        [json({ car_id: 1.5, dealership_id: dealerId, website_id: tenant.id }), 400, 'car_id'],
        [json({ car_id: 99_999_999_999, dealership_id: dealerId, website_id: tenant.id }), 400, 'car_id'],
        [json({ car_id: ids.listed, dealership_id: dealerId }), 400, 'website_id'],
        [json({ car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id, extra: "'; drop table cars;--" }), 400, 'extra'],
        ['x'.repeat(10_000), 413],
      ];
      for (const [body, status, field] of cases) {
        const response = await post(phoneReveal, body);
        expect(response.status, String(body).slice(0, 40)).toBe(status);
        const answer = (await response.json()) as { error: string; fields?: Record<string, string> };
        expect(answer.error).toBeTruthy();
        if (field) expect(Object.keys(answer.fields ?? {})).toContain(field);
      }
    });

    it('answers 404 for another website’s car, a mismatched dealership or website, an unlisted car or an unknown host', async () => {
      const before = (await events(tenant.id)).length;
      const cases = [
        { car_id: ids['other-car'], dealership_id: otherDealerId, website_id: tenant.id },
        { car_id: ids['other-car'], dealership_id: otherDealerId, website_id: other.id },
        { car_id: ids.listed, dealership_id: otherDealerId, website_id: tenant.id },
        { car_id: ids.listed, dealership_id: dealerId, website_id: other.id },
        { car_id: ids.hidden, dealership_id: dealerId, website_id: tenant.id },
        { car_id: ids['sold-long-ago'], dealership_id: dealerId, website_id: tenant.id },
      ];
      for (const body of cases) expect((await post(phoneReveal, json(body))).status).toBe(404);
      expect((await post(phoneReveal, json({ car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id }), 'nobody.localhost')).status).toBe(404);
      // The other website's own car, asked for through this website's host: still 404.
      const foreign = await post(phoneReveal, json({ car_id: ids['other-car'], dealership_id: otherDealerId, website_id: other.id }));
      expect(foreign.status).toBe(404);
      // Exactly what the security probe's 'A's car revealed on B' expects: no phone, the not-found answer.
      expect(await foreign.text()).toBe('{"error":"Not found"}');
      expect(await events(tenant.id)).toHaveLength(before);
      expect(await events(other.id)).toHaveLength(0);
    });
  });

  describe('POST /api/events/car_phone_call', () => {
    it('records the event with the page url', async () => {
      const response = await post(carPhoneCall, json({ car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id, url: 'https://page.test/cars/listed' }));
      expect(response.status).toBe(202);
      const recorded = await events(tenant.id);
      expect(recorded.at(-1)).toMatchObject({
        category: 25,
        url: 'https://page.test/cars/listed',
        eventProperties: { name: 'car_phone_call', car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id },
      });
    });

    it('cleans a page url nobody typed instead of refusing the event (NUL, lone surrogate, too long, not text)', async () => {
      const ids3 = { car_id: ids.listed, dealership_id: dealerId, website_id: tenant.id };
      const cases: [unknown, string | null][] = [
        ['https://page.test/a\u0000b\uD800c', 'https://page.test/a b c'],
        ['x'.repeat(2001), 'x'.repeat(2000)],
        [5, null],
      ];
      for (const [url, stored] of cases) {
        expect((await post(carPhoneCall, json({ ...ids3, url }))).status).toBe(202);
        expect((await events(tenant.id)).at(-1)?.url).toBe(stored);
      }
    });

    it('refuses bad input with 4xx and another website’s car with 404', async () => {
      expect((await post(carPhoneCall, 'car_id=1', undefined, 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await post(carPhoneCall, json({ car_id: ids['other-car'], dealership_id: otherDealerId, website_id: other.id }))).status).toBe(404);
    });
  });
});
