import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import { validateSitemap } from '../support/sitemap-schema';
import { DEMO_SLUGS, expect, photograph, serverUrl, siteUrl, test } from './support';

/**
 * Content pages and crawlability: sitemap.xml and robots.txt per host, the canonical URL of every
 * page a sitemap lists, a content page, the FAQ accordion by keyboard and without JavaScript, the
 * /pages rules, and the dealer's 404 page.
 */

const WIDTHS = [375, 1280] as const;

/** A request to a demo site as curl sends it: to 127.0.0.1 with the site's host (Node cannot resolve *.localhost). */
function get(request: APIRequestContext, slug: string, path: string, options: { maxRedirects?: number } = {}): Promise<APIResponse> {
  return request.get(serverUrl(path), { headers: { host: `${slug}.localhost` }, ...options });
}

async function sitemapOf(request: APIRequestContext, slug: string) {
  const response = await get(request, slug, '/sitemap.xml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/xml; charset=utf-8');
  const xml = await response.text();
  return { xml, ...validateSitemap(xml) };
}

/** The status and canonical URL of a page the sitemap lists on the dealer's own domain, asked of the local server. */
async function canonicalOf(request: APIRequestContext, slug: string, loc: string): Promise<{ status: number; canonical: string | null }> {
  const url = new URL(loc);
  const response = await get(request, slug, `${url.pathname}${url.search}`, { maxRedirects: 0 });
  const html = await response.text();
  const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1] ?? null;
  return { status: response.status(), canonical: canonical?.replace(/&amp;/g, '&') ?? null };
}

async function photographPage(page: Page, name: string, width: number) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  await photograph(page, { path: `docs/screenshots/content-${name}-${width}.png`, fullPage: true });
}

test.describe('sitemap.xml and robots.txt', () => {
  test('every demo host serves its own robots.txt and a valid sitemap of its own URLs only', async ({ page, request }) => {
    for (const slug of DEMO_SLUGS) {
      const robots = await get(request, slug, '/robots.txt');
      expect(robots.status()).toBe(200);
      expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8');
      const text = await robots.text();
      expect(text).toContain('User-agent: *');
      expect(text).toContain(`Sitemap: https://${slug}.example/sitemap.xml`);

      const { xml, kind, locs, errors } = await sitemapOf(request, slug);
      expect(errors, slug).toEqual([]);
      expect(kind).toBe('urlset');
      // The browser's own XML parser agrees that it is well-formed.
      const parsed = await page.evaluate((source) => {
        const doc = new DOMParser().parseFromString(source, 'application/xml');
        return { error: doc.getElementsByTagName('parsererror').length > 0, urls: doc.getElementsByTagName('url').length };
      }, xml);
      expect(parsed).toEqual({ error: false, urls: locs.length });
      expect(locs.length).toBeGreaterThan(20);
      for (const loc of locs) expect(new URL(loc).origin, loc).toBe(`https://${slug}.example`);
      for (const other of DEMO_SLUGS) if (other !== slug) expect(xml).not.toContain(other);
    }
  });

  test('an unknown host has neither', async ({ request }) => {
    for (const path of ['/sitemap.xml', '/robots.txt', '/sitemaps/cars-1.xml']) {
      const response = await request.get(serverUrl(path), { headers: { host: 'nobody.example' } });
      expect(response.status(), path).toBe(404);
    }
  });

  for (const slug of ['harbour-city-motors', 'southern-cross-skoda'] as const) {
    test(`${slug}: the pages its sitemap lists answer 200 with that URL as their canonical`, async ({ request }) => {
      const { locs } = await sitemapOf(request, slug);
      const cars = locs.filter((loc) => new URL(loc).pathname.startsWith('/cars/'));
      const searches = locs.filter((loc) => new URL(loc).pathname.startsWith('/search/'));
      const others = locs.filter((loc) => !cars.includes(loc) && !searches.includes(loc));
      expect(cars.length).toBeGreaterThan(10);
      expect(others).toEqual(expect.arrayContaining([`https://${slug}.example/`, `https://${slug}.example/contact`]));
      const sample = [...others, ...searches.filter((_, i) => i % Math.ceil(searches.length / 8) === 0), ...cars.slice(0, 4), ...cars.slice(-2)];
      for (const loc of sample) {
        const { status, canonical } = await canonicalOf(request, slug, loc);
        expect(status, loc).toBe(200);
        // The home page's canonical is the bare origin, the same URL as origin + '/'.
        expect(canonical && new URL(canonical).href, loc).toBe(loc);
      }
    });
  }
});

test.describe('content pages', () => {
  for (const width of WIDTHS) {
    test(`an about-us page from the database at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(siteUrl('harbour-city-motors', '/about-us'));
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: 'About Harbour City Motors' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Why buy from us' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'contact page' })).toHaveAttribute('href', '/contact');
      await expect(page.getByRole('complementary')).toContainText('Talk to our team');
      await photographPage(page, 'about-us', width);
    });

    test(`the blog list and a post at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      expect((await page.goto(siteUrl('kiwi-motors', '/blog')))?.status()).toBe(200);
      const posts = page.getByRole('main').getByRole('article');
      await expect(posts).toHaveCount(3);
      await photographPage(page, 'blog', width);
      await posts.first().getByRole('link').click();
      await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
      await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'News' })).toBeVisible();
      await expect(page.locator('main time')).toBeVisible();
      await photographPage(page, 'blog-post', width);
    });
  }

  test('every page type the spec lists is served per website, with the /pages rules', async ({ request }) => {
    const fetchPage = (slug: string, path: string) => get(request, slug, path, { maxRedirects: 0 });
    // harbour-city-motors does not use a pages path: /pages/x redirects to /x.
    for (const path of ['/about-us', '/faq', '/mechanical-warranty', '/terms-and-conditions', '/privacy-policy', '/careers', '/current-positions', '/blog']) {
      expect((await fetchPage('harbour-city-motors', path)).status(), path).toBe(200);
    }
    for (const [from, to] of [['/pages/about-us', '/about-us'], ['/pages/faq', '/faq'], ['/terms-and-conditions/', '/terms-and-conditions'], ['/blog/', '/blog']]) {
      const response = await fetchPage('harbour-city-motors', from);
      expect([301, 308], from).toContain(response.status());
      expect(new URL(response.headers().location, 'http://x').pathname, from).toBe(to);
    }
    // southern-cross-skoda uses a pages path, except for privacy, terms and about-us pages.
    for (const path of ['/pages/faq', '/pages/mechanical-warranty', '/about-us', '/privacy-policy', '/terms-and-conditions', '/careers']) {
      expect((await fetchPage('southern-cross-skoda', path)).status(), path).toBe(200);
    }
    for (const [from, to] of [['/faq', '/pages/faq'], ['/pages/about-us', '/about-us'], ['/pages/privacy-policy', '/privacy-policy']]) {
      const response = await fetchPage('southern-cross-skoda', from);
      expect([301, 308], from).toContain(response.status());
      expect(new URL(response.headers().location, 'http://x').pathname, from).toBe(to);
    }
    // 'Selling your car' is a page of the dealer that has it, and of no other.
    expect((await fetchPage('gold-coast-used-cars', '/selling-your-car-with-titan')).status()).toBe(200);
    expect((await fetchPage('harbour-city-motors', '/selling-your-car-with-titan')).status()).toBe(404);
  });

  test('careers lists the current positions, each linking to its page', async ({ page }) => {
    expect((await page.goto(siteUrl('outback-trucks', '/careers')))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 2, name: 'Current positions' })).toBeVisible();
    const position = page.getByRole('main').getByRole('article').first().getByRole('link');
    await position.click();
    await expect(page.getByRole('heading', { level: 3, name: 'About the role' })).toBeVisible();
  });
});

test.describe('FAQ accordion', () => {
  for (const width of WIDTHS) {
    test(`opens and moves between questions with the keyboard at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      expect((await page.goto(siteUrl('harbour-city-motors', '/faq')))?.status()).toBe(200);
      const triggers = page.locator('main h3 > button[aria-expanded]');
      await expect(triggers.first()).toBeVisible(); // hydrated: the Radix accordion
      const count = await triggers.count();
      expect(count).toBeGreaterThanOrEqual(6);
      await expect(triggers.first()).toHaveAttribute('aria-expanded', 'false');

      // Tab reaches the first question; Enter opens it and shows its answer.
      await triggers.first().focus();
      await page.keyboard.press('Enter');
      await expect(triggers.first()).toHaveAttribute('aria-expanded', 'true');
      const answerId = await triggers.first().getAttribute('aria-controls');
      await expect(page.locator(`[id="${answerId}"]`)).toBeVisible();
      await expect(page.locator(`[id="${answerId}"]`)).toContainText('trade-in form');

      // Arrow keys move between questions; Space opens; End and Home jump.
      await page.keyboard.press('ArrowDown');
      await expect(triggers.nth(1)).toBeFocused();
      await page.keyboard.press('Space');
      await expect(triggers.nth(1)).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('End');
      await expect(triggers.nth(count - 1)).toBeFocused();
      await page.keyboard.press('Home');
      await expect(triggers.first()).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(triggers.first()).toHaveAttribute('aria-expanded', 'false');
      await photographPage(page, 'faq', width);
    });
  }

  test('works without JavaScript, every answer in the HTML', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(siteUrl('harbour-city-motors', '/faq'));
    const first = page.locator('main details').first();
    await expect(first).not.toHaveAttribute('open', '');
    await first.locator('summary').click();
    await expect(first).toHaveAttribute('open', '');
    await expect(first).toContainText('trade-in form');
    await context.close();
  });
});

test.describe('the dealer’s 404 page', () => {
  for (const width of WIDTHS) {
    test(`answers 404, noindex, inside the dealer’s site, with a way back at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(siteUrl('lone-star-auto', '/no-such-page'));
      expect(response?.status()).toBe(404);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expect(page).toHaveTitle(/Page not found \| Lone Star Auto/);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
      await photographPage(page, '404', width);

      // Its stock search works from there.
      const search = page.getByRole('main').getByRole('searchbox').or(page.getByRole('main').getByRole('textbox')).first();
      await search.fill('ford');
      await search.press('Enter');
      await expect(page).toHaveURL(/\/search\/[a-z-]+\?q=ford/);
    });
  }

  test('every kind of missing page is the same 404', async ({ request }) => {
    for (const path of ['/no-such-page', '/pages/no-such-page', '/blog/no-such-post', '/a/b/c', '/cars/no-such-car-123', '/our-locations/nowhere']) {
      const response = await get(request, 'harbour-city-motors', path);
      expect(response.status(), path).toBe(404);
      const html = await response.text();
      expect(html, path).toContain('Page not found');
      expect(html.match(/<meta name="robots"[^>]*>/g), path).toEqual(['<meta name="robots" content="noindex"/>']);
      expect(html, path).toContain('Harbour City Motors');
    }
    // Another dealer's page is not found here either.
    expect((await get(request, 'harbour-city-motors', '/selling-your-car-with-titan')).status()).toBe(404);
  });
});
