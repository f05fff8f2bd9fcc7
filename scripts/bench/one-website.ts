/**
 * The data set of bench:sitemap and bench:feeds: one dealer website holding all of the search
 * benchmark's 100,000 generated cars (scripts/bench/generate-stock.ts, moved to its first website),
 * in an embedded database or in a PostgreSQL server database that holds nothing but bench websites.
 */
import fs from 'node:fs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../src/db/client';
import { cars, dealerships, locations, websiteDomains, websites } from '../../src/db/schema';
import { generateBenchData, isBenchSlug } from './generate-stock';
import { insertJson, redact, selectRows } from './load';

/** One website with all 100,000 generated cars (its dealership and location), written in chunks; its id. */
export async function writeOneWebsite(handle: DatabaseHandle, log: (line: string) => void): Promise<number> {
  const data = generateBenchData();
  const site = data.websites[0];
  const dealership = data.dealerships.find((d) => d.websiteId === site.id)!;
  const location = data.locations.find((l) => l.websiteId === site.id && l.dealershipId === dealership.id)!;
  const { db } = handle;
  await db.transaction(async (tx) => {
    const t = tx as unknown as typeof db;
    await insertJson(t, websites, 'websites', [site]);
    await insertJson(t, websiteDomains, 'website_domains', data.domains.filter((d) => d.websiteId === site.id));
    await insertJson(t, dealerships, 'dealerships', [dealership]);
    await insertJson(t, locations, 'locations', [location]);
    const rows = data.cars.map((car) => ({ ...car, websiteId: site.id, dealershipId: dealership.id, locationId: location.id }));
    for (let i = 0; i < rows.length; i += 20_000) {
      await insertJson(t, cars, 'cars', rows.slice(i, i + 20_000));
      log(`  cars ${Math.min(i + 20_000, rows.length).toLocaleString('en-AU')} / ${rows.length.toLocaleString('en-AU')}`);
    }
  });
  await db.execute(sql.raw('vacuum analyze'));
  return site.id;
}

/** A fresh embedded database in dir (whatever was there is removed). */
function openFreshPglite(dir: string): Promise<DatabaseHandle> {
  fs.rmSync(dir, { recursive: true, force: true });
  return openDatabase({ dataDir: dir });
}

/** The server database, emptied first; refused when it holds websites that are not bench websites. */
async function openEmptiedServer(url: string): Promise<DatabaseHandle> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const present = await client.query<{ present: boolean }>("select to_regclass('public.websites') is not null as present");
    if (present.rows[0]?.present) {
      const slugs = (await client.query<{ slug: string }>('select slug from websites')).rows.map((r) => r.slug);
      const foreign = slugs.filter((slug) => !isBenchSlug(slug));
      if (foreign.length > 0) throw new Error(`Refusing to use ${redact(url)}: it holds websites that are not bench websites (${foreign.slice(0, 3).join(', ')}).`);
    }
    await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
  } finally {
    await client.end();
  }
  return openDatabase({ url, poolSize: 4 });
}

/**
 * measure on a fresh embedded database in pgliteDir (removed afterwards), then on the PostgreSQL
 * server database BENCH_DATABASE_URL names, if any; each labelled with its database and version.
 */
export async function measureOnEachDatabase<F>(
  pgliteDir: string,
  measure: (handle: DatabaseHandle, database: string) => Promise<F>,
  log: (line: string) => void,
): Promise<F[]> {
  const figures: F[] = [];
  const version = async (handle: DatabaseHandle) =>
    (await selectRows<{ version: string }>(handle.db, sql`select current_setting('server_version') as version`))[0].version;
  const pglite = await openFreshPglite(pgliteDir);
  try {
    figures.push(await measure(pglite, `PGlite (PostgreSQL ${await version(pglite)})`));
  } finally {
    await pglite.close();
    fs.rmSync(pgliteDir, { recursive: true, force: true });
  }
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const server = await openEmptiedServer(serverUrl);
    try {
      figures.push(await measure(server, `PostgreSQL ${(await version(server)).split(' ')[0]} server`));
    } finally {
      await server.close();
    }
  } else {
    log('BENCH_DATABASE_URL is not set: the PostgreSQL server part is skipped.');
  }
  return figures;
}
