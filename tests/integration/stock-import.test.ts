import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { carImages, carPaymentProcessors, cars } from '@/modules/stock/stock.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { formatImportRow, importStock, parseStockFile, StockFileError, type ImportResult } from '@/modules/dashboard/dashboard.import';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const csvFixture = fs.readFileSync(path.join(FIXTURES, 'stock-import.csv'), 'utf8');
const jsonFixture = fs.readFileSync(path.join(FIXTURES, 'stock-import.json'), 'utf8');

function summary(result: ImportResult) {
  return result.rows.map((r) => (r.status === 'accepted' ? `${r.row} ok ${r.slug}` : `${r.row} rejected ${Object.keys(r.errors).sort().join(',')}`));
}

describe('importStock', () => {
  let db: Db;
  let tenant: Tenant;
  let dealershipId: number;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    const [site] = await db.insert(websites).values({ slug: 'import-motors', name: 'Import Motors', config: {} }).returning();
    [{ id: dealershipId }] = await db
      .insert(dealerships)
      .values({ websiteId: site.id, slug: 'import-motors-dealer', name: 'Import Motors' })
      .returning({ id: dealerships.id });
    tenant = (await findTenantById(site.id))!;
  });

  it('accepts the good rows of the CSV fixture and rejects the bad ones with the field and reason', async () => {
    const result = await importStock(tenant, parseStockFile('stock-import.csv', csvFixture));
    expect(summary(result)).toEqual([
      '1 ok toyota-corolla-2021-t1001',
      '2 ok mazda-cx5-2019-m2002',
      '3 rejected slug',
      '4 rejected price,year',
      '5 rejected car_type',
      '6 rejected images.0',
      '7 ok skoda-octavia-rs-s7007',
      '8 rejected location_id',
      '9 rejected make',
      '10 rejected certified,km',
    ]);
    expect(result).toMatchObject({ accepted: 3, rejected: 7 });
    expect(result.rows.map(formatImportRow).slice(2, 5)).toEqual([
      'row 3: rejected – slug: must be 1 to 200 letters, digits, hyphens or underscores',
      'row 4: rejected – year: must not be more than 2 years ahead; price: must be at least 0',
      'row 5: rejected – car_type: must be one of new, used, demo',
    ]);
    expect(formatImportRow(result.rows[0])).toBe('row 1: accepted toyota-corolla-2021-t1001');
    expect(formatImportRow(result.rows[7])).toBe('row 8: rejected – location_id: is not a location of this website');

    const stored = await db.select().from(cars).where(eq(cars.websiteId, tenant.id)).orderBy(cars.slug);
    expect(stored.map((c) => c.slug)).toEqual(['mazda-cx5-2019-m2002', 'skoda-octavia-rs-s7007', 'toyota-corolla-2021-t1001']);
    const corolla = stored.find((c) => c.slug === 'toyota-corolla-2021-t1001')!;
    expect(corolla).toMatchObject({
      name: '2021 Toyota Corolla Ascent Sport',
      dealershipId,
      photosCount: 3,
      certified: true,
      reservable: null,
      autograbAverageMarketPrice: 29500,
      primaryImageUrl: 'https://img.example.com/t1001/1.jpg',
    });
    expect(await db.select({ url: carImages.url }).from(carImages).where(eq(carImages.carId, corolla.id)).orderBy(carImages.position)).toEqual([
      { url: 'https://img.example.com/t1001/1.jpg' },
      { url: 'https://img.example.com/t1001/2.jpg' },
      { url: 'https://img.example.com/t1001/3.jpg' },
    ]);
    const mazda = stored.find((c) => c.slug === 'mazda-cx5-2019-m2002')!;
    expect(mazda.status).toBe('sold');
    expect(mazda.soldDate).toBeInstanceOf(Date);
    const skoda = stored.find((c) => c.slug === 'skoda-octavia-rs-s7007')!;
    expect(skoda).toMatchObject({
      name: "Škoda Octavia RS — <script>alert('x')</script> 東京",
      make: 'Škoda',
      status: 'coming_soon',
      reservable: false,
      tag: 'Pre-order',
      description: 'Arriving soon; "RS" model.\nTwo lines.',
      primaryImageUrl: '/media/demo/octavia.jpg',
    });
    expect(await db.select().from(carPaymentProcessors).where(eq(carPaymentProcessors.carId, skoda.id))).toMatchObject([
      { authorizationType: 'stripe', authorizationKey: 'pk_test_123', depositAmount: 500 },
    ]);
  });

  it('is idempotent: importing the same file again updates the same cars', async () => {
    const before = await db.select({ id: cars.id, slug: cars.slug }).from(cars).where(eq(cars.websiteId, tenant.id)).orderBy(cars.id);
    const result = await importStock(tenant, parseStockFile('stock-import.csv', csvFixture));
    expect(result.accepted).toBe(3);
    expect(result.rows.filter((r) => r.status === 'accepted').every((r) => r.status === 'accepted' && !r.created)).toBe(true);
    expect(await db.select({ id: cars.id, slug: cars.slug }).from(cars).where(eq(cars.websiteId, tenant.id)).orderBy(cars.id)).toEqual(before);
  });

  it('accepts the good rows of the JSON fixture and rejects the bad ones', async () => {
    const result = await importStock(tenant, parseStockFile('stock-import.json', jsonFixture));
    expect(summary(result)).toEqual([
      '1 ok volkswagen-golf-2022-v1',
      '2 ok isuzu-dmax-2023-v2',
      '3 rejected price',
      '4 rejected payment_processors.0.authorization_key',
      '5 rejected row',
      '6 rejected km,year',
      '7 rejected sold',
      '8 ok mitsubishi-triton-v8',
    ]);
    const [golf] = await db.select().from(cars).where(and(eq(cars.websiteId, tenant.id), eq(cars.slug, 'volkswagen-golf-2022-v1')));
    expect(golf).toMatchObject({ photosCount: 2, autograbAverageMarketPrice: 36500, autograbStateAverageMarketPrice: 35900 });
    const [triton] = await db.select().from(cars).where(eq(cars.slug, 'mitsubishi-triton-v8'));
    expect(triton.soldDate?.getTime()).toBe(1790000000000);
  });

  it('needs dealership_id when the website has several dealerships, and refuses another website’s', async () => {
    await db.insert(dealerships).values({ websiteId: tenant.id, slug: 'import-motors-second', name: 'Second' });
    const [other] = await db.insert(websites).values({ slug: 'other-site', name: 'Other', config: {} }).returning();
    const [foreign] = await db.insert(dealerships).values({ websiteId: other.id, slug: 'other-dealer', name: 'Other' }).returning();
    const row = { slug: 'two-dealers', make: 'Kia', model: 'Rio', year: 2020, car_type: 'used' };
    const result = await importStock(tenant, [row, { ...row, dealership_id: dealershipId }, { ...row, slug: 'foreign', dealership_id: foreign.id }]);
    expect(summary(result)).toEqual(['1 rejected dealership_id', '2 ok two-dealers', '3 rejected dealership_id']);
    expect(await db.select().from(cars).where(eq(cars.websiteId, other.id))).toEqual([]);
  });

  it('refuses files it cannot read', () => {
    expect(() => parseStockFile('x.csv', 'slug,make\n"unterminated,Toyota\n')).toThrow(StockFileError);
    expect(() => parseStockFile('x.csv', 'slug,make\na,b,c\n')).toThrow(StockFileError);
    expect(() => parseStockFile('x.json', '{"cars": 5}')).toThrow(StockFileError);
    expect(() => parseStockFile('x.json', '{not json')).toThrow(StockFileError);
    expect(() => parseStockFile('x.txt', 'slug')).toThrow(StockFileError);
    expect(parseStockFile('x.csv', 'slug,make\n')).toEqual([]);
  });
});
