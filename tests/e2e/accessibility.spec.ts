import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_SLUGS, siteUrl } from './support';

/**
 * Accessibility (issue 18 item 4): axe-core over every page type of every demo tenant, failing on
 * any WCAG 2.0 / 2.1 / 2.2 A or AA violation. The URLs come from the site itself: its navigation,
 * its search results, the car page's actions and the contact page's location links, so a route a
 * tenant does not link is not tested and a route it does link cannot escape.
 */

test.describe.configure({ mode: 'parallel' });
// The violation list says what failed and where; traces of 120 page loads would only slow the run.
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

type Discovered = {
  search: string;
  car: string;
  contact: string;
  location: string;
  content: string;
  forms: Record<string, string | null>;
};

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

const found = new Map<string, Promise<Discovered>>();

/** Reads one tenant's routes off its pages; once per tenant and worker. */
function discover(browser: Browser, slug: string): Promise<Discovered> {
  if (!found.has(slug)) found.set(slug, discoverRoutes(browser, slug));
  return found.get(slug)!;
}

async function discoverRoutes(browser: Browser, slug: string): Promise<Discovered> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(siteUrl(slug, '/'));
    const nav = [...new Set(await paths(page, 'header a[href], footer a[href]'))];
    const search = nav.find((p) => p.startsWith('/search/'));
    const contact = nav.find((p) => p === '/contact');
    const content = nav.find((p) => /^(\/pages)?\/about-us$/.test(p));
    expect(search, `${slug}: a search link in the navigation`).toBeTruthy();
    expect(contact, `${slug}: a contact link in the navigation`).toBeTruthy();
    expect(content, `${slug}: an about-us content link in the navigation`).toBeTruthy();

    await page.goto(siteUrl(slug, search!));
    const [car] = await paths(page, 'main a.car-card-link');
    expect(car, `${slug}: a car in the search results`).toBeTruthy();

    await page.goto(siteUrl(slug, car));
    const forms: Record<string, string | null> = {};
    for (const form of FORM_PAGES) {
      if (form.from === 'car') {
        const [href] = await paths(page, `main a[data-action="${form.action}"]`);
        forms[form.name] = href ?? null;
      } else {
        forms[form.name] = nav.find((p) => form.path.test(p)) ?? null;
      }
    }

    await page.goto(siteUrl(slug, contact!));
    // A dealer with one location shows it on the contact page without a link; its page is in the sitemap.
    const [location = await sitemapPath(page, slug, /^\/our-locations\//)] = await paths(page, 'main a[href^="/our-locations/"]');
    expect(location, `${slug}: a location page linked from the contact page or in the sitemap`).toBeTruthy();

    return { search: search!, car, contact: contact!, location: location!, content: content!, forms };
  } finally {
    await context.close();
  }
}

/** Runs axe on the page and fails with one readable line per violation and element. */
async function expectNoViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const report = violations.flatMap((v) =>
    v.nodes.map((node) => `  ${v.id} (${v.impact}) ${node.target.join(' ')}\n    ${node.failureSummary?.replace(/\n\s*/g, ' ') ?? v.help}`),
  );
  expect(report, `axe violations on ${what}:\n${report.join('\n')}`).toEqual([]);
}

async function check(page: Page, slug: string, path: string) {
  const response = await page.goto(siteUrl(slug, path));
  expect(response?.status(), `${slug}${path}`).toBe(200);
  // goto waits for the load event, after the page's scripts: client components (dialogs, filters,
  // the navigation enhancer) have run. Not networkidle: thumbnails requested after load (resized
  // on first request) kept a car page busy past the test timeout on a loaded machine.
  await expectNoViolations(page, `${slug}${path}`);
}

for (const slug of DEMO_SLUGS) {
  test.describe(`accessibility of ${slug}`, () => {
    test('home', async ({ page }) => {
      await check(page, slug, '/');
    });

    test('search', async ({ page, browser }) => {
      await check(page, slug, (await discover(browser, slug)).search);
    });

    test('car', async ({ page, browser }) => {
      await check(page, slug, (await discover(browser, slug)).car);
    });

    test('contact', async ({ page, browser }) => {
      await check(page, slug, (await discover(browser, slug)).contact);
    });

    test('location', async ({ page, browser }) => {
      await check(page, slug, (await discover(browser, slug)).location);
    });

    test('content', async ({ page, browser }) => {
      await check(page, slug, (await discover(browser, slug)).content);
    });

    test('success', async ({ page }) => {
      // Where every lead form lands (leads.forms.ts successPath); the page depends on the category only.
      await check(page, slug, '/success?category=used-vehicle-enquiry');
    });

    for (const form of FORM_PAGES) {
      test(`form: ${form.name}`, async ({ page, browser }) => {
        const path = (await discover(browser, slug)).forms[form.name] ?? ('unlinked' in form ? form.unlinked : null);
        expect(path, `${slug}: a ${form.name} page`).toBeTruthy();
        await check(page, slug, path!);
      });
    }
  });
}
