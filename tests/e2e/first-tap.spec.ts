import { test, expect, type Browser, type Page } from '@playwright/test';
import { codeFromOutbox, hydrated, serverUrl, siteUrl } from './support';

/**
 * The first-tap contract (decision 060, issue 32): every control works before, during and after
 * hydration. Each journey runs three ways and must reach the same result:
 * - 'no JavaScript': the browser runs no script at all;
 * - 'before the scripts': the visitor acts at DOMContentLoaded while every framework chunk is held
 *   back 3 s (what a quick visitor on a slow phone meets);
 * - 'hydrated': after React has taken the page over.
 * Uses Playwright's own page.goto (not support.ts's, which waits for hydration).
 */

// Each test opens a context of its own: both workers may take them (the file is the longest of the run, 11 minutes in one worker).
test.describe.configure({ mode: 'parallel' });

type Mode = 'no JavaScript' | 'before the scripts' | 'hydrated';
const MODES: readonly Mode[] = ['no JavaScript', 'before the scripts', 'hydrated'];
const CHUNK_DELAY_MS = 3000;

const SEARCH_SITES = [
  { slug: 'harbour-city-motors', path: '/search/new-used-and-demo-cars' },
  { slug: 'kiwi-motors', path: '/search/used-cars' },
  { slug: 'lone-star-auto', path: '/search/used-cars' },
] as const;

async function openPage(browser: Browser, mode: Mode, viewport = { width: 1280, height: 900 }, extraHTTPHeaders?: Record<string, string>): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: mode !== 'no JavaScript', viewport, extraHTTPHeaders });
  const page = await context.newPage();
  if (mode === 'before the scripts') {
    await page.route('**/_next/static/chunks/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, CHUNK_DELAY_MS));
      await route.continue().catch(() => {});
    });
  }
  return page;
}

/** Opens a page and waits as far as the mode says: the parsed document, or the hydrated page. */
async function open(page: Page, mode: Mode, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  if (mode === 'hydrated') await hydrated(page);
}

const isHydrated = (page: Page) => page.evaluate(() => Object.keys(document.body).some((key) => key.startsWith('__reactFiber')));

/** After the mode's action: the page is hydrated where it has JavaScript (so a reset would have happened). */
async function settle(page: Page, mode: Mode): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  if (mode !== 'no JavaScript') await hydrated(page);
}

const filterForm = (page: Page) => page.locator('#search-filters');
const resultCount = async (page: Page) => Number(((await page.getByTestId('result-count').textContent()) ?? '').replace(/\D/g, ''));

/** The first make in the sidebar with its count (the number beside it). */
async function firstMake(page: Page): Promise<{ value: string; count: number }> {
  const option = filterForm(page).locator('input[type="checkbox"][name="make"]').first();
  const value = (await option.getAttribute('value'))!;
  const count = Number(((await option.locator('xpath=..').locator('.facet-count span[aria-hidden="true"]').textContent()) ?? '').replace(/\D/g, ''));
  return { value, count };
}

for (const site of SEARCH_SITES) {
  for (const mode of MODES) {
    test.describe(`${site.slug}, ${mode}`, () => {
      test('a make ticked in the filters shows that make only, and the URL says so', async ({ browser }) => {
        const page = await openPage(browser, mode);
        await open(page, mode, siteUrl(site.slug, site.path));
        const before = await resultCount(page);
        const make = await firstMake(page);
        expect(make.count).toBeGreaterThan(0);
        expect(make.count).toBeLessThan(before);
        if (mode === 'before the scripts') expect(await isHydrated(page)).toBe(false);
        await filterForm(page).locator(`input[type="checkbox"][name="make"][value=${JSON.stringify(make.value)}]`).check();
        if (mode === 'no JavaScript') await filterForm(page).getByRole('button', { name: 'Apply filters' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.getAll('make')).toEqual([make.value]);
        await expect.poll(() => resultCount(page)).toBe(make.count);
        await settle(page, mode);
        // The page the URL describes, after hydration too: the box ticked beside that make's cars.
        await expect(filterForm(page).locator(`input[name="make"][value=${JSON.stringify(make.value)}]`)).toBeChecked();
        expect(await resultCount(page)).toBe(make.count);
        await page.context().close();
      });

      test('a sort chosen applies, and the URL says so', async ({ browser }) => {
        const page = await openPage(browser, mode);
        await open(page, mode, siteUrl(site.slug, site.path));
        const sort = page.locator('#search-sort');
        const current = await sort.inputValue();
        const options = await sort.locator('option').evaluateAll((all) => all.map((option) => (option as HTMLOptionElement).value));
        const other = options.find((value) => value !== current)!;
        await sort.selectOption(other);
        if (mode === 'no JavaScript') await filterForm(page).getByRole('button', { name: 'Apply filters' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe(other);
        await settle(page, mode);
        await expect(page.locator('#search-sort')).toHaveValue(other);
        await page.context().close();
      });

      test('the next page of results opens', async ({ browser }) => {
        const page = await openPage(browser, mode);
        await open(page, mode, siteUrl(site.slug, site.path));
        const first = await page.locator('section[aria-labelledby="search-results-heading"] a[href*="/"] h3, section[aria-labelledby="search-results-heading"] article h3').first().textContent();
        await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: /^Next/ }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
        await settle(page, mode);
        await expect(page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-current="page"]')).toHaveText(/2/);
        const second = await page.locator('section[aria-labelledby="search-results-heading"] a[href*="/"] h3, section[aria-labelledby="search-results-heading"] article h3').first().textContent();
        expect(second).not.toBe(first);
        await page.context().close();
      });
    });
  }
}

/** Text typed into a form's first field before hydration is still there once React has the page, and after React renders the form again. */
async function typedTextSurvives(page: Page, mode: Mode, field: ReturnType<Page['getByLabel']>, other: ReturnType<Page['getByLabel']>) {
  if (mode === 'before the scripts') expect(await isHydrated(page)).toBe(false);
  await field.pressSequentially('Jo', { delay: 20 });
  await settle(page, mode);
  await expect(field).toHaveValue('Jo');
  // Another field typed after hydration renders the form again: the first keeps what was typed.
  await other.pressSequentially('Citizen', { delay: 10 });
  await expect(field).toHaveValue('Jo');
  await expect(other).toHaveValue('Citizen');
}

for (const slug of ['harbour-city-motors', 'kiwi-motors', 'lone-star-auto']) {
  for (const mode of MODES.filter((m) => m !== 'no JavaScript')) {
    test(`${slug}, ${mode}: what a visitor types into the contact form survives hydration`, async ({ browser }) => {
      const page = await openPage(browser, mode);
      await open(page, mode, siteUrl(slug, '/contact'));
      const form = page.locator('#contact-form form');
      await typedTextSurvives(page, mode, form.getByLabel(/^First Name/), form.getByLabel(/^Last Name/));
      await page.context().close();
    });
  }
}

for (const mode of MODES.filter((m) => m !== 'no JavaScript')) {
  test(`harbour-city-motors, ${mode}: what a visitor types into the reservation form survives hydration`, async ({ browser }) => {
    const page = await openPage(browser, mode);
    // A car the checkout quote says can be reserved now (as checkout.spec.ts finds one).
    const host = { host: 'harbour-city-motors.localhost' };
    const search = await page.request.post(serverUrl('/api/search'), { headers: host, data: { filters: { dealership_name: ['Harbour City Mazda'] }, limit: 100 } });
    const hits = ((await search.json()).hits ?? []) as { id: number; slug: string; status: string; reserved: boolean }[];
    let opened = false;
    for (const hit of hits.filter((h) => h.status === 'in_stock' && !h.reserved)) {
      const quote = await page.request.get(serverUrl(`/api/checkout/quote?car_id=${hit.id}`), { headers: host });
      if (quote.status() !== 200 || !(await quote.json()).eligible) continue;
      await page.goto(siteUrl('harbour-city-motors', `/cars/${hit.slug}/checkout`), { waitUntil: 'domcontentloaded' });
      opened = true;
      break;
    }
    expect(opened, 'a reservable car').toBe(true);
    if (mode === 'hydrated') await hydrated(page);
    await typedTextSurvives(page, mode, page.getByLabel('First Name'), page.getByLabel('Email'));
    await page.context().close();
  });
}

// A new mobile number for each lead: a phone may send 10 leads a day to one website (LEAD_LIMIT_PER_PHONE).
let leadNumber = 0;
const CONTACT_DETAILS: Record<string, { phone: () => string; postcode: string }> = {
  'harbour-city-motors': { phone: () => `0413 6${String(leadNumber).padStart(2, '0')} 1${String(leadNumber).padStart(2, '0')}`, postcode: '2000' },
  'kiwi-motors': { phone: () => `021 6${String(leadNumber).padStart(2, '0')} 41${String(leadNumber).padStart(2, '0')}`, postcode: '1010' },
  'lone-star-auto': { phone: () => `(512) 555-01${String(leadNumber).padStart(2, '0')}`, postcode: '78701' },
};

/** Fills the contact form as a visitor would: their details, a message, and the first choice of every select. */
async function fillContactForm(form: ReturnType<Page['locator']>, slug: string, firstName: string) {
  leadNumber += 1;
  const { postcode } = CONTACT_DETAILS[slug]!;
  const phone = CONTACT_DETAILS[slug]!.phone();
  await form.getByLabel(/^First Name/).fill(firstName);
  await form.getByLabel(/^Last Name/).fill('Citizen');
  await form.getByLabel(/^Email/).fill(`first.tap.${slug}.${Date.now()}@example.com`);
  await form.getByLabel(/^Phone/).fill(phone);
  await form.getByLabel(/^(Postcode|ZIP code)/).fill(postcode);
  for (const select of await form.locator('select').all()) {
    const value = await select.evaluate((element) => [...(element as HTMLSelectElement).options].find((option) => option.value)?.value ?? '');
    await select.selectOption(value);
  }
  await form.locator('textarea').first().fill('Are you open on Saturday?');
}

for (const slug of ['harbour-city-motors', 'kiwi-motors', 'lone-star-auto']) {
  for (const mode of MODES) {
    test(`${slug}, ${mode}: the contact form sends and lands on the success page`, async ({ browser }) => {
      const page = await openPage(browser, mode);
      await open(page, mode, siteUrl(slug, '/contact'));
      const form = page.locator('#contact-form form');
      await fillContactForm(form, slug, 'Jo');
      await form.getByRole('button', { name: /Enquire Now|Inquire Now|Message Now|Submit/ }).click();
      await page.waitForURL(/\/success\?category=general-enquiry/);
      await page.context().close();
    });
  }

  test(`${slug}, no JavaScript: a refused contact form comes back with what was typed and each message, then sends`, async ({ browser }) => {
    const page = await openPage(browser, 'no JavaScript');
    await open(page, 'no JavaScript', siteUrl(slug, '/contact'));
    let form = page.locator('#contact-form form');
    await fillContactForm(form, slug, 'Jo9');
    await form.getByRole('button', { name: /Enquire Now|Inquire Now|Message Now|Submit/ }).click();
    await page.waitForURL((url) => url.pathname === '/contact' && url.hash === '#form-errors');
    form = page.locator('#contact-form form');
    await expect(form.getByLabel(/^First Name/)).toHaveValue('Jo9');
    await expect(form.getByLabel(/^Last Name/)).toHaveValue('Citizen');
    await expect(form.locator('textarea').first()).toHaveValue('Are you open on Saturday?');
    await expect(form).toContainText('Please use alphabetical characters only.');
    await expect(form.locator('#form-errors')).toContainText('Please check the highlighted fields.');
    await form.getByLabel(/^First Name/).fill('Jo');
    await form.getByRole('button', { name: /Enquire Now|Inquire Now|Message Now|Submit/ }).click();
    await page.waitForURL(/\/success\?category=general-enquiry/);
    await page.context().close();
  });
}

/** A car of the website for sale now (in stock, not reserved), from the search API. */
async function carForSale(page: Page, slug: string): Promise<{ slug: string; path: string }> {
  const response = await page.request.post(serverUrl('/api/search'), { headers: { host: `${slug}.localhost` }, data: { limit: 40 } });
  const hits = ((await response.json()).hits ?? []) as { slug: string; status: string; reserved: boolean; url?: string }[];
  const hit = hits.find((h) => h.status === 'in_stock' && !h.reserved)!;
  expect(hit, `a car for sale on ${slug}`).toBeTruthy();
  return { slug: hit.slug, path: hit.url ? new URL(hit.url, 'http://x').pathname : `/cars/${hit.slug}` };
}

for (const slug of ['harbour-city-motors', 'kiwi-motors', 'lone-star-auto']) {
  for (const mode of MODES) {
    test(`${slug}, ${mode}: a car's enquiry opens from its page, keeps what was typed and sends`, async ({ browser }) => {
      const page = await openPage(browser, mode);
      const car = await carForSale(page, slug);
      await open(page, mode, siteUrl(slug, car.path));
      await page.getByRole('list', { name: 'Actions' }).getByRole('link', { name: /^(Enquire|Inquire) Now/ }).first().click();
      // Before hydration the link opens the form's own page; after it, the dialog.
      const form = page.locator('[role="dialog"] form, main form[action="/api/leads/form"]').first();
      await expect(form).toBeVisible();
      await form.getByLabel(/^First Name/).pressSequentially('Jo', { delay: 20 });
      await settle(page, mode);
      await expect(form.getByLabel(/^First Name/)).toHaveValue('Jo');
      await fillContactForm(form, slug, 'Jo');
      await form.getByRole('button', { name: /Enquire Now|Inquire Now|Message Now|Send|Submit/ }).click();
      await page.waitForURL(/\/success\?category=(new|used|demo)-vehicle-enquiry/);
      await page.context().close();
    });
  }
}

for (const mode of MODES) {
  test(`harbour-city-motors, ${mode}: Get Finance on a car page reaches the finance form for that car`, async ({ browser }) => {
    const page = await openPage(browser, mode);
    const car = await carForSale(page, 'harbour-city-motors');
    await open(page, mode, siteUrl('harbour-city-motors', car.path));
    const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    await page.getByRole('list', { name: 'Actions' }).getByRole('link', { name: 'Get Finance' }).click();
    // Hydrated: the popup's first step. Before that (or without scripts): the finance page of the car.
    const popup = page.getByRole('dialog');
    await expect(popup.getByRole('heading', { name: 'Quick Estimate' }).or(page.getByRole('complementary', { name: 'Your car' }))).toBeVisible();
    if (await popup.count()) await expect(popup).toContainText(name);
    else {
      expect(new URL(page.url()).pathname).toBe('/finance');
      await expect(page.getByRole('complementary', { name: 'Your car' })).toContainText(name);
    }
    await page.context().close();
  });
}

/**
 * Phone sign-in: the phone typed and 'Send Code' tapped before the scripts ran posts the plain form
 * (POST /api/auth/sign-in/form), which sends the code and brings back the code step; the code
 * typed there signs in and goes on to the garage. Each test is a visitor of its own address (the
 * e2e server trusts one proxy hop): a code costs money and its limits count per address.
 */
const SIGN_IN_SITES = [
  { slug: 'harbour-city-motors', garage: '/my-garage', phone: (n: number) => `0412 66${n} 30${n}`, e164: (n: number) => `+6141266${n}30${n}` },
  { slug: 'kiwi-motors', garage: '/mykiwi/saved', phone: (n: number) => `021 66${n} 30${n}`, e164: (n: number) => `+642166${n}30${n}` },
] as const;

/**
 * The garage signed out: the server sees no session cookie and puts the sign-in prompt in the page,
 * so 'Sign in' is there to tap before the scripts run (it said only 'Loading your garage…' until
 * they had), and hydration keeps it.
 */
for (const site of SIGN_IN_SITES) {
  for (const mode of MODES) {
    test(`${site.slug}, ${mode}: the garage signed out offers sign-in at once, with the way back to the garage`, async ({ browser }) => {
      const page = await openPage(browser, mode, { width: 375, height: 800 });
      await open(page, mode, siteUrl(site.slug, site.garage));
      if (mode === 'before the scripts') expect(await isHydrated(page)).toBe(false);
      await expect(page.getByText('Loading your garage…')).toHaveCount(0);
      await page.getByRole('link', { name: 'Sign in', exact: true }).last().click();
      // 'commit': the sign-in page's own scripts are held back too in 'before the scripts'.
      await page.waitForURL((url) => url.pathname === '/sign-in', { waitUntil: 'commit' });
      expect(new URL(page.url()).searchParams.get('next')).toBe(site.garage);
      await page.context().close();
    });
  }
}

for (const [siteIndex, site] of SIGN_IN_SITES.entries()) {
  for (const [modeIndex, mode] of MODES.entries()) {
    test(`${site.slug}, ${mode}: phone sign-in sends the code and signs in to the garage`, async ({ browser }) => {
      // Three page loads, each with its scripts held back 3 s before the scripts (57 s seen on a loaded machine).
      test.setTimeout(120_000);
      const n = modeIndex + 1;
      const page = await openPage(browser, mode, undefined, { 'x-forwarded-for': `198.51.100.${10 + siteIndex * 3 + n}` });
      await open(page, mode, siteUrl(site.slug, `/sign-in?next=${site.garage}`));
      if (mode === 'before the scripts') expect(await isHydrated(page)).toBe(false);
      await page.getByLabel('Mobile number').fill(site.phone(n));
      await page.getByRole('button', { name: 'Send Code' }).click();
      await expect(page.getByText('Code sent!')).toBeVisible();
      await expect(page.getByLabel('Mobile number')).toHaveValue(site.phone(n));
      if (mode === 'before the scripts') expect(await isHydrated(page)).toBe(false);
      // The demo outbox shows itself to this machine's own address only: read from a context without the forwarded one.
      const local = await browser.newContext();
      const code = await codeFromOutbox(local, site.slug, site.e164(n));
      await local.close();
      await page.getByLabel('Verification code').fill(code);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === site.garage);
      expect((await page.context().cookies()).map((c) => c.name)).toContain('dp_access');
      if (mode !== 'no JavaScript') {
        await hydrated(page);
        const me = await page.evaluate(async () => (await (await fetch('/api/auth')).json()) as { user: { phone: string } | null });
        expect(me.user?.phone).toBe(site.e164(n));
      }
      await page.context().close();
    });
  }
}
