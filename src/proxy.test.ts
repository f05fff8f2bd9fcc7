import { describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { config, proxy } from './proxy';

/** Where the proxy sends a page request: the x-middleware-rewrite target's path. */
function rewrittenPath(url: string, host = 'harbour-city-motors.localhost'): string {
  const response = proxy(new NextRequest(url, { headers: { host } }));
  return new URL(response.headers.get('x-middleware-rewrite')!).pathname;
}

describe('proxy', () => {
  it('rewrites a page to its website by host', () => {
    expect(rewrittenPath('http://x/cars/mazda-1')).toBe('/sites/harbour-city-motors.localhost/cars/mazda-1');
  });

  it('leaves the Dashboard API\'s public paths as they are: its handlers sit there', () => {
    const response = proxy(new NextRequest('http://x/websites/1/cars/x.json', { headers: { host: 'integrations.example' } }));
    expect(response.headers.get('x-middleware-rewrite')).toBeNull();
    expect(response.headers.get('x-middleware-next')).toBe('1');
  });

  it('escapes a stray % so the page sees a literal % (404), not a decoding error (500)', () => {
    expect(rewrittenPath('http://x/cars/abc$%')).toBe('/sites/harbour-city-motors.localhost/cars/abc$%25');
    expect(rewrittenPath('http://x/cars/abc%2')).toBe('/sites/harbour-city-motors.localhost/cars/abc%252');
    // Valid escapes are left as they are.
    expect(rewrittenPath('http://x/cars/abc%25')).toBe('/sites/harbour-city-motors.localhost/cars/abc%25');
    expect(rewrittenPath('http://x/search/%C5%A0koda')).toBe('/sites/harbour-city-motors.localhost/search/%C5%A0koda');
  });

  it('runs for pages and the Dashboard API, not for the visitor API or static files', () => {
    const runs = (url: string) => unstable_doesMiddlewareMatch({ config, url });
    for (const url of ['/', '/cars/mazda-1', '/websites/1/cars.json', '/api/v1/websites/1/cars.json', '/media/x.jpg', '/apiary']) expect(runs(url), url).toBe(true);
    for (const url of ['/api/auth', '/api/leads', '/api/leads/1', '/api/garage/3', '/api/dashboard/websites/1', '/_next/static/chunk.js']) expect(runs(url), url).toBe(false);
  });
});
