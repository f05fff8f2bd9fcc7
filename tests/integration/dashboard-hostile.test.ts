import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { cars } from '@/modules/stock/stock.schema';
import { callRoute, carBody, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';
import * as manufacturer from '@/app/(dashboard)/manufacturers/[slug]/route';
import * as serviceBookings from '@/app/(dashboard)/dealerships/[id]/available_service_bookings.json/route';
import * as sessionData from '@/app/(dashboard)/api/v1/websites/[websiteId]/website_session_data.json/route';

/** Malformed and hostile input: every answer is a 4xx with a JSON error, never a 5xx. */
describe('Dashboard API under malformed and hostile input', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
  });

  const carParams = (slug: string) => ({ websiteId: String(w.a.websiteId), slug });

  async function expectJsonError(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(typeof body.error).toBe('string');
    expect(Object.keys(body).every((k) => k === 'error' || k === 'fields')).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/\bat \S+\.(ts|js):\d+|node_modules|syntax error at|violates/i);
    return body as { error: string; fields?: Record<string, string> };
  }

  it.each([
    ['not JSON', 'this is not json'],
    ['truncated JSON', '{"make": "Toyota",'],
    ['empty body', ''],
    ['only whitespace', '   \n'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ['NaN literal', '{"price": NaN}'],
  ])('answers 400 to a malformed body (%s)', async (_label, rawBody) => {
    const response = await callRoute(carRoute.PUT, carParams('malformed.json'), { method: 'PUT', key: w.a.key, rawBody: rawBody as BodyInit });
    const body = await expectJsonError(response, 400);
    expect(body.error).toBe('Malformed JSON body');
  });

  it('answers 413 to a body over 1 MB without reading it all', async () => {
    const huge = JSON.stringify(carBody({ description: 'x'.repeat(10 * 1024 * 1024) }));
    await expectJsonError(await callRoute(carRoute.PUT, carParams('huge.json'), { method: 'PUT', key: w.a.key, rawBody: huge }), 413);
    // Declared too large: refused from the header alone.
    await expectJsonError(
      await callRoute(carRoute.PUT, carParams('huge.json'), { method: 'PUT', key: w.a.key, rawBody: '{}', headers: { 'content-length': String(50 * 1024 * 1024) } }),
      413,
    );
  });

  const invalidBodies: [string, unknown, string][] = [
    ['an array', [carBody()], 'body'],
    ['a string', 'car', 'body'],
    ['null', null, 'body'],
    ['a number', 42, 'body'],
    ['price as text', carBody({ price: 'cheap' as never }), 'price'],
    ['price as numeric text', carBody({ price: '25000' as never }), 'price'],
    ['negative price', carBody({ price: -1 }), 'price'],
    ['fractional price', carBody({ price: 100.5 }), 'price'],
    ['absurd price', carBody({ price: 1e12 }), 'price'],
    ['year 3000', carBody({ year: 3000 }), 'year'],
    ['year 1200', carBody({ year: 1200 }), 'year'],
    ['year as text', carBody({ year: '2020' as never }), 'year'],
    ['negative km', carBody({ km: -5 }), 'km'],
    ['km as object', carBody({ km: { $gt: 0 } as never }), 'km'],
    ['unknown car_type', carBody({ car_type: 'vintage' as never }), 'car_type'],
    ['missing car_type', { ...carBody(), car_type: undefined }, 'car_type'],
    ['missing make', { ...carBody(), make: undefined }, 'make'],
    ['empty make', carBody({ make: '   ' }), 'make'],
    ['make as array', carBody({ make: ['Toyota'] as never }), 'make'],
    ['unknown status', carBody({ status: 'gone' as never }), 'status'],
    ['boolean as text', carBody({ certified: 'yes' as never }), 'certified'],
    ['10 MB name', carBody({ name: 'n'.repeat(300_000) }), 'name'],
    ['long make', carBody({ make: 'M'.repeat(101) }), 'make'],
    ['NUL in name', carBody({ name: 'Bad\u0000Name' }), 'name'],
    ['control character in model', carBody({ model: 'Co\u0007rolla' }), 'model'],
    ['lone surrogate', carBody({ name: 'broken \ud800 text' }), 'name'],
    ['javascript: image', carBody({ images: ['javascript:alert(1)'] }), 'images.0'],
    ['data: image', carBody({ images: ['data:text/html,<script>alert(1)</script>'] }), 'images.0'],
    ['protocol-relative image', carBody({ images: ['//evil.example/x.jpg'] }), 'images.0'],
    ['image as number', carBody({ images: [5] as never }), 'images.0'],
    ['too many images', carBody({ images: Array.from({ length: 101 }, (_, i) => `https://img.example.com/${i}.jpg`) }), 'images'],
    ['javascript: history report', carBody({ file: 'javascript:alert(1)' }), 'file'],
    ['secret payment key', carBody({ payment_processors: [{ authorization_type: 'stripe', authorization_key: 'sk_live_123' }] }), 'payment_processors.0.authorization_key'],
    ['negative deposit', carBody({ payment_processors: [{ authorization_type: 'stripe', deposit_amount: -10 }] }), 'payment_processors.0.deposit_amount'],
    ['processor without type', carBody({ payment_processors: [{ authorization_key: 'pk_1' } as never] }), 'payment_processors.0.authorization_type'],
    ['autograb price as text', carBody({ autograb_data: { average_market_price: 'lots' as never } }), 'autograb_data.average_market_price'],
    ['dealership_id as SQL', carBody({ dealership_id: '1 OR 1=1' as never }), 'dealership_id'],
    ['location_id zero', carBody({ location_id: 0 }), 'location_id'],
    ['location_id overflow', carBody({ location_id: 2 ** 40 }), 'location_id'],
    ['vin with symbols', carBody({ vin: "JT'; DROP TABLE cars;--" }), 'vin'],
    ['created_at not a date', carBody({ created_at: 'yesterday' }), 'created_at'],
    ['created far in the future', carBody({ created_at_timestamp: Date.UTC(2999, 0, 1) }), 'created_at_timestamp'],
    ['sold false with status sold', carBody({ status: 'sold', sold: false }), 'sold'],
    ['too many features', carBody({ features: Array.from({ length: 301 }, (_, i) => `f${i}`) }), 'features'],
  ];

  it.each(invalidBodies)('answers 422 naming the field for %s', async (_label, body, field) => {
    const slug = 'hostile-car';
    const response = await callRoute(carRoute.PUT, carParams(`${slug}.json`), { method: 'PUT', key: w.a.key, body });
    const json = await expectJsonError(response, 422);
    expect(json.error).toBe('Validation failed');
    expect(Object.keys(json.fields ?? {})).toContain(field);
    expect(await db.select().from(cars).where(eq(cars.slug, slug))).toEqual([]);
  });

  it('names every bad field at once', async () => {
    const response = await callRoute(carRoute.PUT, carParams('many-bad.json'), {
      method: 'PUT',
      key: w.a.key,
      body: { make: '', year: 3000, price: -1, car_type: 'x' },
    });
    const json = await expectJsonError(response, 422);
    expect(Object.keys(json.fields!).sort()).toEqual(['car_type', 'make', 'model', 'price', 'year']);
  });

  it.each([
    ['abc$%.json'],
    ["x' OR '1'='1.json"],
    ['a;DROP TABLE cars.json'],
    ['../../etc/passwd.json'],
    ['%00.json'],
    ['é.json'],
    [`${'a'.repeat(201)}.json`],
    ['.json'],
  ])('refuses the slug %s: 404 to GET and DELETE, 422 naming slug to PUT', async (slug) => {
    await expectJsonError(await callRoute(carRoute.GET, carParams(slug), { key: w.a.key }), 404);
    await expectJsonError(await callRoute(carRoute.DELETE, carParams(slug), { method: 'DELETE', key: w.a.key }), 404);
    const put = await callRoute(carRoute.PUT, carParams(slug), { method: 'PUT', key: w.a.key, body: carBody() });
    if (put.status === 422) expect((await put.json()).fields).toHaveProperty('slug');
    else await expectJsonError(put, 404);
  });

  it.each([['0'], ['-1'], ['1.5'], ['abc'], ['1 OR 1=1'], ['99999999999'], ['0x1'], ['']])(
    'answers 404 to the website id %j',
    async (websiteId) => {
      await expectJsonError(await callRoute(carRoute.GET, { websiteId, slug: 'a-corolla-1.json' }, { key: w.a.key }), 404);
      await expectJsonError(await callRoute(sessionData.GET, { websiteId }, { key: w.a.key }), 404);
    },
  );

  it.each([['0'], ['abc'], ["1' OR '1'='1"], ['99999999999']])('answers 404 to the dealership id %j', async (id) => {
    await expectJsonError(await callRoute(serviceBookings.GET, { id }, { key: w.a.key }), 404);
  });

  it.each([
    ['', 400],
    ['?website_id=', 400],
    ['?website_id=abc', 400],
    ["?website_id=1'%20OR%20'1'='1", 400],
    ['?website_id=-4', 400],
    ['?website_id=99999999999', 400],
    ['?website_id=999999', 404],
  ])('answers the manufacturer lookup with query %j by %i', async (query, status) => {
    const body = await expectJsonError(await callRoute(manufacturer.GET, { slug: 'toyota.json' }, { key: w.a.key, query }), status);
    if (status === 400) expect(body.fields).toHaveProperty('website_id');
  });

  it.each([["toyota' OR '1'='1.json"], ['%.json'], ['toyota'], [`${'x'.repeat(150)}.json`]])(
    'answers 404 to the manufacturer slug %s',
    async (slug) => {
      await expectJsonError(await callRoute(manufacturer.GET, { slug }, { key: w.a.key, query: `?website_id=${w.a.websiteId}` }), 404);
    },
  );

  it('stores unicode and markup as text and answers them JSON-escaped', async () => {
    const name = 'Škoda Octavia RS — 東京 <script>alert("x")</script> & 🚗';
    const description = "Line one\nLine two with 'quotes' and \"doubles\" and </script>";
    const put = await callRoute(carRoute.PUT, carParams('unicode-car.json'), {
      method: 'PUT',
      key: w.a.key,
      body: carBody({ name, description, make: 'Škoda', model: "O'Tavia; DROP TABLE cars;--" }),
    });
    expect(put.status).toBe(201);
    const raw = await (await callRoute(carRoute.GET, carParams('unicode-car.json'), { key: w.a.key })).text();
    expect(raw).not.toContain('<script>');
    expect(raw).not.toContain('</script>');
    expect(raw).toContain('\\u003cscript\\u003e');
    const car = JSON.parse(raw);
    expect(car.name).toBe(name);
    expect(car.description).toBe(description);
    expect(car.model).toBe("O'Tavia; DROP TABLE cars;--");
    const [row] = await db.select().from(cars).where(eq(cars.slug, 'unicode-car'));
    expect(row.name).toBe(name);
    expect((await db.select().from(cars)).length).toBeGreaterThan(5);
  });

  it('ignores unknown and output-only fields, so a GET answer can be PUT back unchanged', async () => {
    const original = await (await callRoute(carRoute.GET, carParams('a-corolla-1.json'), { key: w.a.key })).json();
    const body = { ...original, id: 999999, photos_count: 77, dealership_slug: 'someone-else', __proto__: { admin: true }, constructor: 'x' };
    const response = await callRoute(carRoute.PUT, carParams('a-corolla-1.json'), { method: 'PUT', key: w.a.key, body });
    expect(response.status).toBe(200);
    const car = await response.json();
    expect(car.id).toBe(original.id);
    expect(car.photos_count).toBe(original.photos_count);
    expect(car).toEqual({ ...original, created_at: car.created_at, created_at_timestamp: car.created_at_timestamp });
  });

  it('answers 2xx/4xx, never 5xx, to a few hundred generated bodies', async () => {
    // Deterministic pseudo-random bodies: every field given a value of a random kind.
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(items: T[]): T => items[Math.floor(random() * items.length)];
    const values: unknown[] = [
      null, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 53), 2024, '', ' ', 'x', '2020', "' OR 1=1 --", '<img onerror=alert(1)>',
      '\u0000', '😀', 'https://img.example.com/a.jpg', '/media/a.jpg', [], [1, 2], ['https://img.example.com/a.jpg'], {}, { url: 5 },
      { image: { url: 'https://img.example.com/a.jpg' } }, 'a'.repeat(5000),
    ];
    const fields = Object.keys(carBody()).concat(['status', 'images', 'payment_processors', 'autograb_data', 'dealership_id', 'location_id', 'tag', 'sold', 'created_at', 'file']);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const body: Record<string, unknown> = carBody();
      for (let j = 0; j < 1 + Math.floor(random() * 3); j++) body[pick(fields)] = pick(values);
      const response = await callRoute(carRoute.PUT, carParams(`gen-${i % 7}.json`), { method: 'PUT', key: w.a.key, body });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect([200, 201, 422]).toContain(response.status);
    }
    expect(statuses.get(422)).toBeGreaterThan(50);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(10);
  });
  it('answers a genuine server fault (database down) with 500 and a JSON body that gives nothing away', async () => {
    const global = globalThis as unknown as { __dbHandle?: Promise<unknown> };
    const saved = global.__dbHandle;
    const failing = Promise.reject(new Error('connect ECONNREFUSED 10.0.0.1:5432 password=hunter2'));
    failing.catch(() => {});
    global.__dbHandle = failing;
    try {
      const response = await callRoute(carRoute.GET, carParams('a-corolla-1.json'), { key: w.a.key });
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.error).toMatch(/^Internal server error \(reference [0-9a-f-]{36}\)$/);
      expect(JSON.stringify(body)).not.toMatch(/hunter2|ECONNREFUSED|10\.0\.0\.1/);
    } finally {
      global.__dbHandle = saved;
    }
    expect((await callRoute(carRoute.GET, carParams('a-corolla-1.json'), { key: w.a.key })).status).toBe(200);
  });
});
