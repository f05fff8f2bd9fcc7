import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { cachePageUntil, cachePageWhileVersionHolds, PageCache, pageCacheKey, recordBody } from './page-cache';
import { newRequestState, requestStorage } from './request-context';

function request(headers: http.IncomingHttpHeaders, url = '/search/used-cars', method = 'GET'): http.IncomingMessage {
  return { method, url, headers: { host: 'harbour-city-motors.localhost', ...headers } } as http.IncomingMessage;
}

function cacheAt(clock: { now: number }, maxBytes = 1000) {
  return new PageCache({ maxBytes, maxEntryBytes: 400, maxAgeMs: 60_000, now: () => clock.now });
}

const html = (text: string) => Buffer.from(text);

describe('pageCacheKey', () => {
  it('keys anonymous page requests by host, URL and accepted encoding', () => {
    const plain = pageCacheKey(request({}));
    const gzip = pageCacheKey(request({ 'accept-encoding': 'gzip' }));
    const filtered = pageCacheKey(request({}, '/search/used-cars?make=Toyota'));
    const otherSite = pageCacheKey(request({ host: 'kiwi-motors.localhost' }));
    expect(new Set([plain, gzip, filtered, otherSite]).size).toBe(4);
  });

  it('keys a website once however its host is spelt: case, port, trailing dot', () => {
    const key = pageCacheKey(request({ host: 'harbour-city-motors.localhost' }));
    for (const host of ['Harbour-City-Motors.LOCALHOST', 'harbour-city-motors.localhost:3000', 'harbour-city-motors.localhost.', 'HARBOUR-city-motors.localhost.:443']) {
      expect(pageCacheKey(request({ host }))).toBe(key);
    }
  });

  it.each([
    ['a POST', request({}, '/search/used-cars', 'POST')],
    ['a HEAD', request({}, '/search/used-cars', 'HEAD')],
    ['a visitor with a cookie', request({ cookie: 'session=abc' })],
    ['basic auth', request({ authorization: 'Basic eDp5' })],
    ['a client-side navigation', request({ rsc: '1' })],
    ['a router prefetch', request({ 'next-router-prefetch': '1' })],
    ['a server action', request({ 'next-action': 'abc' })],
    ['an RSC query', request({}, '/search/used-cars?_rsc=x1y2')],
    ['an API call', request({}, '/api/search')],
    ['a static asset', request({}, '/_next/static/chunk.js')],
  ])('never caches %s', (_name, req) => {
    expect(pageCacheKey(req)).toBeNull();
  });
});

describe('PageCache', () => {
  it('serves an entry while its version holds and drops it once the version changes', async () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock);
    let version = 'g1';
    cache.store('k', { version: 'g1', versionOf: async () => version }, 200, { 'content-type': 'text/html' }, html('<p>one</p>'));
    expect((await cache.current('k'))?.body.toString()).toBe('<p>one</p>');
    version = 'g2';
    expect(await cache.current('k')).toBeNull();
    version = 'g1';
    expect(await cache.current('k')).toBeNull();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('expires entries after the maximum age even when the version holds', async () => {
    const clock = { now: 1_000 };
    const cache = cacheAt(clock);
    cache.store('k', { version: 'v', versionOf: async () => 'v' }, 200, {}, html('page'));
    clock.now += 60_000;
    expect(await cache.current('k')).not.toBeNull();
    clock.now += 1;
    expect(await cache.current('k')).toBeNull();
  });

  it('expires an entry at the instant its page said it would read differently, before the maximum age', async () => {
    const clock = { now: 1_000 };
    const cache = cacheAt(clock);
    cache.store('k', { version: 'v', versionOf: async () => 'v' }, 200, {}, html('closed now'), 31_000);
    clock.now = 30_999;
    expect(await cache.current('k')).not.toBeNull();
    clock.now = 31_000;
    expect(await cache.current('k')).toBeNull();
    // A page whose instant passed while it rendered is not kept at all.
    cache.store('k', { version: 'v', versionOf: async () => 'v' }, 200, {}, html('closed now'), 31_000);
    expect(cache.size.entries).toBe(0);
  });

  it('does not serve an entry whose version cannot be read', async () => {
    const cache = cacheAt({ now: 0 });
    cache.store('k', { version: 'v', versionOf: async () => Promise.reject(new Error('database down')) }, 200, {}, html('page'));
    expect(await cache.current('k')).toBeNull();
  });

  it('serves an entry as it is when its version cannot be read because the database is unavailable (stale-if-error, decision 055)', async () => {
    const cache = cacheAt({ now: 0 });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    cache.store('k', { version: 'v', versionOf: async () => Promise.reject(refused) }, 200, {}, html('page'));
    expect((await cache.current('k'))?.body.toString()).toBe('page');
    const timedOut = new Error('Query read timeout');
    cache.store('t', { version: 'v', versionOf: async () => Promise.reject(timedOut) }, 200, {}, html('other'));
    expect((await cache.current('t'))?.body.toString()).toBe('other');
  });

  it('serves an entry past its age while the database is known to be unavailable, up to staleIfErrorMs, and renders it again once it answers', async () => {
    const clock = { now: 0 };
    let unavailable = false;
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 400, maxAgeMs: 60_000, staleIfErrorMs: 3_600_000, now: () => clock.now, databaseUnavailable: () => unavailable });
    cache.store('k', { version: 'v', versionOf: async () => 'v' }, 200, {}, html('page'));
    clock.now = 60_001;
    expect(await cache.current('k')).toBeNull();
    // Not dropped: the database may go away before a render replaces it.
    expect(cache.size.entries).toBe(1);
    unavailable = true;
    expect((await cache.current('k'))?.body.toString()).toBe('page');
    clock.now = 60_001 + 3_600_000;
    expect(await cache.current('k')).toBeNull();
    expect(cache.size.entries).toBe(0);
  });

  it('evicts the least recently used pages past its memory limit', async () => {
    const cache = cacheAt({ now: 0 }, 250);
    const mark = { version: 'v', versionOf: async () => 'v' };
    cache.store('a', mark, 200, {}, Buffer.alloc(100));
    cache.store('b', mark, 200, {}, Buffer.alloc(100));
    await cache.current('a');
    cache.store('c', mark, 200, {}, Buffer.alloc(100));
    expect(await cache.current('b')).toBeNull();
    expect(await cache.current('a')).not.toBeNull();
    expect(await cache.current('c')).not.toBeNull();
    expect(cache.size).toEqual({ entries: 2, bytes: 200 });
  });

  it('keeps nothing larger than one entry may be', async () => {
    const cache = cacheAt({ now: 0 });
    cache.store('k', { version: 'v', versionOf: async () => 'v' }, 200, {}, Buffer.alloc(401));
    expect(await cache.current('k')).toBeNull();
  });

  it('does not replay headers that belong to one connection or one response', async () => {
    const cache = cacheAt({ now: 0 });
    const headers = { Date: 'x', Connection: 'keep-alive', 'Transfer-Encoding': 'chunked', 'Content-Length': '9', 'X-Page-Cache': 'miss', 'Content-Type': 'text/html' };
    cache.store('k', { version: 'v', versionOf: async () => 'v' }, 200, headers, html('page'));
    expect((await cache.current('k'))?.headers).toEqual({ 'content-type': 'text/html' });
  });
});

describe('recordBody', () => {
  it('copies what a real response writes, strings and buffers alike, and gives up past its limit', async () => {
    const server = http.createServer((req, res) => {
      const limit = req.url === '/small' ? 5 : 1000;
      const body = recordBody(res, limit);
      res.on('finish', () => server.emit('recorded', body()));
      res.write('<p>');
      res.write(Buffer.from('héllo'));
      res.end('</p>', 'utf8');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const recorded = (path: string) =>
      new Promise<Buffer | null>((resolve) => {
        server.once('recorded', resolve);
        void fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text());
      });
    expect((await recorded('/'))?.toString()).toBe('<p>héllo</p>');
    expect(await recorded('/small')).toBeNull();
    server.close();
  });
});

describe('cachePageWhileVersionHolds', () => {
  it('keeps the version read first in a request, before any of the data', async () => {
    const state = newRequestState();
    let version = 'g1';
    const versionOf = async () => version;
    await requestStorage().run(state, async () => {
      await cachePageWhileVersionHolds(versionOf);
      version = 'g2';
      await cachePageWhileVersionHolds(versionOf);
    });
    expect(state.pageCache?.version).toBe('g1');
  });

  it('does nothing outside a request', async () => {
    await expect(cachePageWhileVersionHolds(async () => 'v')).resolves.toBeUndefined();
  });
});

describe('cachePageUntil', () => {
  it('keeps the earliest instant named while the page renders', () => {
    const state = newRequestState();
    requestStorage().run(state, () => {
      cachePageUntil(5_000);
      cachePageUntil(3_000);
      cachePageUntil(9_000);
    });
    expect(state.pageCacheUntil).toBe(3_000);
  });
});
