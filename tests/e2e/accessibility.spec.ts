import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { DEMO_SLUGS, expect, siteUrl, test } from './support';

/**
 * Accessibility (issue 18 item 4): axe-core over every page type of every demo tenant, failing on
 * any WCAG 2.0 / 2.1 / 2.2 A or AA violation. The URLs come from the site itself: its navigation,
 * its search results, the car page's actions and the contact page's location links, so a route a
 * tenant links cannot escape.
 *
 * One test per tenant walks its pages in one browser page, reading the next URLs off the pages it
 * checks: a test per page spent most of its time on its own browser context and on finding its
 * URL again (120 tests, a third of the e2e run). Every page is a soft check and a step of its own,
 * so a failure names the page and the other pages are still checked.
 */

test.describe.configure({ mode: 'parallel' });
// The violation list says what failed and where; a trace of 15 page loads would only slow the run.
test.use({ trace: 'off' });

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * The lead-form pages: the car page's actions, then the header's own form pages. Every site serves
 * the `unlinked` path of a form page even where its navigation does not link it, so it is checked there.
 */
const FORM_PAGES = [
  { name: 'enquiry', from: 'car', action: 'enquire' },
  { name: 'test drive', from: 'car', action: 'testDrive' },
  { name: 'request photos', from: 'car', action: 'requestPhotos' },
  // Offered on the car page for some cars only; the page also serves without a car.
  { name: 'car trade-in', from: 'car', action: 'tradeIn', unlinked: '/cars/trade-in' },
  { name: 'finance', from: 'nav', path: /^\/finance$/, unlinked: '/finance' },
  { name: 'sell your car', from: 'nav', path: /^\/(trade-in|sell-my-car|valuations)$/, unlinked: '/sell-my-car' },
  { name: 'service', from: 'nav', path: /^\/service$/, unlinked: '/service' },
  { name: 'careers', from: 'nav', path: /^\/careers$/, unlinked: '/careers' },
] as const;

/** Same-site paths (with query) of the links matching `selector`, in document order. */
async function paths(page: Page, selector: string): Promise<string[]> {
  const hrefs = await page.locator(selector).evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  const origin = new URL(page.url()).origin;
  return hrefs
    .map((href) => new URL(href))
    .filter((url) => url.origin === origin)
    .map((url) => `${url.pathname}${url.search}`);
}

/** The first path in the site's sitemap (index and parts) matching `pattern`. */
async function sitemapPath(page: Page, slug: string, pattern: RegExp): Promise<string | undefined> {
  const locs = async (path: string) => {
    const xml = await (await page.request.get(siteUrl(slug, path))).text();
    return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  };
  for (const path of await locs('/sitemap.xml')) {
    if (pattern.test(path)) return path;
    if (path.endsWith('.xml')) {
      const match = (await locs(path)).find((p) => pattern.test(p));
      if (match) return match;
    }
  }
  return undefined;
}

/**
 * Opens the page and runs axe on it, as a step named after the page type. Soft: a violation is
 * reported with one readable line per rule and element, and the walk goes on. Answers whether the
 * page loaded, so the caller can read links off it.
 */
async function check(page: Page, slug: string, type: string, path: string | undefined): Promise<boolean> {
  return test.step(`${type}: ${path ?? '(not found)'}`, async () => {
    expect.soft(path, `${slug}: a ${type} page`).toBeTruthy();
    if (!path) return false;
    // goto waits for the load event, after the page's scripts: client components (dialogs, filters,
    // the navigation enhancer) have run. Not networkidle: thumbnails requested after load (resized
    // on first request) kept a car page busy past the test timeout on a loaded machine.
    const response = await page.goto(siteUrl(slug, path));
    expect.soft(response?.status(), `${slug}${path}`).toBe(200);
    if (response?.status() !== 200) return false;
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    const report = violations.flatMap((v) =>
      v.nodes.map((node) => `  ${v.id} (${v.impact}) ${node.target.join(' ')}\n    ${node.failureSummary?.replace(/\n\s*/g, ' ') ?? v.help}`),
    );
    expect.soft(report, `axe violations on ${slug}${path} (${type}):\n${report.join('\n')}`).toEqual([]);
    return true;
  });
}

for (const slug of DEMO_SLUGS) {
  test(`accessibility of ${slug}: home, search, car, contact, location, content, success and every form page`, async ({ page }) => {
    test.setTimeout(300_000);

    await check(page, slug, 'home', '/');
    const nav = [...new Set(await paths(page, 'header a[href], footer a[href]'))];

    let car: string | undefined;
    if (await check(page, slug, 'search', nav.find((p) => p.startsWith('/search/')))) {
      [car] = await paths(page, 'main a.car-card-link');
    }

    const carActions: Record<string, string | undefined> = {};
    if (await check(page, slug, 'car', car)) {
      for (const form of FORM_PAGES) {
        if (form.from === 'car') [carActions[form.action]] = await paths(page, `main a[data-action="${form.action}"]`);
      }
    }

    let location: string | undefined;
    if (await check(page, slug, 'contact', nav.find((p) => p === '/contact'))) {
      // A dealer with one location shows it on the contact page without a link; its page is in the sitemap.
      [location = await sitemapPath(page, slug, /^\/our-locations\//)] = await paths(page, 'main a[href^="/our-locations/"]');
    }
    await check(page, slug, 'location', location);
    await check(page, slug, 'content', nav.find((p) => /^(\/pages)?\/about-us$/.test(p)));
    // Where every lead form lands (form-rules/flow.ts successPath); the page depends on the category only.
    await check(page, slug, 'success', '/success?category=used-vehicle-enquiry');

    for (const form of FORM_PAGES) {
      const linked = form.from === 'car' ? carActions[form.action] : nav.find((p) => form.path.test(p));
      await check(page, slug, `form: ${form.name}`, linked ?? ('unlinked' in form ? form.unlinked : undefined));
    }
  });
}
