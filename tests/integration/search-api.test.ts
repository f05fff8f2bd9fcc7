import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import type { DatabaseHandle } from '@/db/client';
import { useTestDatabase } from '../support/database';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import { dealerships, searchPages, websiteDomains, websites } from '@/modules/tenancy/tenancy.schema';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import type { WebsiteConfigInput } from '@/modules/tenancy/tenancy.config';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { POST } from '@/app/api/search/route';
import { resolveSearchListing } from '@/modules/stock/search/search.listing';
import { FACETS } from '@/modules/stock/search/search.types';

/** POST /api/search (tenant from Host, strict body, never a 5xx) and the search paths' listings. */

const DAY = 86_400_000;
const HIT_FIELDS = [
  'id',
  'slug',
  'name',
  'make',
  'model',
  'badge',
  'series',
  'year',
  'km',
  'price',
  'price_type',
  'before_price',
  'subscription_price',
  'car_type',
  'status',
  'item_type',
  'certified',
  'reserved',
  'sold',
  'sold_date_timestamp',
  'preorder',
  'show_on_dealer_website',
  'photos_count',
  'tag',
  'simple_fuel',
  'simple_body',
  'simple_transmission',
  'city',
  'state',
  'created_at_timestamp',
  'primary_image_url',
  'location',
].sort();

type CarInput = Partial<typeof cars.$inferInsert> & { slug: string; make: string; model: string };

describe('search API and search paths', () => {
  let db: Db;
  let handle: DatabaseHandle;
  let seq = 0;
  let api: Tenant;
  let other: Tenant;
  let skoda: Tenant;
  let otherDealerSlug: string;

  async function website(slug: string, values: Partial<typeof websites.$inferInsert>, config: WebsiteConfigInput, carList: CarInput[]) {
    const [site] = await db.insert(websites).values({ slug, name: `${slug} website`, config, ...values }).returning();
    const [dealer] = await db.insert(dealerships).values({ websiteId: site.id, slug: `${slug}-dealer`, name: `${slug} Dealer` }).returning();
    const [yard] = await db.insert(locations).values({ websiteId: site.id, dealershipId: dealer.id, name: `${slug} Yard`, slug: 'yard', city: 'Sydney' }).returning();
    await db.insert(cars).values(
      carList.map((c) => ({
        websiteId: site.id,
        dealershipId: dealer.id,
        locationId: yard.id,
        name: `Car ${c.slug}`,
        year: 2020,
        carType: 'used' as const,
        price: 20_000,
        photosCount: 5,
        createdAt: new Date(Date.now() - 30 * DAY - ++seq * 1000),
        ...c,
      })),
    );
    return { site, dealer };
  }

  beforeAll(async () => {
    handle = await useTestDatabase();
    db = handle.db;
    const a = await website('api-motors', { city: 'Sydney' }, {}, [
      { slug: 'api-hilux', make: 'Toyota', model: 'HiLux', stocknum: 'AB123', primaryImageUrl: '/media/cars/hilux.jpg', subscriptionPrice: 149, customRank: 5 },
      { slug: 'api-corolla', make: 'Toyota', model: 'Corolla', carType: 'new' },
      { slug: 'api-cx5', make: 'Mazda', model: 'CX-5', carType: 'demo' },
      { slug: 'api-sold', make: 'Mazda', model: 'CX-3', status: 'sold', soldDate: new Date(Date.now() - DAY) },
      { slug: 'api-wild', make: 'Odd%Make_1', model: 'Back\\slash', colour: '</script><b>Red</b>' },
      { slug: 'api-hidden', make: 'Holden', model: 'Ute', showOnDealerWebsite: false },
      { slug: 'api-hidden-make', make: 'Lada', model: 'Niva', showOnDealerWebsite: false },
    ]);
    await db.insert(websiteDomains).values({ websiteId: a.site.id, host: 'www.api-motors.com.au', primary: true });
    await db.insert(dealerships).values({ websiteId: a.site.id, slug: 'api-second-dealer', name: 'Second Dealer' });
    await db.insert(searchPages).values([
      {
        websiteId: a.site.id,
        slug: 'used-cars/toyota/hilux',
        title: 'Used Toyota HiLux utes in Sydney',
        heading: 'Used HiLux utes',
        description: 'Every used HiLux.',
        filters: { car_type: ['used'], make: ['Toyota'], model: ['HiLux'] },
      },
      { websiteId: a.site.id, slug: 'cheap-cars', title: 'Cheap cars', heading: 'Cheap cars heading', filters: {} },
      { websiteId: a.site.id, slug: 'mazda-and-toyota', title: 'Two makes', heading: 'Two makes', filters: { make: ['Mazda', 'Toyota'], model: ['CX-5'] } },
    ]);
    api = (await findTenantById(a.site.id))!;

    const b = await website('other-motors', {}, { usedConditionLabel: 'pre-owned' }, [
      { slug: 'other-hilux', make: 'Toyota', model: 'HiLux', customRank: 100, stocknum: 'OTH123' },
      { slug: 'other-falcon', make: 'Ford', model: 'Falcon' },
    ]);
    otherDealerSlug = b.dealer.slug;
    other = (await findTenantById(b.site.id))!;

    const s = await website('skoda-motors', { city: 'Melbourne', overrideCity: 'Melbourne CBD' }, { search: { defaultSlug: 'used-cars', allStockPath: '/pre-owned' }, usedConditionLabel: 'pre-owned' }, [
      { slug: 'skoda-octavia', make: 'ŠKODA', model: 'Octavia RS' },
      { slug: 'skoda-kodiaq', make: 'ŠKODA', model: 'Kodiaq', carType: 'new' },
    ]);
    skoda = (await findTenantById(s.site.id))!;
  });

  const post = (body: BodyInit | null, headers: Record<string, string> = {}, host: string | null = 'api-motors.localhost') =>
    POST(
      new Request('http://x/api/search', {
        method: 'POST',
        headers: { ...(host != null && { host }), 'content-type': 'application/json', ...headers },
        body,
      }),
    );
  const postJson = (body: unknown, host?: string) => post(JSON.stringify(body), {}, host);

  async function expectError(response: Response, status: number) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: string; fields?: Record<string, string> };
    expect(typeof body.error).toBe('string');
    expect(Object.keys(body).every((k) => k === 'error' || k === 'fields')).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/\bat \S+\.(ts|js):\d+|node_modules|syntax error|select |violates/i);
    return body;
  }

  type ApiHit = Record<string, unknown> & { slug: string };
  type ApiResponse = {
    hits: ApiHit[];
    estimatedTotalHits: number;
    processingTimeMs: number;
    facetDistribution: Record<string, Record<string, number>>;
    facetStats: Record<string, { min: number; max: number }>;
    limit: number;
    offset: number;
  };
  async function ok(response: Response): Promise<ApiResponse> {
    expect(response.status).toBe(200);
    return (await response.json()) as ApiResponse;
  }
  const apiSlugs = (r: ApiResponse) => r.hits.map((h) => h.slug).sort();

  describe('POST /api/search', () => {
    it('answers the SPEC §7 response shape with SPEC §3 field names', async () => {
      const response = await postJson({ facets: ['make', 'car_type', 'price'] });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await ok(response);
      expect(Object.keys(body).sort()).toEqual(['estimatedTotalHits', 'facetDistribution', 'facetStats', 'hits', 'limit', 'offset', 'processingTimeMs']);
      expect(body).toMatchObject({ limit: 100, offset: 0, estimatedTotalHits: 5 });
      expect(typeof body.processingTimeMs).toBe('number');
      expect(body.facetDistribution).toEqual({ make: { Toyota: 2, Mazda: 2, 'Odd%Make_1': 1 }, car_type: { used: 3, new: 1, demo: 1 } });
      expect(body.facetStats).toEqual({ price: { min: 20_000, max: 20_000 } });
      expect(apiSlugs(body)).toEqual(['api-corolla', 'api-cx5', 'api-hilux', 'api-sold', 'api-wild']);
      for (const hit of body.hits) expect(Object.keys(hit).sort()).toEqual(HIT_FIELDS);
      const hilux = body.hits.find((h) => h.slug === 'api-hilux')!;
      expect(hilux).toMatchObject({
        make: 'Toyota',
        model: 'HiLux',
        price_type: '',
        subscription_price: 149,
        car_type: 'used',
        status: 'in_stock',
        sold: false,
        sold_date_timestamp: null,
        show_on_dealer_website: true,
        primary_image_url: '/media/cars/hilux.jpg',
        location: { name: 'api-motors Yard', slug: 'yard' },
      });
      expect(typeof hilux.created_at_timestamp).toBe('number');
      const sold = body.hits.find((h) => h.slug === 'api-sold')!;
      expect(sold).toMatchObject({ sold: true, status: 'sold' });
      expect(typeof sold.sold_date_timestamp).toBe('number');
      // Hits lead with the highest custom rank (the default sort).
      expect(body.hits[0].slug).toBe('api-hilux');
    });

    it('takes q, filters, sort, limit and offset from the body', async () => {
      expect(apiSlugs(await ok(await postJson({ q: 'AB123' })))).toEqual(['api-hilux']);
      expect(apiSlugs(await ok(await postJson({ filters: { make: ['Mazda'] } })))).toEqual(['api-cx5', 'api-sold']);
      expect(apiSlugs(await ok(await postJson({ filters: { make: ['"Mazda"'], car_type: ['demo'] } })))).toEqual(['api-cx5']);
      const page = await ok(await postJson({ limit: 2, offset: 4, sort: 'created_at_timestamp:desc' }));
      expect(page).toMatchObject({ limit: 2, offset: 4, estimatedTotalHits: 5 });
      expect(page.hits.map((h) => h.slug)).toEqual(['api-wild']);
      const all = await ok(await postJson({ facets: [...FACETS], limit: 100, offset: 10_000 }));
      expect(all).toMatchObject({ hits: [], estimatedTotalHits: 5, offset: 10_000 });
      expect(Object.keys(all.facetDistribution).length + Object.keys(all.facetStats).length).toBeGreaterThan(10);
    });

    it('finds the website from the Host header, with or without a port, and from its own domain', async () => {
      expect(apiSlugs(await ok(await postJson({}, 'other-motors.localhost')))).toEqual(['other-falcon', 'other-hilux']);
      expect(apiSlugs(await ok(await postJson({}, 'OTHER-MOTORS.localhost:3000')))).toEqual(['other-falcon', 'other-hilux']);
      expect((await ok(await postJson({}, 'www.api-motors.com.au'))).estimatedTotalHits).toBe(5);
      expect((await ok(await postJson({}, 'www.api-motors.com.au.'))).estimatedTotalHits).toBe(5);
    });

    it("never lets the body or other headers choose another website", async () => {
      for (const body of [{ website_id: other.id }, { websiteId: other.id }, { website: 'other-motors' }, { scope: { websiteIds: [other.id] } }]) {
        const error = await expectError(await postJson(body), 400);
        expect(Object.keys(error.fields ?? {})).toEqual([Object.keys(body)[0]]);
      }
      const nested = await expectError(await postJson({ filters: { website_id: [String(other.id)] } }), 400);
      expect(JSON.stringify(nested.fields)).toContain('website_id');
      const forwarded = await ok(await post('{}', { 'x-forwarded-host': 'other-motors.localhost', forwarded: 'host=other-motors.localhost' }));
      expect(apiSlugs(forwarded).every((s) => s.startsWith('api-'))).toBe(true);
      for (const q of ['OTH123', 'falcon', 'hilux']) {
        const response = await ok(await postJson({ q, facets: ['make'] }));
        expect(response.hits.every((h) => h.slug.startsWith('api-'))).toBe(true);
        expect(response.facetDistribution.make).not.toHaveProperty('Ford');
      }
    });

    it.each([
      ['an unknown website', 'nobody-motors.localhost'],
      ['an unknown domain', 'www.example.com'],
      ['a loopback address', '127.0.0.1'],
      ['localhost itself', 'localhost'],
      ['an empty host', ''],
    ])('answers 404 to %s', async (_label, host) => {
      await expectError(await postJson({}, host), 404);
    });

    // The server refuses these at the socket with the same answer (request-refusals.ts), as every visitor API does.
    it.each([
      ['a malformed host', 'api motors.localhost'],
      ['a host with a path', 'api-motors.localhost/x'],
      ['an injected host', "x' or '1'='1.localhost"],
    ])('answers 400 naming the Host header to %s', async (_label, host) => {
      const error = await expectError(await postJson({}, host), 400);
      expect(error).toEqual({ error: 'Bad request: the Host header is not a host name', fields: { host: 'is not a host name' } });
    });

    it.each([
      ['another site', { origin: 'https://evil.test' }],
      ['another dealer website', { origin: 'http://skoda-motors.localhost' }],
      ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
    ])('refuses a search posted from %s (403)', async (_label, headers) => {
      const error = await expectError(await post('{}', headers), 403);
      expect(error.error).toBe('Requests from other websites are not accepted.');
    });

    it('answers 415 naming Content-Type to a body that is not JSON', async () => {
      const error = await expectError(await post('q=toyota', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
      expect(error.fields).toEqual({ 'Content-Type': 'must be application/json' });
    });

    it('answers 404 without a Host header', async () => {
      await expectError(await post('{}', {}, null), 404);
    });

    it.each<[string, BodyInit | null]>([
      ['not JSON', 'this is not json'],
      ['truncated JSON', '{"q": "toyota",'],
      ['an empty body', ''],
      ['no body', null],
      ['whitespace', '  \n '],
      ['a NaN literal', '{"limit": NaN}'],
      ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['a JSON comment', '{"q": "x" /* hi */}'],
    ])('answers 400 to %s', async (_label, body) => {
      const error = await expectError(await post(body), 400);
      expect(error.error).toBe('Malformed JSON body');
    });

    it.each<[string, unknown, string]>([
      ['an array', [{ q: 'x' }], 'body'],
      ['a string', 'toyota', 'body'],
      ['null', null, 'body'],
      ['a number', 42, 'body'],
      ['q as a number', { q: 42 }, 'q'],
      ['q as an object', { q: { $regex: '.*' } }, 'q'],
      ['a long q', { q: 'x'.repeat(201) }, 'q'],
      ['limit 0', { limit: 0 }, 'limit'],
      ['limit 101', { limit: 101 }, 'limit'],
      ['limit -1', { limit: -1 }, 'limit'],
      ['limit as text', { limit: '10' }, 'limit'],
      ['limit NaN text', { limit: 'NaN' }, 'limit'],
      ['limit Infinity text', { limit: 'Infinity' }, 'limit'],
      ['limit fractional', { limit: 2.5 }, 'limit'],
      ['offset 10001', { offset: 10_001 }, 'offset'],
      ['offset huge', { offset: 2 ** 53 }, 'offset'],
      ['offset negative', { offset: -100 }, 'offset'],
      ['offset as SQL', { offset: '0; drop table cars' }, 'offset'],
      ['sort unknown', { sort: 'price:random' }, 'sort'],
      ['sort as SQL', { sort: 'price desc; drop table cars' }, 'sort'],
      ['facets unknown', { facets: ['make', 'secret'] }, 'facets.1'],
      ['facets as text', { facets: 'make' }, 'facets'],
      ['filters as array', { filters: [['make', 'Toyota']] }, 'filters'],
      ['filter value not in a list', { filters: { make: 'Toyota' } }, 'filters.make'],
      ['filter value as number', { filters: { make: [1] } }, 'filters.make.0'],
      ['filter value as object', { filters: { colour: [{ $ne: null }] } }, 'filters.colour.0'],
      ['filter value null', { filters: { colour: [null] } }, 'filters.colour.0'],
      ['a long filter value', { filters: { make: ['m'.repeat(201)] } }, 'filters.make.0'],
      ['too many filter values', { filters: { make: Array.from({ length: 51 }, (_, i) => `m${i}`) } }, 'filters.make'],
      ['range as text', { filters: { price: '1-2' } }, 'filters.price'],
      ['range bound as text', { filters: { price: { min: '1000' } } }, 'filters.price.min'],
      ['range bound NaN text', { filters: { km: { min: 'NaN' } } }, 'filters.km.min'],
      ['min above max', { filters: { price: { min: 9, max: 1 } } }, 'filters.price'],
      ['a decimal price bound', { filters: { price: { min: 1.5 } } }, 'filters.price.min'],
      ['a year beyond the column', { filters: { year: { max: 1e15 } } }, 'filters.year.max'],
      ['a decimal timestamp', { filters: { created_at_timestamp: { min: 1.5 } } }, 'filters.created_at_timestamp.min'],
      ['a huge negative km', { filters: { km: { min: -1e300 } } }, 'filters.km.min'],
      ['unknown range key', { filters: { price: { gte: 1 } } }, 'filters.price'],
      ['unknown filter', { filters: { vin: ['JT1'] } }, 'filters'],
      ['unknown top-level key', { query: 'toyota' }, 'query'],
    ])('answers 400 naming the field for %s', async (_label, body, field) => {
      const error = await expectError(await postJson(body), 400);
      expect(error.error).toBe('Invalid search request');
      expect(Object.keys(error.fields ?? {})).toContain(field);
    });

    it.each([
      ['{"limit": 1e400}', 'limit'],
      ['{"offset": -1e400}', 'offset'],
      ['{"filters": {"year": {"max": 1e400}}}', 'filters.year.max'],
    ])('answers 400 to the infinite number in %s', async (body, field) => {
      const error = await expectError(await post(body), 400);
      expect(Object.keys(error.fields ?? {})).toEqual([field]);
    });

    it('answers 413 to a body over 16 KB, and takes one just under', async () => {
      const huge = JSON.stringify({ q: 'x', filters: { make: Array.from({ length: 50 }, () => 'm'.repeat(200)) }, pad: 'p'.repeat(8_000) });
      expect(huge.length).toBeGreaterThan(16 * 1024);
      await expectError(await post(huge), 413);
      await expectError(await post('{}', { 'content-length': String(1024 * 1024) }), 413);
      await expectError(await post(' '.repeat(16 * 1024 + 1)), 413);
      const big = JSON.stringify({ filters: { make: Array.from({ length: 50 }, (_, i) => `${i}${'m'.repeat(195)}`) } });
      expect(big.length).toBeGreaterThan(9_000);
      expect(big.length).toBeLessThan(16 * 1024);
      expect((await ok(await post(big))).estimatedTotalHits).toBe(0);
      await ok(await post(`${' '.repeat(16 * 1024 - 2)}{}`));
    });

    it.each([
      "'; drop table cars; --",
      "' or '1'='1",
      '1) or (1=1',
      '$1',
      '%',
      '_',
      '\\',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '.*',
      '</script><script>alert(1)</script>',
      '🚗 Škoda',
      'x'.repeat(200),
    ])('answers 200 with only its own cars to the hostile value %j', async (value) => {
      const text = await ok(await postJson({ q: value }));
      expect(text.hits.every((h) => h.slug.startsWith('api-') && h.slug !== 'api-hidden')).toBe(true);
      expect(text.estimatedTotalHits).toBe(text.hits.length);
      const filtered = await ok(
        await postJson({
          filters: { make: [value], make_model: [`${value.slice(0, 90)}:${value.slice(0, 90)}`], location_name: [value], dealership_name: [value], colour: [value], certified: [value] },
          facets: [...FACETS],
        }),
      );
      expect(filtered.hits.every((h) => h.slug.startsWith('api-'))).toBe(true);
    });

    it('matches pattern characters literally and escapes markup in its answer', async () => {
      expect(apiSlugs(await ok(await postJson({ q: '%' })))).toEqual(['api-wild']);
      expect(apiSlugs(await ok(await postJson({ q: '_' })))).toEqual(['api-wild']);
      expect(apiSlugs(await ok(await postJson({ filters: { make: ['Odd%Make_1'] } })))).toEqual(['api-wild']);
      expect(apiSlugs(await ok(await postJson({ filters: { make: ['Odd%'] } })))).toEqual([]);
      const raw = await (await postJson({ q: 'odd', facets: ['colour'] })).text();
      expect(raw).not.toContain('<');
      expect(raw).toContain('\\u003c/script\\u003e');
      expect((JSON.parse(raw) as ApiResponse).facetDistribution.colour).toEqual({ '</script><b>Red</b>': 1 });
    });

    it('answers 2xx or 4xx, never 5xx, to a few hundred generated bodies', async () => {
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
      const scalars: unknown[] = [null, true, false, 0, -1, 1, 24, 100, 101, 10_000, 10_001, 2020, '', ' ', 'x', '10', "' OR 1=1 --", '\u0000', '😀', '%', 'Toyota', 'Toyota:HiLux', 'price:asc'];
      const keys = ['q', 'filters', 'facets', 'sort', 'limit', 'offset', 'website_id'];
      const filterKeys = ['make', 'make_model', 'colour', 'car_type', 'location_name', 'certified', 'price', 'km', 'year', 'created_at_timestamp', 'bogus'];
      const value = (depth: number): unknown => {
        const kind = random();
        if (depth > 2 || kind < 0.5) return pick(scalars);
        if (kind < 0.7) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
        if (kind < 0.85) return { min: pick([0, 1, 2000, 50_000, -5, 'x', null]), max: pick([0, 2024, 99_999, 'y', null]) };
        return Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 3) }, () => [pick(filterKeys), value(depth + 1)]));
      };
      const statuses = new Map<number, number>();
      for (let i = 0; i < 300; i++) {
        const body: Record<string, unknown> = {};
        for (let j = 0; j < 1 + Math.floor(random() * 3); j++) body[pick(keys)] = value(0);
        const response = await postJson(body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, JSON.stringify(body)).toBeLessThan(500);
        if (response.status === 200) {
          const json = (await response.json()) as ApiResponse;
          expect(json.hits.every((h) => h.slug.startsWith('api-'))).toBe(true);
        } else {
          await response.body?.cancel();
        }
      }
      expect(statuses.get(200)).toBeGreaterThan(0);
      expect(statuses.get(400)).toBeGreaterThan(0);
    });

    describe('when the database fails', () => {
      const globalForDb = globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> };
      afterEach(() => {
        globalForDb.__dbHandle = Promise.resolve(handle);
      });

      function failWith(error: Error) {
        const failing = Promise.reject(error);
        failing.catch(() => {});
        globalForDb.__dbHandle = failing;
      }

      it('answers 503 with Retry-After when it cannot be reached', async () => {
        failWith(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
        const response = await postJson({});
        const error = await expectError(response, 503);
        expect(response.headers.get('retry-after')).toBe('30');
        expect(JSON.stringify(error)).not.toContain('5432');
      });

      it('answers 503 to a server shutting down (57P01) under a drizzle wrapper', async () => {
        failWith(new Error('Failed query', { cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) }));
        await expectError(await postJson({}), 503);
      });

      it('answers 500 with a reference and no detail to any other failure', async () => {
        failWith(new Error('secret internal detail: relation "cars" does not exist'));
        const response = await postJson({});
        expect(response.status).toBe(500);
        const body = (await response.json()) as { error: string; reference: string };
        expect(body.error).toBe('An unexpected error occurred');
        expect(body.reference).toMatch(/^[0-9a-f-]{36}$/);
        expect(JSON.stringify(body)).not.toContain('secret');
      });
    });
  });

  describe('resolveSearchListing', () => {
    it("lists all stock at the website's default slug", async () => {
      expect(await resolveSearchListing(api, ['new-used-and-demo-cars'])).toEqual({
        path: '/search/new-used-and-demo-cars',
        title: 'New, used and demo cars for sale in Sydney',
        heading: 'New, used and demo cars',
        description: 'New, used and demo cars for sale at api-motors website, Sydney.',
        preset: {},
        presetFacets: [],
      });
      expect((await resolveSearchListing(skoda, ['used-cars']))?.presetFacets).toEqual(['car_type']);
      expect((await resolveSearchListing(skoda, ['pre-owned']))?.preset).toEqual({});
      expect(await resolveSearchListing(api, ['pre-owned'])).toBeNull();
    });

    it.each([
      ['used-cars', 'used', 'Used cars'],
      ['new-cars', 'new', 'New cars'],
      ['demo-cars', 'demo', 'Demo cars'],
      ['USED-CARS', 'used', 'Used cars'],
    ])('presets the car type on %s', async (segment, carType, heading) => {
      const listing = await resolveSearchListing(api, [segment]);
      expect(listing).toMatchObject({
        path: `/search/${segment.toLowerCase()}`,
        heading,
        title: `${heading} for sale in Sydney`,
        preset: { car_type: [carType] },
        presetFacets: ['car_type'],
      });
    });

    it.each([['\u0000'], ['used-cars', '\u0000'], ['used-cars', '.\u0000.'], ['used\u001fcars']])(
      'answers no listing for a path with a control character %j (PostgreSQL refuses a NUL parameter)',
      async (...segments) => {
        expect(await resolveSearchListing(api, segments)).toBeNull();
      },
    );

    it("words used stock the website's way", async () => {
      expect((await resolveSearchListing(other, ['used-cars']))?.heading).toBe('Pre-owned cars');
      expect((await resolveSearchListing(other, ['used-cars']))?.title).toBe('Pre-owned cars for sale');
    });

    it('takes a search page row with its own title and heading, before any other rule', async () => {
      expect(await resolveSearchListing(api, ['used-cars', 'toyota', 'hilux'])).toEqual({
        path: '/search/used-cars/toyota/hilux',
        title: 'Used Toyota HiLux utes in Sydney',
        heading: 'Used HiLux utes',
        description: 'Every used HiLux.',
        preset: { car_type: ['used'], make: ['Toyota'], make_model: ['Toyota:HiLux'] },
        presetFacets: ['car_type', 'make', 'make_model'],
      });
      expect(await resolveSearchListing(api, ['Cheap-Cars'])).toMatchObject({ path: '/search/cheap-cars', title: 'Cheap cars', heading: 'Cheap cars heading', preset: {}, presetFacets: [] });
      // Models apply only under a single make.
      expect(await resolveSearchListing(api, ['mazda-and-toyota'])).toMatchObject({ preset: { make: ['Mazda', 'Toyota'] }, presetFacets: ['make'] });
      expect(await resolveSearchListing(other, ['cheap-cars'])).toBeNull();
    });

    it("lists a dealership's stock at its slug ('see more from this dealer')", async () => {
      expect(await resolveSearchListing(api, ['api-second-dealer'])).toMatchObject({
        path: '/search/api-second-dealer',
        heading: 'Cars at Second Dealer',
        preset: { dealership_name: ['Second Dealer'] },
        presetFacets: ['dealership_name'],
      });
      expect((await resolveSearchListing(api, ['API-Motors-Dealer']))?.preset).toEqual({ dealership_name: ['api-motors Dealer'] });
      expect(await resolveSearchListing(api, ['api-second-dealer', 'toyota'])).toBeNull();
    });

    it("never resolves another website's dealership", async () => {
      expect(await resolveSearchListing(api, [otherDealerSlug])).toBeNull();
      expect(await resolveSearchListing(other, ['api-second-dealer'])).toBeNull();
    });

    it('presets a make and a model of listed stock from their slugs, ignoring case', async () => {
      expect(await resolveSearchListing(api, ['used-cars', 'toyota'])).toMatchObject({
        path: '/search/used-cars/toyota',
        heading: 'Used Toyota',
        title: 'Used Toyota for sale in Sydney',
        preset: { car_type: ['used'], make: ['Toyota'] },
        presetFacets: ['car_type', 'make'],
      });
      expect(await resolveSearchListing(api, ['New-Cars', 'TOYOTA', 'Corolla'])).toMatchObject({
        path: '/search/new-cars/toyota/corolla',
        heading: 'New Toyota Corolla',
        preset: { car_type: ['new'], make: ['Toyota'], make_model: ['Toyota:Corolla'] },
        presetFacets: ['car_type', 'make', 'make_model'],
      });
      expect(await resolveSearchListing(api, ['new-used-and-demo-cars', 'mazda', 'cx-5'])).toMatchObject({
        path: '/search/new-used-and-demo-cars/mazda/cx-5',
        heading: 'Mazda CX-5 cars',
        preset: { make: ['Mazda'], make_model: ['Mazda:CX-5'] },
        presetFacets: ['make', 'make_model'],
      });
      expect((await resolveSearchListing(api, ['used-cars', 'odd-make-1']))?.preset.make).toEqual(['Odd%Make_1']);
    });

    it('folds Škoda to skoda and shows it as Škoda', async () => {
      expect(await resolveSearchListing(skoda, ['used-cars', 'skoda', 'octavia-rs'])).toMatchObject({
        path: '/search/used-cars/skoda/octavia-rs',
        heading: 'Pre-owned Škoda Octavia RS',
        title: 'Pre-owned Škoda Octavia RS for sale in Melbourne CBD',
        preset: { car_type: ['used'], make: ['ŠKODA'], make_model: ['ŠKODA:Octavia RS'] },
      });
      expect((await resolveSearchListing(skoda, ['NEW-CARS', 'SKODA', 'KODIAQ']))?.preset.make_model).toEqual(['ŠKODA:Kodiaq']);
    });

    it.each<[string, string[]]>([
      ['no segment', []],
      ['more than 3 segments', ['used-cars', 'toyota', 'hilux', 'sr5']],
      ['an unknown slug', ['nothing-here']],
      ['an unknown car-type segment', ['old-cars']],
      ['a make not in stock', ['used-cars', 'ford']],
      ["another website's make", ['used-cars', 'ford']],
      ['a make of hidden cars only', ['used-cars', 'lada']],
      ['a model not in stock', ['used-cars', 'toyota', 'yaris']],
      ["another make's model", ['used-cars', 'toyota', 'cx-5']],
      ['an unknown slug with more segments', ['nothing-here', 'toyota']],
      ['SQL in a segment', ["used-cars' or '1'='1"]],
      ['a pattern in a segment', ['%']],
      ['a make pattern', ['used-cars', '%']],
    ])('gives null for %s', async (_label, segments) => {
      expect(await resolveSearchListing(api, segments)).toBeNull();
    });
  });
});
