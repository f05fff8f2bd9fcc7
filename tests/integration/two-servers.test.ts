import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/db/rows';
import { basicAuth, carBody, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import { useTestDatabase } from '../support/database';

/**
 * Issue 33, decision 055: two application servers, each a process of its own with its own page
 * cache and its own copy of the website generations, on one PostgreSQL database. A change made
 * through the Dashboard API on server A must show on server B within 1 s, on B's cached stock
 * page (the cars and the make facet's counts) and B's cached feeds, with no request to B in
 * between asking the database anything but what B's notifications tell it. Each change is timed
 * from the Dashboard API's answer to the first answer of B that shows it, polling every 10 ms.
 */

const STALENESS_BOUND_MS = 1_000;

type Server = { child: ChildProcess; port: number };

function startServer(url: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', path.resolve('tests/support/server-only-hooks.mjs'), path.resolve('tests/support/app-server-child.ts')], {
    env: { ...process.env, NODE_ENV: 'test', APP_DB_URL: url, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const [, port] = /listening (\d+)/.exec(output) ?? [];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port) });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
}

function request(server: Server, method: string, urlPath: string, headers: Record<string, string>, body?: string): Promise<{ status: number; cache: string; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port: server.port, method, path: urlPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, cache: String(response.headers['x-page-cache']), body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('two servers on one PostgreSQL database', () => {
  let w: DashboardWorld;
  let a: Server;
  let b: Server;
  const host = 'alpha-motors.localhost';
  const figures: { change: string; page: number; feed: number }[] = [];

  beforeAll(async () => {
    const handle = await useTestDatabase();
    w = await seedDashboardWorld(handle.db);
    const [{ name }] = rowsOf<{ name: string }>(await handle.db.execute(sql`select current_database() as name`));
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    [a, b] = await Promise.all([startServer(url.toString()), startServer(url.toString())]);
  }, 120_000);

  afterAll(async () => {
    for (const server of [a, b]) server?.child.kill('SIGTERM');
    await Promise.all([a, b].map((server) => server && new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)))));
    if (figures.length > 0) console.log(`two servers: changes visible on the other server after (ms) ${figures.map((f) => `${f.change}: page ${f.page}, feed ${f.feed}`).join('; ')}`);
  });

  const get = (server: Server, urlPath: string) => request(server, 'GET', urlPath, { host });
  const putCar = (slug: string, body: unknown) =>
    request(a, 'PUT', `/websites/${w.a.websiteId}/cars/${slug}.json`, { authorization: basicAuth(w.a.key), 'content-type': 'application/json', 'x-dealer-client-address': '203.0.113.9' }, JSON.stringify(body));

  /** Milliseconds until `path` on B answers with `expected` in its body (B's cache invalidated). */
  async function visibleOnB(urlPath: string, expected: string, since: number): Promise<number> {
    for (;;) {
      const answer = await get(b, urlPath);
      const elapsed = performance.now() - since;
      if (answer.status === 200 && answer.body.includes(expected)) return Math.round(elapsed);
      if (elapsed > 5_000) throw new Error(`${urlPath} on B never showed '${expected}' (last: ${answer.status} ${answer.body.slice(0, 300)})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** B's page and feed cached (a hit each), then the change on A, then how long until B shows it. */
  async function measure(change: string, slug: string, body: unknown, page: string, feed: string): Promise<void> {
    for (const urlPath of ['/cars', '/feeds/meta-vehicles.csv']) {
      await get(b, urlPath);
      expect((await get(b, urlPath)).cache).toBe('hit');
    }
    const answer = await putCar(slug, body);
    expect([200, 201], answer.body).toContain(answer.status);
    const since = performance.now();
    const [pageMs, feedMs] = await Promise.all([visibleOnB('/cars', page, since), visibleOnB('/feeds/meta-vehicles.csv', feed, since)]);
    figures.push({ change, page: pageMs, feed: feedMs });
    expect(pageMs).toBeLessThan(STALENESS_BOUND_MS);
    expect(feedMs).toBeLessThan(STALENESS_BOUND_MS);
  }

  it('a price changed through the Dashboard API on A shows on B, cached page and feed, within 1 s', async () => {
    for (const price of [31_990, 32_990, 33_990]) {
      await measure(`price ${price}`, 'a-camry-1', carBody({ model: 'Camry', price, primary_image_url: 'https://alpha.example/photos/camry.jpg' }), `a-camry-1 ${price}`, String(price));
    }
  });

  it("a new car of a new make added on A shows on B within 1 s, in the make facet's counts and the feed", async () => {
    await measure('new make', 'a-golf-1', carBody({ make: 'Volkswagen', model: 'Golf', price: 28_990, location_id: w.a.salesLocationId, primary_image_url: 'https://alpha.example/photos/golf.jpg' }), 'make Volkswagen: 1', 'Golf');
  });
});
