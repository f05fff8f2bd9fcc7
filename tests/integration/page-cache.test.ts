import http from 'node:http';
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { installRequestHooks } from '@/lib/request-hooks';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { navigationItems, websites, dealerships, manufacturers } from '@/modules/tenancy/tenancy.schema';
import { locations, specialHours } from '@/modules/locations/locations.schema';
import { contentPages } from '@/modules/content/content.schema';
import { cars } from '@/modules/stock/stock.schema';
import { findTenantById, getNavigation, websiteVersion } from '@/modules/tenancy/tenancy.queries';
import { getCarBySlug, stockListingVersion } from '@/modules/stock/stock.queries';
import { listUpcomingSpecialHours, listVisibleLocations } from '@/modules/locations/locations.queries';
import { LocationCard } from '@/modules/locations/components/location-card';
import { formatMoney } from '@/lib/format';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

/**
 * The page cache end to end: the real request hooks, version functions and database triggers, and
 * a page that renders what the home and contact pages render (navigation, a car's price, a
 * location card with its hours) from the database on every miss. Next's own rendering is what the
 * e2e page-cache spec covers; this covers every kind of data change and the clock.
 */

// Monday 2 March 2026, 8:29 am in Sydney (AEDT, +11:00): a minute before the yard opens.
const MONDAY_0829_SYDNEY = Date.parse('2026-03-01T21:29:00Z');
const HOURS = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, status: 'Open' as const, open: '08:30', close: '17:30' }));

describe('page cache: a cached page changes with the data it shows and with the clock', () => {
  let db: Db;
  let tenant: Tenant;
  let websiteId: number;
  let locationId: number;
  let server: http.Server;
  let port: number;

  /** A page as the site renders it: opts in with the stock version first, then reads its data. */
  async function page(response: http.ServerResponse): Promise<void> {
    await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
    const fresh = (await findTenantById(websiteId))!;
    const now = new Date();
    const [navigation, car, visible, special] = await Promise.all([
      getNavigation(fresh),
      getCarBySlug(fresh, 'cached-car'),
      listVisibleLocations(fresh),
      listUpcomingSpecialHours(fresh, now),
    ]);
    const html = renderToStaticMarkup(
      createElement(
        Fragment,
        null,
        createElement('nav', null, navigation.header.map((item) => createElement('a', { key: item.id, href: item.url }, item.name))),
        createElement('h1', null, fresh.name),
        createElement('p', { id: 'price' }, car ? formatMoney(fresh.config, car.price) : 'no car'),
        visible.map((location) =>
          createElement(LocationCard, { key: location.id, tenant: fresh, location, specialHours: special.filter((s) => s.locationId === location.id), now }),
        ),
      ),
    );
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  }

  function get(path = '/'): Promise<{ cache: string; html: string }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: { host: 'cache-motors.localhost' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
            resolve({ cache: String(response.headers['x-page-cache']), html: Buffer.concat(chunks).toString('utf8') });
          });
        })
        .on('error', reject);
    });
  }

  /** The next request renders again and shows `text`; the one after is served from the cache. */
  /** Rendered again with `text` within the staleness bound (1 s, decision 055; at once on PGlite in process), then served from the cache. */
  async function expectRenderedAgainWith(text: string): Promise<void> {
    const changed = await vi.waitFor(
      async () => {
        const answer = await get();
        expect(answer.cache).toBe('miss');
        expect(answer.html).toContain(text);
        return answer;
      },
      { timeout: 1_000, interval: 20 },
    );
    const again = await get();
    expect(again.cache).toBe('hit');
    expect(again.html).toBe(changed.html);
  }

  beforeAll(async () => {
    // Only Date is faked: the clock the pages and the cache read. Sockets keep real timers.
    vi.useFakeTimers({ toFake: ['Date'], now: MONDAY_0829_SYDNEY });
    ({ db } = await useTestDatabase());
    const [site] = await db.insert(websites).values({ slug: 'cache-motors', name: 'Cache Motors', config: { timeZone: 'Australia/Sydney' } }).returning();
    websiteId = site.id;
    const [dealer] = await db.insert(dealerships).values({ websiteId, slug: 'cache-motors-dealer', name: 'Cache Motors Dealer' }).returning();
    const [yard] = await db
      .insert(locations)
      .values({ websiteId, dealershipId: dealer.id, name: 'Cache Yard', slug: 'yard', timeZone: 'Australia/Sydney', openingHours: HOURS, phone: '02 9555 0101' })
      .returning();
    locationId = yard.id;
    await db.insert(navigationItems).values({ websiteId, menu: 'header', position: 1, name: 'Used cars', url: '/search/used-cars' });
    await db.insert(cars).values({
      websiteId, dealershipId: dealer.id, locationId, slug: 'cached-car', name: '2021 Mazda CX-5', make: 'Mazda', model: 'CX-5',
      year: 2021, carType: 'used', price: 25_000, photosCount: 3,
    });
    tenant = (await findTenantById(websiteId))!;
    installRequestHooks({ pageCache: { maxBytes: 4 << 20, maxEntryBytes: 1 << 20, maxAgeMs: 24 * 3_600_000 }, trustedProxyHops: 0, development: true });
    server = http.createServer((_request, response) => void page(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    vi.useRealTimers();
  });

  it("turns 'open now' at the minute the location opens and closes, not a request later", async () => {
    const before = await get();
    expect(before.cache).toBe('miss');
    expect(before.html).toContain('Closed now · opens today at 8:30 am');
    vi.setSystemTime(MONDAY_0829_SYDNEY + 59_999);
    expect(await get()).toMatchObject({ cache: 'hit', html: before.html });

    vi.setSystemTime(MONDAY_0829_SYDNEY + 60_000);
    await expectRenderedAgainWith('Open now · closes at 5:30 pm');

    vi.setSystemTime(Date.parse('2026-03-02T06:30:00Z')); // 5:30 pm in Sydney
    await expectRenderedAgainWith('Closed now · opens tomorrow at 8:30 am');
  });

  it('shows a changed price on the next request', async () => {
    await get();
    expect((await get()).cache).toBe('hit');
    await db.update(cars).set({ price: 23_990 }).where(eq(cars.slug, 'cached-car'));
    await expectRenderedAgainWith('$23,990');
  });

  it('shows a changed opening-hours entry and new holiday hours on the next request', async () => {
    await get();
    const later = HOURS.map((entry) => (entry.weekday === 2 ? { ...entry, close: '19:00' } : entry));
    await db.update(locations).set({ openingHours: later }).where(eq(locations.id, locationId));
    await expectRenderedAgainWith('8:30 am - 7:00 pm');

    await db.insert(specialHours).values({ websiteId, locationId, date: '2026-03-04', status: 'Closed', name: 'Staff day' });
    await expectRenderedAgainWith('Staff day');
  });

  it('shows a new navigation item on the next request', async () => {
    await get();
    await db.insert(navigationItems).values({ websiteId, menu: 'header', position: 2, name: 'Service bookings', url: '/book-a-service' });
    await expectRenderedAgainWith('Service bookings');
  });

  it("shows a change to the website's own row on the next request", async () => {
    await get();
    await db.update(websites).set({ name: 'Cache Motors Group' }).where(eq(websites.id, websiteId));
    await expectRenderedAgainWith('Cache Motors Group');
  });
});

describe('websiteVersion and stockListingVersion', () => {
  let db: Db;
  let tenant: Tenant;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    const [site] = await db.insert(websites).values({ slug: 'version-motors', name: 'Version Motors', config: {} }).returning();
    tenant = (await findTenantById(site.id))!;
  });

  it('moves on with every change to what the pages show apart from cars, and only then', async () => {
    const seen = new Set([await websiteVersion(tenant)]);
    // A new version within the staleness bound (1 s, decision 055; at once on PGlite in process), or none.
    const changed = async (write: () => Promise<unknown>) => {
      await write();
      const until = performance.now() + 1_000;
      let version = await websiteVersion(tenant);
      while (seen.has(version) && performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        version = await websiteVersion(tenant);
      }
      const isNew = !seen.has(version);
      seen.add(version);
      return isNew;
    };
    const id = tenant.id;
    expect(await changed(() => db.update(websites).set({ config: { timeZone: 'Australia/Perth' } }).where(eq(websites.id, id)))).toBe(true);
    expect(await changed(() => db.insert(contentPages).values({ websiteId: id, slug: 'about-us', title: 'About us' }))).toBe(true);
    expect(await changed(() => db.update(contentPages).set({ body: 'Since 1962.' }).where(eq(contentPages.websiteId, id)))).toBe(true);
    expect(await changed(() => db.delete(contentPages).where(eq(contentPages.websiteId, id)))).toBe(true);
    expect(await changed(() => db.insert(manufacturers).values({ slug: 'version-make', name: 'Version', displayName: 'Vérsion' }))).toBe(true);
    // Stock counters on the website row are the cars' business (stockListingVersion), not this.
    expect(await changed(() => db.update(websites).set({ stockVersion: sql`${websites.stockVersion} + 1`, updatedAt: new Date() }).where(eq(websites.id, id)))).toBe(false);
    expect(await changed(() => db.update(contentPages).set({ body: 'x' }).where(eq(contentPages.websiteId, id)))).toBe(false);
  });

  it("is 'gone' for a deleted website, whose rows go by cascade without a generation left behind", async () => {
    const [site] = await db.insert(websites).values({ slug: 'doomed-motors', name: 'Doomed', config: {} }).returning();
    await db.insert(navigationItems).values({ websiteId: site.id, menu: 'header', name: 'Home', url: '/' });
    const doomed = (await findTenantById(site.id))!;
    await db.delete(websites).where(eq(websites.id, site.id));
    expect(await websiteVersion(doomed)).toBe('gone');
    expect(await stockListingVersion(doomed)).toBe('gone');
  });
});
