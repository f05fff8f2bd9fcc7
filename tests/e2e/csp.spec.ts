import { createHash } from 'node:crypto';
import type { Page, Response } from '@playwright/test';
import { expect, serverUrl, siteUrl, test } from './support';

/**
 * Decision 040 on the production build: pages of harbour-city-motors (which runs every widget
 * kind) are served with a script-src that has no 'unsafe-inline' and names the hash of every
 * inline script they contain, load with no CSP violation (the widgets' scripts, which the loader
 * injects from their own hosts, and the analytics tags Partytown runs in its worker, included) and hydrate.
 */

const SITE = 'harbour-city-motors';
const HOST = `${SITE}.localhost`;

type Watch = { violations: () => Promise<string[]>; thirdParty: () => number };

/** Records CSP violations (the DOM event and Chromium's console report) and answers third-party hosts with stand-ins. */
async function watch(page: Page): Promise<Watch> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`));
  });
  const consoleReports: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) consoleReports.push(message.text());
  });
  // No network here: the widgets' hosts get empty scripts, with the CORS header the providers send
  // (GA4 and GTM are fetched by Partytown's worker, decision 043; on the context, so its requests are
  // answered too). The browser checks the policy before it asks, so a blocked script never reaches this route.
  let thirdParty = 0;
  await page.context().route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost' && !url.hostname.endsWith('.localhost'),
    (route) => {
      thirdParty += 1;
      return route.fulfill({ status: 200, contentType: 'application/javascript', headers: { 'access-control-allow-origin': '*' }, body: '/* stand-in */' });
    },
  );
  return {
    violations: async () => [...consoleReports, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))],
    thirdParty: () => thirdParty,
  };
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page as served: no 'unsafe-inline' for scripts, a hash for each inline script, no inline event handler. */
async function expectHashedInlineScripts(response: Response | null) {
  expect(response?.status()).toBe(200);
  const policy = response!.headers()['content-security-policy'] ?? '';
  const scriptSrc = policy.split('; ').find((directive) => directive.startsWith('script-src ')) ?? '';
  expect(scriptSrc).toMatch(/^script-src 'self' /);
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).not.toContain('strict-dynamic');
  const html = await response!.text();
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc=/.test(attributes) && !/\btype="application\/(ld\+)?json"/.test(attributes))
    .map(([, , source]) => source);
  // The loader, Turbopack's chunk list and the flight data at least.
  expect(inline.length).toBeGreaterThanOrEqual(3);
  for (const source of inline) expect(scriptSrc, source.slice(0, 80)).toContain(sha256(source));
  expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
}

/** The first interaction loads the widgets (decision 037) from their own hosts: the policy lets them in. */
async function expectWidgetsAllowed(page: Page, csp: Watch) {
  await page.mouse.wheel(0, 400);
  await expect.poll(() => csp.thirdParty()).toBeGreaterThanOrEqual(5);
  await page.waitForTimeout(500);
  expect(await csp.violations()).toEqual([]);
}

async function reservableCarSlug(page: Page): Promise<string> {
  const search = await page.request.post(serverUrl('/api/search'), { headers: { host: HOST }, data: { filters: { status: ['in_stock'] }, limit: 50 } });
  const hits = (await search.json()).hits as { id: number; slug: string }[];
  for (const hit of hits) {
    const quote = await page.request.get(serverUrl(`/api/checkout/quote?car_id=${hit.id}`), { headers: { host: HOST } });
    if (quote.status() === 200 && (await quote.json()).eligible) return hit.slug;
  }
  throw new Error(`no reservable car on ${SITE}`);
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('home: hashed inline scripts, no violation, and the widgets the loader injects from their hosts are allowed', async ({ page }) => {
  const csp = await watch(page);
  await expectHashedInlineScripts(await page.goto(siteUrl(SITE, '/')));
  await expectWidgetsAllowed(page, csp);
});

test('search: no violation, and a filter applies through the hydrated form', async ({ page }) => {
  const csp = await watch(page);
  await expectHashedInlineScripts(await page.goto(siteUrl(SITE, '/search/new-used-and-demo-cars')));
  const make = page.locator('#search-filter-panel input[name="make"]').first();
  const value = await make.getAttribute('value');
  await make.check();
  // Applied at once by the client (no submit button pressed): the hydrated enhancer did it.
  await expect(page).toHaveURL((url) => url.searchParams.get('make') === value);
  expect(await csp.violations()).toEqual([]);
});

test('car page: no violation, and the gallery moves', async ({ page }) => {
  const csp = await watch(page);
  const search = await page.request.post(serverUrl('/api/search'), { headers: { host: HOST }, data: { limit: 20 } });
  const car = ((await search.json()).hits as { slug: string; photos_count: number }[]).find((hit) => hit.photos_count > 2)!;
  await expectHashedInlineScripts(await page.goto(siteUrl(SITE, `/cars/${car.slug}`)));
  const counter = page.locator('[data-gallery-stage] [data-gallery-counter]');
  await expect(counter).toHaveText(/^1 \/ \d+$/);
  await page.locator('[data-gallery-stage]').getByRole('button', { name: 'Next photo' }).click();
  await expect(counter).toHaveText(/^2 \//);
  await expectWidgetsAllowed(page, csp);
});

test('a form page and a checkout page: no violation, hydrated', async ({ page }) => {
  const csp = await watch(page);
  for (const path of ['/contact', `/cars/${await reservableCarSlug(page)}/checkout`]) {
    await expectHashedInlineScripts(await page.goto(siteUrl(SITE, path)));
    // page.goto waited for React on the body: the hashed scripts ran.
    expect(await page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__reactFiber'))), path).toBe(true);
    expect(await csp.violations(), path).toEqual([]);
  }
  // A client-side navigation: its RSC answer carries no page, and nothing is refused either.
  await page.goto(siteUrl(SITE, '/search/new-used-and-demo-cars'));
  await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
  const rsc = page.waitForRequest((request) => request.headers()['rsc'] === '1');
  await page.locator('a[rel="next"]').first().click();
  await rsc;
  await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2');
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  expect(await csp.violations()).toEqual([]);
});

test('the opener policy: none on the pages rendered alike for every visitor (also from the page cache), same-origin on sign-in, the garage, a checkout and the API (decision 074)', async ({ page }) => {
  const opener = async (path: string) => (await page.request.get(serverUrl(path), { headers: { host: HOST, accept: 'text/html' } })).headers()['cross-origin-opener-policy'] ?? null;
  const car = await reservableCarSlug(page);
  for (const path of ['/', '/search/new-used-and-demo-cars', `/cars/${car}`, '/finance', '/contact']) {
    for (const time of ['first', 'again']) expect(await opener(path), `${path} (${time})`).toBeNull();
  }
  for (const path of ['/sign-in', '/my-garage', `/cars/${car}/checkout`, '/api/auth']) expect(await opener(path), path).toBe('same-origin');
});
