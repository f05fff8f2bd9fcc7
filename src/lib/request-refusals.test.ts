import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { refusal } from './request-refusals';
import { contentSecurityPolicy, securityHeaders } from './security-headers';

const request = (method: string, url: string, headers: http.IncomingHttpHeaders = { host: 'harbour-city-motors.localhost:3000' }) =>
  ({ method, url, headers }) as http.IncomingMessage;

describe('requests answered before Next', () => {
  it('refuses TRACE, TRACK and CONNECT with 405', () => {
    for (const method of ['TRACE', 'TRACK', 'CONNECT', 'trace']) expect(refusal(request(method, '/'))?.status, method).toBe(405);
  });

  it('refuses a Host header that is not name[:port] with 400, before any website is looked up', () => {
    for (const host of ['harbour-city-motors.localhost:80@evil.example', 'harbour-city-motors.localhost:80/x', 'a.localhost:x', 'a b', '[::1]junk', 'x..y']) {
      expect(refusal(request('GET', '/', { host })), host).toEqual({ status: 400, message: 'Bad request: the Host header is not a host name' });
    }
    for (const host of ['harbour-city-motors.localhost', 'Harbour-City-Motors.localhost:3000', 'www.example.com.', '[::1]:3000', '127.0.0.1:80']) expect(refusal(request('GET', '/', { host })), host).toBeNull();
  });

  it('refuses paths whose percent-encoding is not UTF-8 with 400, and lets a stray % through to the 404 page', () => {
    for (const url of ['/cars/%ff', '/search/%c0%ae', '/media/%E0%A4%A', '/api/leads/%E0%A4%A', '/%C0%80', '/x/%ED%A0%80']) {
      expect(refusal(request(url.startsWith('/api') ? 'PUT' : 'GET', url))?.status, url).toBe(400);
    }
    expect(refusal(request('GET', '/cars/abc$%'))).toBeNull();
    expect(refusal(request('PUT', '/api/leads/%'))?.status).toBe(400);
    expect(refusal(request('GET', '/media/abc%'))?.status).toBe(400);
    expect(refusal(request('PUT', '/api/leads/%u002e'))?.status).toBe(400);
    expect(refusal(request('GET', '/search/used-cars?q=%ff'))).toBeNull();
    expect(refusal(request('GET', '/cars/%C5%A0koda-octavia'))).toBeNull();
  });

  it('escapes a page path\'s stray % so the page sees a literal % (404), where Next\'s route matching answers 500', () => {
    const escaped = (url: string) => {
      const asked = request('GET', url);
      expect(refusal(asked), url).toBeNull();
      return asked.url;
    };
    expect(escaped('/cars/abc$%')).toBe('/cars/abc$%25');
    expect(escaped('/cars/abc%2')).toBe('/cars/abc%252');
    expect(escaped('/%')).toBe('/%25');
    expect(escaped('/search/used-cars%?q=%ff&x=%')).toBe('/search/used-cars%25?q=%ff&x=%');
    // Valid escapes, and paths without a stray %, are left as they are.
    for (const url of ['/cars/abc%25', '/search/%C5%A0koda', '/cars/mazda-3?utm_source=x%20y', '/']) expect(escaped(url)).toBe(url);
  });

  it('refuses an absolute-form request line naming another host; reads its path when it names this one', () => {
    expect(refusal(request('GET', 'http://evil.example/about-us'))?.status).toBe(400);
    expect(refusal(request('GET', 'ftp://harbour-city-motors.localhost/x'))?.status).toBe(400);
    const own = request('GET', 'http://Harbour-City-Motors.localhost:3000/about-us?x=1');
    expect(refusal(own)).toBeNull();
    expect(own.url).toBe('/about-us?x=1');
  });

  it('answers pages asked with POST, PUT, DELETE or PATCH with 405 and Allow; the APIs take them', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      expect(refusal(request(method, '/about-us')), method).toEqual({ status: 405, message: 'Method not allowed', headers: { Allow: 'GET, HEAD' } });
    }
    for (const url of ['/api/leads', '/websites/1/cars/x.json', '/dealerships/1/leads.json']) expect(refusal(request('POST', url)), url).toBeNull();
    expect(refusal(request('POST', '/about-us', { host: 'x.localhost', 'next-action': 'abc' }))).toBeNull();
    expect(refusal(request('GET', '/about-us'))).toBeNull();
  });
});

const scriptSrc = (csp: string) => csp.split('; ').find((directive) => directive.startsWith('script-src ')) ?? '';

describe('security headers', () => {
  it('frames nothing, sniffs nothing, sends no full referrer, and allows scripts from the platform only, no inline ones', () => {
    const headers = securityHeaders({ https: false });
    expect(headers).toMatchObject({ 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' });
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(headers['Content-Security-Policy']).toContain("object-src 'none'");
    expect(headers['Content-Security-Policy']).toMatch(/script-src 'self' https:\/\/maps\.googleapis\.com/);
    expect(scriptSrc(headers['Content-Security-Policy'])).not.toContain('unsafe-inline');
    expect(headers['Content-Security-Policy']).not.toContain('unsafe-eval');
    // Styles: React and the components write style attributes (decision 040).
    expect(headers['Content-Security-Policy']).toMatch(/style-src 'self' 'unsafe-inline'/);
    expect(headers['Strict-Transport-Security']).toBeUndefined();
    expect(securityHeaders({ https: true })['Strict-Transport-Security']).toBe('max-age=31536000');
  });

  it('allows a rendered page\'s own inline scripts by their hashes, and everything inline only in development', () => {
    const hashes = ["'sha256-AAAA'", "'sha256-BBBB'"];
    const page = scriptSrc(contentSecurityPolicy({ script: ['https://widget.example'] }, { scriptHashes: hashes }));
    expect(page).toBe("script-src 'self' 'sha256-AAAA' 'sha256-BBBB' https://maps.googleapis.com https://maps.gstatic.com https://widget.example");
    const development = scriptSrc(contentSecurityPolicy({}, { development: true, scriptHashes: hashes }));
    expect(development).toBe("script-src 'self' 'unsafe-inline' 'unsafe-eval' https://maps.googleapis.com https://maps.gstatic.com");
  });

  it('takes more origins per directive, once each', () => {
    const csp = contentSecurityPolicy({ script: ['https://widget.example', 'https://widget.example'], frame: ['https://chat.example'] });
    expect(csp.match(/https:\/\/widget\.example/g)).toHaveLength(1);
    expect(csp).toMatch(/frame-src 'self' https:\/\/www\.google\.com https:\/\/chat\.example/);
  });
});
