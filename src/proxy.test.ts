import { describe, expect, it } from 'vitest';
import { NextRequest } from 'next/server';
import { proxy } from './proxy';

/** Where the proxy sends a page request: the x-middleware-rewrite target's path. */
function rewrittenPath(url: string, host = 'harbour-city-motors.localhost'): string {
  const response = proxy(new NextRequest(url, { headers: { host } }));
  return new URL(response.headers.get('x-middleware-rewrite')!).pathname;
}

describe('proxy', () => {
  it('rewrites a page to its website by host', () => {
    expect(rewrittenPath('http://x/cars/mazda-1')).toBe('/sites/harbour-city-motors.localhost/cars/mazda-1');
  });

  it('escapes a stray % so the page sees a literal % (404), not a decoding error (500)', () => {
    expect(rewrittenPath('http://x/cars/abc$%')).toBe('/sites/harbour-city-motors.localhost/cars/abc$%25');
    expect(rewrittenPath('http://x/cars/abc%2')).toBe('/sites/harbour-city-motors.localhost/cars/abc%252');
    // Valid escapes are left as they are.
    expect(rewrittenPath('http://x/cars/abc%25')).toBe('/sites/harbour-city-motors.localhost/cars/abc%25');
    expect(rewrittenPath('http://x/search/%C5%A0koda')).toBe('/sites/harbour-city-motors.localhost/search/%C5%A0koda');
  });
});
