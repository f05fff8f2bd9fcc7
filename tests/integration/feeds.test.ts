import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, not, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { seedDemoData } from '@/demo';
import { odometerValue } from '@/lib/format';
import { feedResponse } from '@/modules/feeds/feeds.route';
import { carImages, cars } from '@/modules/stock/stock.schema';
import { visibleCarsWhere } from '@/modules/stock/stock.queries';
import { carPath, siteOrigin } from '@/modules/tenancy/tenancy.paths';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { websites } from '@/modules/tenancy/tenancy.schema';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { useTestDatabase } from '../support/database';
import { checkRecords, GOOGLE_FIELDS, META_FIELDS, readGoogleXml, readMetaCsv, type FeedRecord } from '../support/feed-specs';

const host = (slug: string) => `${slug}.localhost`;
const META = 'meta-vehicles.csv';
const GOOGLE = 'google-vehicles.xml';

type ListedCar = { id: number; slug: string; km: number; price: number; itemType: string; vin: string | null; colour: string | null; hasImage: boolean };

describe('vehicle-ad feeds of the demo websites', () => {
  let db: Db;
  let tenants: Tenant[];
  /** The websites selling cars (not motorcycles or campers): Google's vehicle ads take theirs. */
  let carSites: Tenant[];
  const now = new Date();

  async function read(tenant: Tenant, file: string, options: { batchSize?: number } = {}) {
    const res = await feedResponse(host(tenant.slug), file, { now, ...options });
    expect(res.status, `${tenant.slug} ${file}`).toBe(200);
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const text = await res.text();
    if (file === META) {
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const { header, records } = readMetaCsv(text);
      expect(header).toEqual(META_FIELDS.map((f) => f.name));
      return { text, errors: [] as string[], records, ids: records.map((r) => r.vehicle_id[0]), urls: records.map((r) => r.url[0]) };
    }
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const { errors, records, fulfillment } = readGoogleXml(text);
    for (const [i, group] of fulfillment.entries()) expect(group, `item ${i + 1}`).toEqual({ option: 'in_store', store_code: records[i].store_code[0] });
    return { text, errors, records, ids: records.map((r) => r.id[0]), urls: records.map((r) => r.link[0]) };
  }

  /** The listed cars by the car page's own rule, with what decides whether an ad can be made. */
  async function listed(tenant: Tenant): Promise<ListedCar[]> {
    return db
      .select({
        id: cars.id,
        slug: cars.slug,
        km: cars.km,
        price: cars.price,
        itemType: cars.itemType,
        vin: cars.vin,
        colour: cars.colour,
        hasImage: sql<boolean>`(coalesce(${cars.primaryImageUrl}, '') <> '' or exists (select 1 from ${carImages} where ${carImages.carId} = ${cars.id}))`,
      })
      .from(cars)
      .where(visibleCarsWhere(tenant, now))
      .orderBy(asc(cars.id));
  }

  const adable = (car: ListedCar) => car.price > 10 && (car.hasImage === true || String(car.hasImage) === 't');
  const expectedIds = {
    [META]: (all: ListedCar[]) => all.filter(adable).map((c) => String(c.id)),
    [GOOGLE]: (all: ListedCar[]) => all.filter((c) => adable(c) && ['car', 'truck'].includes(c.itemType) && !!c.vin?.trim()).map((c) => String(c.id)),
  };

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    await seedDemoData(db, { mediaDir: null, now });
    const slugs = (await db.select({ slug: websites.slug }).from(websites).orderBy(asc(websites.id))).map((w) => w.slug);
    tenants = (await Promise.all(slugs.map((slug) => findTenantByHost(host(slug))))).filter((t): t is Tenant => t !== null);
    expect(tenants).toHaveLength(8);
    carSites = tenants.filter((t) => t.config.vehiclePath === 'cars');
    expect(carSites.length).toBeGreaterThan(4);
  }, 240_000);

  it('lists every listed car it can advertise exactly once, nothing of another website, every field valid', async () => {
    for (const tenant of tenants) {
      const all = await listed(tenant);
      const byId = new Map(all.map((c) => [String(c.id), c]));
      const origin = siteOrigin(tenant, host(tenant.slug)).origin;
      const others = await db.select({ id: cars.id }).from(cars).where(not(eq(cars.websiteId, tenant.id)));
      const hidden = await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, tenant.id), not(visibleCarsWhere(tenant, now))));
      for (const [file, fields] of [[META, META_FIELDS], [GOOGLE, GOOGLE_FIELDS]] as const) {
        const feed = await read(tenant, file);
        const where = `${tenant.slug} ${file}`;
        expect(feed.errors, where).toEqual([]);
        const expected = expectedIds[file](all);
        // A motorcycle dealer has nothing Google's vehicle ads take; every site has a Meta catalogue.
        if (file === META || tenant.config.vehiclePath === 'cars') expect(expected.length, `${where}: the demo should give it cars`).toBeGreaterThan(0);
        expect(new Set(feed.ids).size, `${where}: an id twice`).toBe(feed.ids.length);
        expect([...feed.ids].sort(), where).toEqual([...expected].sort());
        for (const { id } of [...others, ...hidden]) expect(feed.ids).not.toContain(String(id));

        const knownEmpty = (record: FeedRecord, field: string) => {
          const car = byId.get(record.vehicle_id?.[0] ?? record.id[0])!;
          return (field === 'exterior_color' || field === 'color') && !car.colour?.trim();
        };
        expect(checkRecords(feed.records, fields, { knownEmpty }), where).toEqual([]);

        // Absolute URLs on the website's own origin; the car page's path; images absolute too.
        feed.records.forEach((record, i) => {
          const car = byId.get(feed.ids[i])!;
          expect(feed.urls[i]).toBe(`${origin}${carPath(tenant, car.slug)}`);
          const image = record['image[0].url']?.[0] ?? record.image_link[0];
          expect(new URL(image).protocol).toMatch(/^https?:$/);
          // Price in the website's currency, mileage in its unit.
          expect(record.price[0]).toBe(`${car.price} ${tenant.config.currency}`);
          const distance = odometerValue(tenant.config, car.km);
          if (file === META) {
            expect(record['mileage.value'][0]).toBe(String(distance));
            expect(record['mileage.unit'][0]).toBe(tenant.config.distanceUnit === 'mi' ? 'MI' : 'KM');
          } else {
            expect(record.mileage[0]).toBe(`${distance} ${tenant.config.distanceUnit === 'mi' ? 'miles' : 'km'}`);
          }
        });
      }
    }
    // The demo has a US website (miles, USD) and an NZ one (NZD): both units and three currencies ran.
    expect(new Set(tenants.map((t) => t.config.distanceUnit))).toEqual(new Set(['km', 'mi']));
    expect(new Set(tenants.map((t) => t.config.currency))).toEqual(new Set(['AUD', 'NZD', 'USD']));
  });

  it('reads the stock page by page without losing or repeating a car', async () => {
    const tenant = carSites[0];
    for (const file of [META, GOOGLE]) {
      const whole = await read(tenant, file);
      const paged = await read(tenant, file, { batchSize: 7 });
      expect(paged.text).toBe(whole.text);
    }
  });

  it('drops a car the dealer withdraws or that sold long ago, at once', async () => {
    const tenant = carSites[1];
    const [first, second] = (await listed(tenant)).filter(adable);
    await db.update(cars).set({ showOnDealerWebsite: false }).where(eq(cars.id, first.id));
    await db.update(cars).set({ status: 'sold', soldDate: new Date(now.getTime() - 400 * 86_400_000) }).where(eq(cars.id, second.id));
    try {
      for (const file of [META, GOOGLE]) {
        const { ids } = await read(tenant, file);
        expect(ids).not.toContain(String(first.id));
        expect(ids).not.toContain(String(second.id));
      }
    } finally {
      await db.update(cars).set({ showOnDealerWebsite: true }).where(eq(cars.id, first.id));
      await db.update(cars).set({ status: 'in_stock', soldDate: null }).where(eq(cars.id, second.id));
    }
  });

  it('a car sold within the display window is still listed, marked not available', async () => {
    const tenant = carSites[2];
    const car = (await listed(tenant)).find((c) => adable(c) && ['car', 'truck'].includes(c.itemType) && c.vin);
    await db.update(cars).set({ status: 'sold', soldDate: new Date(now.getTime() - 3_600_000) }).where(eq(cars.id, car!.id));
    try {
      const meta = await read(tenant, META);
      expect(meta.records.find((r) => r.vehicle_id[0] === String(car!.id))?.availability).toEqual(['NOT_AVAILABLE']);
      const google = await read(tenant, GOOGLE);
      expect(google.records.find((r) => r.id[0] === String(car!.id))?.availability).toEqual(['out_of_stock']);
    } finally {
      await db.update(cars).set({ status: 'in_stock', soldDate: null }).where(eq(cars.id, car!.id));
    }
  });

  it('escapes hostile text in a car’s fields: quotes, commas, newlines, markup, ampersands and control characters', async () => {
    const tenant = carSites[0];
    const car = (await listed(tenant)).find((c) => adable(c) && c.itemType === 'car' && c.vin)!;
    const hostile = {
      name: '2020 "Turbo", <b>Fast</b> & Co\u0007\u001f \'GT\'',
      make: 'Mak,e"\r\n<x>',
      model: ']]></g:model><g:price>1 USD</g:price>',
      description: 'Line one, with "quotes"\nLine two & <script>alert(1)</script>\u001b\u000b\r\n=HYPERLINK("x")\u007f',
      colour: 'Red\tand "blue", <green>',
    };
    const [before] = await db.select().from(cars).where(eq(cars.id, car.id));
    await db.update(cars).set(hostile).where(eq(cars.id, car.id));
    try {
      const meta = await read(tenant, META);
      expect(meta.text).not.toMatch(/[\u0007\u000b\u001b\u001f\u007f]/);
      const row = meta.records.find((r) => r.vehicle_id[0] === String(car.id))!;
      expect(row.title[0]).toBe('2020 "Turbo", <b>Fast</b> & Co \'GT\'');
      expect(row.make[0]).toBe('Mak,e" <x>');
      expect(row.model[0]).toBe(hostile.model);
      expect(row.description[0]).toBe('Line one, with "quotes"\nLine two & <script>alert(1)</script>\n=HYPERLINK("x")');
      expect(row.exterior_color[0]).toBe('Red and "blue", <green>');
      expect(meta.records).toHaveLength(expectedIds[META](await listed(tenant)).length);

      const google = await read(tenant, GOOGLE);
      expect(google.errors).toEqual([]);
      const item = google.records.find((r) => r.id[0] === String(car.id))!;
      expect(item.title).toEqual([row.title[0]]);
      expect(item.brand).toEqual([row.make[0]]);
      expect(item.model).toEqual([hostile.model]);
      expect(item.price).toEqual([`${car.price} ${tenant.config.currency}`]);
      expect(item.description).toEqual([row.description[0]]);
      expect(item.color).toEqual([row.exterior_color[0]]);
      expect(checkRecords([item], GOOGLE_FIELDS)).toEqual([]);
    } finally {
      await db
        .update(cars)
        .set({ name: before.name, make: before.make, model: before.model, description: before.description, colour: before.colour })
        .where(eq(cars.id, car.id));
    }
  });

  it('a feed the website turned off answers 404; the other stays on', async () => {
    const tenant = tenants[3];
    const [row] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, tenant.id));
    await db
      .update(websites)
      .set({ config: { ...row.config, feeds: { meta: { enabled: false } } } })
      .where(eq(websites.id, tenant.id));
    try {
      expect((await feedResponse(host(tenant.slug), META)).status).toBe(404);
      expect((await feedResponse(host(tenant.slug), GOOGLE)).status).toBe(200);
      await db
        .update(websites)
        .set({ config: { ...row.config, feeds: { google: { enabled: false } } } })
        .where(eq(websites.id, tenant.id));
      expect((await feedResponse(host(tenant.slug), GOOGLE)).status).toBe(404);
      expect((await feedResponse(host(tenant.slug), META)).status).toBe(200);
    } finally {
      await db.update(websites).set({ config: row.config }).where(eq(websites.id, tenant.id));
    }
  });

  it('sends the store code the website configured for a location, else the location’s slug', async () => {
    const tenant = carSites[4];
    const before = await read(tenant, GOOGLE);
    const slug = before.records[0].store_code[0];
    const [row] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, tenant.id));
    await db
      .update(websites)
      .set({ config: { ...row.config, feeds: { google: { storeCodes: { [slug]: 'GBP-1234' } } } } })
      .where(eq(websites.id, tenant.id));
    try {
      const after = await read(tenant, GOOGLE);
      expect(after.records.filter((r) => r.store_code[0] === 'GBP-1234').length).toBe(before.records.filter((r) => r.store_code[0] === slug).length);
      expect(after.records.some((r) => r.store_code[0] === slug)).toBe(false);
    } finally {
      await db.update(websites).set({ config: row.config }).where(eq(websites.id, tenant.id));
    }
  });

  it('an unknown host (or none: a Host header that is not a host name) or an unknown feed file answers 404', async () => {
    for (const unknown of ['nobody-here.example', null]) {
      expect((await feedResponse(unknown, META)).status).toBe(404);
      expect((await feedResponse(unknown, GOOGLE)).status).toBe(404);
    }
    for (const file of ['meta-vehicles.xml', 'google-vehicles.csv', 'constructor', '__proto__', '../sitemap.xml', 'meta-vehicles.csv%00']) {
      expect((await feedResponse(host(tenants[0].slug), file)).status, file).toBe(404);
    }
  });

  it('ids are the cars’ own, so no two websites’ feeds share an item', async () => {
    const seen = new Map<string, string>();
    for (const tenant of tenants) {
      for (const id of (await read(tenant, META)).ids) {
        expect(seen.get(id), id).toBeUndefined();
        seen.set(id, tenant.slug);
      }
    }
    const ids = [...seen.keys()].map(Number);
    const owners = await db.select({ id: cars.id, websiteId: cars.websiteId }).from(cars).where(inArray(cars.id, ids));
    const slugById = new Map(tenants.map((t) => [t.id, t.slug]));
    for (const owner of owners) expect(seen.get(String(owner.id))).toBe(slugById.get(owner.websiteId));
  });
});
