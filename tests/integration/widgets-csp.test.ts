import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRequestHooks } from '@/lib/request-hooks';
import { allowCspSources } from '@/lib/request-context';
import { allowPaymentStepCsp } from '@/modules/checkout/checkout.csp';
import { resetCheckoutEnv } from '@/modules/checkout/checkout.env';

/**
 * Decision 037: a page names its website's widget origins while rendering (allowCspSources) and the
 * request hooks send a Content-Security-Policy that allows them, for that response only. Decision
 * 041: a Stripe website's checkout page adds Stripe's origins to the widgets' ones.
 */
describe('per-response CSP with the website widgets\' origins', () => {
  let server: http.Server;
  let port: number;

  // St George configured as a deployment would (its Connect page is the default one).
  const ST_GEORGE_ENV = { STGEORGE_STORE_ID: '1234567', STGEORGE_API_KEY: 'key', STGEORGE_API_SECRET: 'secret', STGEORGE_SHARED_SECRET: 'shared' };

  beforeAll(async () => {
    Object.assign(process.env, ST_GEORGE_ENV);
    resetCheckoutEnv();
    installRequestHooks({ pageCache: null, trustedProxyHops: 0, development: false });
    server = http.createServer((request, response) => {
      // As the site layout does, after an await (the render is asynchronous).
      void Promise.resolve().then(() => {
        if (request.url === '/with-widgets' || request.url === '/stripe-checkout') allowCspSources({ script: ['https://connect.podium.com'], connect: ['wss://*.podium.com'] });
        if (request.url === '/stripe-checkout') allowPaymentStepCsp('stripe');
        if (request.url === '/till-checkout') allowPaymentStepCsp('till');
        if (request.url === '/stgeorge-checkout') allowPaymentStepCsp('stgeorge');
        response.setHeader('Content-Type', 'text/html');
        response.end('<p>page</p>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const name of Object.keys(ST_GEORGE_ENV)) delete process.env[name];
    resetCheckoutEnv();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const csp = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).headers.get('content-security-policy') ?? '';

  it('allows the origins a page named, and only on that response', async () => {
    const withWidgets = await csp('/with-widgets');
    expect(withWidgets).toMatch(/script-src [^;]*https:\/\/connect\.podium\.com/);
    expect(withWidgets).toMatch(/connect-src [^;]*wss:\/\/\*\.podium\.com/);
    expect(withWidgets).toContain("frame-ancestors 'none'");
    const plain = await csp('/plain');
    expect(plain).toContain("script-src 'self'");
    // Inline scripts only by their hashes (decision 040): this page has none.
    expect(plain).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    expect(plain).not.toContain('podium');
  });

  it('allows js.stripe.com and api.stripe.com on a Stripe checkout page only, next to the widgets', async () => {
    const stripe = await csp('/stripe-checkout');
    expect(stripe).toMatch(/script-src [^;]*https:\/\/connect\.podium\.com[^;]*https:\/\/js\.stripe\.com/);
    expect(stripe).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com/);
    expect(stripe).toMatch(/connect-src [^;]*wss:\/\/\*\.podium\.com[^;]*https:\/\/api\.stripe\.com/);
    for (const path of ['/till-checkout', '/with-widgets', '/plain']) expect(await csp(path), path).not.toContain('stripe.com');
  });

  it("lets a St George checkout page post its form to St George's Connect page, and no other page", async () => {
    expect(await csp('/stgeorge-checkout')).toMatch(/form-action 'self' https:\/\/www\.ipg-online\.com(;|$)/);
    for (const path of ['/till-checkout', '/stripe-checkout', '/plain']) expect(await csp(path), path).toMatch(/form-action 'self'(;|$)/);
  });
});
