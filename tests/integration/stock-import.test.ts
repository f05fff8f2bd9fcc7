import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { openDatabase } from '@/db/client';
import { useTestDatabase } from '../support/database';
import { apiKeys, dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { carImages, carPaymentProcessors, cars } from '@/modules/stock/stock.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { formatImportRow, importStock, parseStockFile, StockFileError, type ImportResult } from '@/modules/dashboard/dashboard.import';
import { verifySecret } from '@/modules/dashboard/dashboard.auth';

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

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

async function runScript(script: string, args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', path.join(ROOT, 'scripts', script), ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// The scripts open the embedded database of DATA_DIR, so they are run once, on PGlite.
describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('the stock:import and apikey:create scripts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stock-import-'));

  beforeAll(async () => {
    const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    const [site] = await handle.db.insert(websites).values({ slug: 'script-motors', name: 'Script Motors', config: {} }).returning();
    await handle.db.insert(dealerships).values({ websiteId: site.id, slug: 'script-motors-dealer', name: 'Script Motors' });
    await handle.close();
  });

  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('imports the CSV fixture, prints a line per row and the totals, and exits 1 because rows were rejected', async () => {
    const { code, stdout } = await runScript('stock-import.ts', ['--website', 'script-motors', path.join(FIXTURES, 'stock-import.csv')], dataDir);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('row 1: accepted toyota-corolla-2021-t1001');
    expect(lines[3]).toBe('row 4: rejected – year: must not be more than 2 years ahead; price: must be at least 0');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('3 accepted, 7 rejected');
    expect(code).toBe(1);
  });

  it('exits 0 when every row is accepted', async () => {
    const good = path.join(dataDir, 'good.json');
    fs.writeFileSync(good, JSON.stringify([{ slug: 'only-good', make: 'Kia', model: 'Rio', year: 2020, car_type: 'used' }]));
    const { code, stdout } = await runScript('stock-import.ts', ['--website', 'script-motors', good], dataDir);
    expect(stdout.trim().split('\n')).toEqual(['row 1: accepted only-good', '1 accepted, 0 rejected']);
    expect(code).toBe(0);
  });

  it('exits 2 on unusable input: missing file, unreadable CSV, unknown website, no arguments', async () => {
    const bad = path.join(dataDir, 'bad.csv');
    fs.writeFileSync(bad, 'slug,make\n"unterminated,Toyota\n');
    const missing = await runScript('stock-import.ts', ['--website', 'script-motors', path.join(dataDir, 'nope.csv')], dataDir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    const unreadable = await runScript('stock-import.ts', ['--website', 'script-motors', bad], dataDir);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/unreadable CSV/);
    const unknown = await runScript('stock-import.ts', ['--website', 'no-such-site', path.join(FIXTURES, 'stock-import.csv')], dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No website/);
    expect((await runScript('stock-import.ts', [], dataDir)).code).toBe(2);
  });

  it('creates an API key, printing the secret once and storing only its hash', async () => {
    const { code, stdout } = await runScript('apikey-create.ts', ['--dealership', 'script-motors-dealer'], dataDir);
    expect(code).toBe(0);
    const keyId = /key id:\s+(dk_[0-9a-f]{24})/.exec(stdout)?.[1];
    const secret = /secret:\s+([A-Za-z0-9_-]{43})/.exec(stdout)?.[1];
    expect(keyId && secret).toBeTruthy();
    expect(stdout).toContain(`curl -u '${keyId}:${secret}' http://script-motors.localhost:3000/websites/`);
    const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const [row] = await handle.db.select().from(apiKeys).where(eq(apiKeys.keyId, keyId!));
      expect(row.secretHash).not.toContain(secret!);
      expect(await verifySecret(secret!, row.secretHash)).toBe(true);
    } finally {
      await handle.close();
    }
    expect((await runScript('apikey-create.ts', ['--dealership', 'nobody'], dataDir)).code).toBe(1);
  });
});
