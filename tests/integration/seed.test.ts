import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { databaseHasWebsites, seedDemoData, type SeedSummary } from '@/demo';
import { runAlertsSweep } from '@/modules/alerts/alerts.housekeeping';
import { contentPages } from '@/modules/content/content.schema';
import { bookings, locations, specialHours } from '@/modules/locations/locations.schema';
import { carImages, carPaymentProcessors, cars } from '@/modules/stock/stock.schema';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { dealerships, manufacturers, navigationItems, searchPages, websiteDomains, websites } from '@/modules/tenancy/tenancy.schema';
import { useTestDatabase } from '../support/database';

const SLUGS = [
  'harbour-city-motors',
  'southern-cross-skoda',
  'outback-trucks',
  'coastline-motorcycles',
  'wanderer-rv',
  'gold-coast-used-cars',
  'kiwi-motors',
  'lone-star-auto',
];
const DAY = 86_400_000;

/** Every row of the demo data, minus generated ids and timestamps, in a stable order. */
async function snapshot(db: Db) {
  const withoutTimes = <T extends Record<string, unknown>>(rows: T[], drop: string[] = []) =>
    rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k, v]) => !(v instanceof Date) && !drop.includes(k))));
  return {
    manufacturers: withoutTimes(await db.select().from(manufacturers).orderBy(asc(manufacturers.slug))),
    websites: withoutTimes(await db.select().from(websites).orderBy(asc(websites.id))),
    domains: withoutTimes(await db.select().from(websiteDomains).orderBy(asc(websiteDomains.host)), ['id']),
    dealerships: withoutTimes(await db.select().from(dealerships).orderBy(asc(dealerships.id))),
    locations: withoutTimes(await db.select().from(locations).orderBy(asc(locations.id))),
    specialHours: withoutTimes(await db.select().from(specialHours).orderBy(asc(specialHours.locationId), asc(specialHours.date)), ['id']),
    bookings: withoutTimes(await db.select().from(bookings).orderBy(asc(bookings.locationId), asc(bookings.startsAt)), ['id']),
    navigation: withoutTimes(await db.select().from(navigationItems).orderBy(asc(navigationItems.id))),
    searchPages: withoutTimes(await db.select().from(searchPages).orderBy(asc(searchPages.websiteId), asc(searchPages.slug)), ['id']),
    content: withoutTimes(await db.select().from(contentPages).orderBy(asc(contentPages.websiteId), asc(contentPages.slug)), ['id']),
    cars: withoutTimes(await db.select().from(cars).orderBy(asc(cars.id))),
    images: withoutTimes(await db.select().from(carImages).orderBy(asc(carImages.carId), asc(carImages.position)), ['id']),
    processors: withoutTimes(await db.select().from(carPaymentProcessors).orderBy(asc(carPaymentProcessors.carId)), ['id']),
  };
}

/** Rows of a raw query, whichever driver ran it. */
async function rowsOf(db: Db, query: ReturnType<typeof sql>): Promise<unknown[]> {
  const result = (await db.execute(query)) as unknown as { rows: unknown[] };
  return result.rows;
}

async function siteId(db: Db, slug: string): Promise<number> {
  const [row] = await db.select({ id: websites.id }).from(websites).where(eq(websites.slug, slug));
  return row.id;
}

describe('demo seed', () => {
  let db: Db;
  let summary: SeedSummary;
  let first: Awaited<ReturnType<typeof snapshot>>;
  const now = new Date();

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    expect(await databaseHasWebsites(db)).toBe(false);
    summary = await seedDemoData(db, { mediaDir: null, now });
    first = await snapshot(db);
  }, 180_000);

  it('creates the eight demo websites with their exact slugs, domains and logos', async () => {
    expect(await databaseHasWebsites(db)).toBe(true);
    const rows = await db.select().from(websites).orderBy(asc(websites.id));
    expect(rows.map((w) => w.slug)).toEqual(SLUGS);
    expect(summary.websites).toBe(8);
    for (const w of rows) expect(w.logoUrl).toBe(`/media/logos/${w.slug}.svg`);
    const domains = await db.select().from(websiteDomains);
    expect(domains.map((d) => d.host).sort()).toEqual(SLUGS.map((s) => `${s}.example`).sort());
    expect(domains.every((d) => d.primary)).toBe(true);
  });

  it('stores configurations that pass the schema, as written', async () => {
    const rows = await db.select({ slug: websites.slug, config: websites.config }).from(websites);
    for (const row of rows) {
      const parsed = websiteConfigSchema.safeParse(row.config);
      expect(parsed.success, row.slug).toBe(true);
    }
    // Stored as written: defaults are not expanded into the row.
    const kiwi = rows.find((r) => r.slug === 'kiwi-motors')!.config as Record<string, unknown>;
    expect(kiwi.vehiclePath).toBeUndefined();
  });

  it('loads at least 1,500 vehicles with every status', async () => {
    const [{ count }] = await db.select({ count: sql<number>`cast(count(*) as integer)` }).from(cars);
    expect(count).toBeGreaterThanOrEqual(1500);
    expect(summary.cars).toBe(count);
    const statuses = await db.selectDistinct({ status: cars.status }).from(cars);
    expect(statuses.map((s) => s.status).sort()).toEqual(['coming_soon', 'in_stock', 'sold']);
    const perSite = await db
      .select({ websiteId: cars.websiteId, count: sql<number>`cast(count(*) as integer)` })
      .from(cars)
      .groupBy(cars.websiteId);
    expect(perSite).toHaveLength(8);
    const harbour = perSite.find((r) => r.websiteId === 1)!.count;
    expect(Math.max(...perSite.map((r) => r.count))).toBe(harbour);
  });

  it('dates sold cars in the last five days, and some long ago', async () => {
    const sold = await db.select({ soldDate: cars.soldDate }).from(cars).where(eq(cars.status, 'sold'));
    const ages = sold.map((c) => (now.getTime() - c.soldDate!.getTime()) / DAY);
    expect(ages.filter((d) => d >= 0 && d <= 5).length).toBeGreaterThan(8);
    expect(ages.filter((d) => d <= 3).length).toBeGreaterThan(0);
    expect(ages.filter((d) => d > 3 && d <= 5).length).toBeGreaterThan(0);
    expect(ages.filter((d) => d > 10).length).toBeGreaterThan(8);
    const [{ unsoldWithDate }] = await db
      .select({ unsoldWithDate: sql<number>`cast(count(*) as integer)` })
      .from(cars)
      .where(sql`${cars.status} <> 'sold' and ${cars.soldDate} is not null`);
    expect(unsoldWithDate).toBe(0);
  });

  it('has as many image rows as each car says it has photos, the first being the primary image', async () => {
    const mismatched = await rowsOf(db, sql`
      select c.id from cars c
      left join car_images i on i.car_id = c.id and i.website_id = c.website_id
      group by c.id, c.photos_count
      having count(i.id) <> c.photos_count`);
    expect(mismatched).toEqual([]);
    const wrongPrimary = await rowsOf(db, sql`
      select c.id from cars c
      left join car_images i on i.car_id = c.id and i.position = 0
      where coalesce(c.primary_image_url, '') <> coalesce(i.url, '')`);
    expect(wrongPrimary).toEqual([]);
    const [{ images }] = await db.select({ images: sql<number>`cast(count(*) as integer)` }).from(carImages);
    expect(images).toBe(summary.imageRows);
  });

  it('keeps every row inside its tenant: car locations, dealerships and images belong to the car’s website', async () => {
    const foreignLocation = await rowsOf(db, sql`
      select c.id from cars c left join locations l on l.id = c.location_id
      where c.location_id is null or l.website_id <> c.website_id or l.dealership_id <> c.dealership_id`);
    expect(foreignLocation).toEqual([]);
    const foreignDealership = await rowsOf(db, sql`
      select c.id from cars c join dealerships d on d.id = c.dealership_id where d.website_id <> c.website_id`);
    expect(foreignDealership).toEqual([]);
    const foreignImage = await rowsOf(db, sql`
      select i.id from car_images i join cars c on c.id = i.car_id where c.website_id <> i.website_id`);
    expect(foreignImage).toEqual([]);
    const mismatchedCity = await rowsOf(db, sql`
      select c.id from cars c join locations l on l.id = c.location_id where c.city <> l.city or c.state <> l.state`);
    expect(mismatchedCity).toEqual([]);
  });

  it('gives cars of every website a price history that ends at the car’s price, inside the car’s website (issue 35)', async () => {
    const perSite = await rowsOf(db, sql`
      select w.slug, count(distinct pc.car_id)::int as cars from websites w left join car_price_changes pc on pc.website_id = w.id group by w.slug`);
    for (const row of perSite as { slug: string; cars: number }[]) expect(row.cars, row.slug).toBeGreaterThan(0);
    const inconsistent = await rowsOf(db, sql`
      select c.id from cars c join lateral (
        select pc.new_price, pc.website_id from car_price_changes pc where pc.car_id = c.id order by pc.changed_at desc limit 1) last on true
      where last.new_price <> c.price or last.website_id <> c.website_id`);
    expect(inconsistent).toEqual([]);
  });

  it('keeps car ids stable, so dashboard URLs like /websites/1/cars/{slug}.json stay valid', async () => {
    const [car] = await db.select({ id: cars.id, slug: cars.slug }).from(cars).where(eq(cars.websiteId, 1)).orderBy(asc(cars.id)).limit(1);
    expect(car.id).toBe(100_001);
    expect(car.slug).toMatch(/-100001$/);
  });

  it('models the per-site facts', async () => {
    const config = async (slug: string) => {
      const [row] = await db.select({ config: websites.config }).from(websites).where(eq(websites.slug, slug));
      return websiteConfigSchema.parse(row.config);
    };
    expect((await config('coastline-motorcycles')).vehiclePath).toBe('motorcycles');
    expect(await config('lone-star-auto')).toMatchObject({ locale: 'en-US', distanceUnit: 'mi', currency: 'USD', timeZone: 'America/Chicago' });
    expect((await config('kiwi-motors')).currency).toBe('NZD');
    expect((await config('southern-cross-skoda')).search.allStockPath).toBe('/pre-owned');

    const [skoda] = await db
      .select({ displayName: manufacturers.displayName, slug: manufacturers.slug })
      .from(websites)
      .innerJoin(manufacturers, eq(manufacturers.id, websites.manufacturerId))
      .where(eq(websites.slug, 'southern-cross-skoda'));
    expect(skoda).toEqual({ displayName: 'Škoda', slug: 'skoda' });
    const [chery] = await db.select().from(manufacturers).where(eq(manufacturers.slug, 'chery'));
    expect(chery.displayName).toBe('Chery');
    const skodaMakes = await db.selectDistinct({ make: cars.make }).from(cars).where(eq(cars.websiteId, await siteId(db, 'southern-cross-skoda')));
    expect(skodaMakes.map((m) => m.make)).toContain('ŠKODA');

    const rv = await siteId(db, 'wanderer-rv');
    const rvLocations = await db.select().from(locations).where(eq(locations.websiteId, rv));
    const offRoad = rvLocations.find((l) => l.settings.appointmentOnly === true)!;
    expect(offRoad.name).toContain('Off-Road');
    const offRoadHours = await db.select().from(specialHours).where(eq(specialHours.locationId, offRoad.id));
    expect(offRoadHours.length).toBeGreaterThan(0);
    expect(offRoadHours.every((h) => h.status === 'Closed')).toBe(true);

    const harbour = await siteId(db, 'harbour-city-motors');
    const harbourLocations = await db.select().from(locations).where(eq(locations.websiteId, harbour));
    expect(harbourLocations.map((l) => l.locationType).sort()).toEqual(['sales', 'sales', 'service-and-parts']);
    expect(await db.select().from(dealerships).where(eq(dealerships.websiteId, harbour))).toHaveLength(2);
    const processors = await db.select().from(carPaymentProcessors).where(eq(carPaymentProcessors.websiteId, harbour));
    expect(processors.length).toBeGreaterThan(10);
    expect(processors.every((p) => p.authorizationType === 'Stripe' && p.authorizationKey!.startsWith('pk_test_') && p.depositAmount === 500)).toBe(true);
    const subscriptions = await db
      .select({ n: sql<number>`cast(count(*) as integer)` })
      .from(cars)
      .where(sql`${cars.websiteId} = ${harbour} and ${cars.subscriptionPrice} is not null`);
    expect(subscriptions[0].n).toBeGreaterThan(0);

    const itemTypes = await db.selectDistinct({ itemType: cars.itemType }).from(cars).where(eq(cars.websiteId, await siteId(db, 'outback-trucks')));
    expect(itemTypes.map((t) => t.itemType)).toEqual(['truck']);

    const labrador = await db.select().from(searchPages).where(eq(searchPages.websiteId, await siteId(db, 'gold-coast-used-cars')));
    expect(labrador.map((p) => p.slug)).toEqual(expect.arrayContaining(['used-cars', 'used-cars-in-labrador']));
    const titan = await db.select().from(contentPages).where(eq(contentPages.slug, 'selling-your-car-with-titan'));
    expect(titan).toHaveLength(1);

    const lone = await siteId(db, 'lone-star-auto');
    const loneLocations = await db.select().from(locations).where(eq(locations.websiteId, lone));
    expect(loneLocations.every((l) => l.country === 'US' && l.state === 'TX' && l.timeZone === 'America/Chicago')).toBe(true);
    const kiwiLocations = await db.select().from(locations).where(eq(locations.websiteId, await siteId(db, 'kiwi-motors')));
    expect(kiwiLocations.every((l) => l.country === 'NZ' && l.phone.startsWith('0') && l.timeZone === 'Pacific/Auckland')).toBe(true);
    expect((await db.select().from(locations).where(eq(locations.visible, false))).length).toBeGreaterThan(0);
    expect((await db.select().from(bookings)).length).toBeGreaterThan(0);
  });

  it('builds header dropdowns whose parents are in the same website', async () => {
    const orphans = await rowsOf(db, sql`
      select n.id from navigation_items n left join navigation_items p on p.id = n.parent_id
      where n.parent_id is not null and (p.id is null or p.website_id <> n.website_id)`);
    expect(orphans).toEqual([]);
    const dropdowns = await rowsOf(db, sql`select distinct website_id from navigation_items where parent_id is not null and menu = 'header'`);
    expect(dropdowns).toHaveLength(8);
  });

  it('gives each website with the garage a visitor with alerts on, whose first sweep queues a digest with a price drop and new stock (issue 35)', async () => {
    expect(await runAlertsSweep()).toMatchObject({ queued: 2 });
    const digests = (await rowsOf(db, sql`
      select w.slug, d.payload from lead_deliveries d join websites w on w.id = d.website_id where d.channel = 'visitor_alert_email' order by w.slug`)) as { slug: string; payload: { to: string; text: string } }[];
    expect(digests.map((d) => [d.slug, d.payload.to])).toEqual([
      ['harbour-city-motors', 'sam.visitor@example.com'],
      ['kiwi-motors', 'sam.visitor@example.com'],
    ]);
    for (const { payload } of digests) {
      expect(payload.text).toMatch(/Price drops on cars you saved\n- .+: now \$[\d,]+ \(was \$[\d,]+\)/);
      expect(payload.text).toContain('New cars for your saved searches');
    }
  });

  it('replaces its own data on a second run, identically, and leaves other websites alone', async () => {
    // Another dealer added after the demo: the sequences must have moved past the demo ids.
    const [other] = await db.insert(websites).values({ slug: 'not-a-demo-dealer', name: 'Not a Demo', config: {} }).returning();
    expect(other.id).toBeGreaterThan(8);
    const [otherDealership] = await db.insert(dealerships).values({ websiteId: other.id, slug: 'not-a-demo-dealership', name: 'Not a Demo' }).returning();
    const [otherCar] = await db
      .insert(cars)
      .values({ websiteId: other.id, dealershipId: otherDealership.id, slug: 'x-1', name: '2020 X Y', make: 'X', model: 'Y', year: 2020, carType: 'used' })
      .returning();
    expect(otherCar.id).toBeGreaterThan(800_000);

    // A stray change to demo data is undone by the re-seed.
    await db.update(cars).set({ price: 1 }).where(eq(cars.id, 100_002));

    const again = await seedDemoData(db, { mediaDir: null, now });
    expect(again.cars).toBe(summary.cars);
    const second = await snapshot(db);
    const otherRows = (rows: Array<Record<string, unknown>>) => rows.filter((r) => r.websiteId === other.id || r.id === other.id);
    expect(otherRows(second.websites)).toHaveLength(1);
    expect(otherRows(second.cars)).toHaveLength(1);
    const demoOnly = <T extends Record<string, unknown>>(rows: T[]) => rows.filter((r) => (r.websiteId ?? r.id) !== other.id);
    for (const table of Object.keys(first) as Array<keyof typeof first>) {
      expect(demoOnly(second[table]), table).toEqual(demoOnly(first[table]));
    }
  }, 180_000);
});
