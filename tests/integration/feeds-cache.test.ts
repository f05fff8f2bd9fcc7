import http from 'node:http';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { installRequestHooks } from '@/lib/request-hooks';
import { feedResponse } from '@/modules/feeds/feeds.route';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { useTestDatabase } from '../support/database';

/**
 * The feeds through the real request hooks and page cache (decision 016): a repeat fetch is served
 * from the cache, and the next fetch after a change to the website's cars or configuration is
 * rendered again from the database.
 */

describe('feeds in the page cache', () => {
  let db: Db;
  let websiteId: number;
  let server: http.Server;
  let port: number;

  function get(path: string): Promise<{ status: number; cache: string; body: string }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: { host: 'feed-motors.localhost' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, cache: String(response.headers['x-page-cache']), body: Buffer.concat(chunks).toString('utf8') }),
          );
        })
        .on('error', reject);
    });
  }

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    const [site] = await db.insert(websites).values({ slug: 'feed-motors', name: 'Feed Motors', config: {} }).returning();
    websiteId = site.id;
    const [dealer] = await db.insert(dealerships).values({ websiteId, slug: 'feed-motors-dealer', name: 'Feed Motors Dealer' }).returning();
    const [yard] = await db
      .insert(locations)
      .values({ websiteId, dealershipId: dealer.id, name: 'Yard', slug: 'yard', street: '1 Main Road', city: 'Parramatta', state: 'NSW', postcode: '2150' })
      .returning();
    await db.insert(cars).values({
      websiteId, dealershipId: dealer.id, locationId: yard.id, slug: 'feed-car-1', name: '2021 Mazda CX-5 Maxx', make: 'Mazda', model: 'CX-5',
      year: 2021, km: 40_000, carType: 'used', price: 25_000, photosCount: 1, vin: 'JM0KF4W7A00123456', colour: 'Blue',
      simpleBody: 'SUV', primaryImageUrl: '/media/cars/feed-car-1.jpg',
    });
    installRequestHooks({ pageCache: { maxBytes: 4 << 20, maxEntryBytes: 1 << 20, maxAgeMs: 24 * 3_600_000 }, trustedProxyHops: 0, development: true });
    // What Next does with the route's Response: the status, the headers, then the streamed body.
    server = http.createServer((request, response) => {
      const file = (request.url ?? '').replace(/^\/feeds\//, '');
      void feedResponse('feed-motors.localhost', file).then((res) => {
        response.writeHead(res.status, Object.fromEntries(res.headers));
        if (res.body) Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).pipe(response);
        else response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  for (const file of ['meta-vehicles.csv', 'google-vehicles.xml']) {
    it(`${file}: served from the cache until the cars change, then rendered again`, async () => {
      const first = await get(`/feeds/${file}`);
      expect(first.status).toBe(200);
      expect(first.cache).toBe('miss');
      expect(first.body).toContain('25000 AUD');
      expect(await get(`/feeds/${file}`)).toMatchObject({ status: 200, cache: 'hit', body: first.body });

      await db.update(cars).set({ price: 23_990 }).where(eq(cars.slug, 'feed-car-1'));
      try {
        // The process learns the new car generation by notification or its poll (decision 055:
        // within a second); until then the cached copy may still be served.
        let changed: Awaited<ReturnType<typeof get>> | undefined;
        await expect.poll(async () => (changed = await get(`/feeds/${file}`)).body.includes('23990 AUD'), { timeout: 1_000, interval: 50 }).toBe(true);
        expect(changed?.cache).toBe('miss');
        expect(changed?.body).not.toContain('25000 AUD');
        expect((await get(`/feeds/${file}`)).cache).toBe('hit');
      } finally {
        await db.update(cars).set({ price: 25_000 }).where(eq(cars.slug, 'feed-car-1'));
      }
    });
  }

  it('turning a feed off takes effect within decision 055\'s one second, cached copy or not', async () => {
    await get('/feeds/meta-vehicles.csv');
    expect((await get('/feeds/meta-vehicles.csv')).cache).toBe('hit');
    const status = async (file: string) => (await get(`/feeds/${file}`)).status;
    await db.update(websites).set({ config: { feeds: { meta: { enabled: false } } } }).where(eq(websites.id, websiteId));
    try {
      await expect.poll(() => status('meta-vehicles.csv'), { timeout: 1_000, interval: 50 }).toBe(404);
      expect(await status('google-vehicles.xml')).toBe(200);
    } finally {
      await db.update(websites).set({ config: {} }).where(eq(websites.id, websiteId));
    }
    await expect.poll(() => status('meta-vehicles.csv'), { timeout: 1_000, interval: 50 }).toBe(200);
  });
});
