import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as proxy } from '@/app/api/partytown/proxy/route';
import { PROXY_LIMITS } from '@/modules/widgets/widgets.partytown';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { useTestDatabase } from '../support/database';

/**
 * Decision 043: GET /api/partytown/proxy on a real database, against a local HTTPS server standing
 * in for connect.facebook.net (reached through WIDGET_PROXY_RESOLVE, as bench:pages does; its
 * certificate trusted by this process only). It serves the website's proxied tag hosts to the worker
 * and refuses everything else: not an open proxy.
 */
describe('the Partytown proxy', () => {
  let upstream: https.Server;
  const asked: string[] = [];
  const META = 'https://connect.facebook.net/en_US/fbevents.js';

  beforeAll(async () => {
    const { db } = await useTestDatabase();
    await db.insert(websites).values([
      { slug: 'pixel-site', name: 'Pixel site', config: { widgets: { facebookPixelId: '1234567', googleAnalyticsId: 'G-ABCD1234', loadOutsideProduction: true } } },
      { slug: 'plain-site', name: 'Plain site', config: { widgets: { googleAnalyticsId: 'G-ABCD1234', loadOutsideProduction: true } } },
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-proxy-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=connect.facebook.net', '-addext', 'subjectAltName=DNS:connect.facebook.net'], { stdio: 'ignore' });
    const cert = fs.readFileSync(`${dir}/cert.pem`);
    upstream = https.createServer({ key: fs.readFileSync(`${dir}/key.pem`), cert }, (req, res) => {
      asked.push(`${req.headers.host} ${req.url} cookie=${req.headers.cookie ?? ''}`);
      if (req.url?.startsWith('/en_US/fbevents.js')) res.writeHead(200, { 'content-type': 'application/javascript', 'cache-control': 'public, max-age=1200' }).end('/* fbevents */');
      else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not a script</p>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    https.globalAgent.options.ca = cert;
    process.env.WIDGET_PROXY_RESOLVE = `connect.facebook.net:${(upstream.address() as AddressInfo).port}:127.0.0.1`;
  });
  afterAll(async () => {
    delete process.env.WIDGET_PROXY_RESOLVE;
    delete https.globalAgent.options.ca;
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  const get = (url: string, host = 'pixel-site.localhost', headers: Record<string, string> = { 'sec-fetch-dest': 'empty' }) =>
    proxy(new Request(`http://x/api/partytown/proxy?url=${encodeURIComponent(url)}`, { headers: { host, cookie: 'session=secret', ...headers } }));

  it("fetches Meta's script for a website with the pixel, as JavaScript, without the visitor's cookies", async () => {
    const response = await get(META);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=1200');
    expect(await response.text()).toBe('/* fbevents */');
    expect(asked.at(-1)).toBe('connect.facebook.net /en_US/fbevents.js cookie=');
  });

  it('refuses other hosts, other websites, script elements and unknown hosts', async () => {
    const before = asked.length;
    expect((await get('https://evil.example/x.js')).status).toBe(403);
    expect((await get('https://www.googletagmanager.com/gtag/js?id=G-ABCD1234')).status).toBe(403); // sends CORS headers: fetched directly
    expect((await get(META, 'plain-site.localhost')).status).toBe(403); // no pixel configured
    expect((await get(META, 'pixel-site.localhost', { 'sec-fetch-dest': 'script' })).status).toBe(403);
    expect((await get(META, 'nobody.example')).status).toBe(404);
    expect(asked.length).toBe(before);
  });

  it('answers 502 when the provider does not answer with a script', async () => {
    expect((await get('https://connect.facebook.net/page.html')).status).toBe(502);
    expect((await get('https://connect.facebook.net/missing.js')).status).toBe(502);
  });

  it('asks the provider once for a script it may cache, and answers again from the process', async () => {
    const script = 'https://connect.facebook.net/en_US/fbevents.js?v=kept';
    const before = asked.length;
    for (let i = 0; i < 3; i++) {
      const response = await get(script);
      expect([response.status, await response.text()]).toEqual([200, '/* fbevents */']);
    }
    expect(asked.length).toBe(before + 1);
  });

  it(`limits what one visitor address has fetched from the provider to ${PROXY_LIMITS.upstreamPerAddressPerHour} an hour; scripts already kept are still answered`, async () => {
    const address = { 'sec-fetch-dest': 'empty', 'x-dealer-client-address': '203.0.113.9' };
    for (let i = 0; i < PROXY_LIMITS.upstreamPerAddressPerHour; i++) {
      expect((await get(`https://connect.facebook.net/missing.js?n=${i}`, 'pixel-site.localhost', address)).status).toBe(502);
    }
    const before = asked.length;
    const refused = await get('https://connect.facebook.net/missing.js?n=over', 'pixel-site.localhost', address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(asked.length).toBe(before);
    expect((await get(META, 'pixel-site.localhost', address)).status).toBe(200);
    // Another address is not held back by the first one's count.
    expect((await get('https://connect.facebook.net/missing.js?n=other', 'pixel-site.localhost', { ...address, 'x-dealer-client-address': '203.0.113.10' })).status).toBe(502);
  });
});
