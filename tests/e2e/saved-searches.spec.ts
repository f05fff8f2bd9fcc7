import type { Browser, BrowserContext, Page } from '@playwright/test';
import { codeFromOutbox, expect, hydrated, siteUrl, test } from './support';

/**
 * Issue 35, item 1, as a visitor: 'Save this search' on a search page, signed out (sign-in and
 * back), hydrated, and tapped before the page's scripts run (its form posts); the garage lists the
 * saved searches to rename, pause and delete.
 */

const SITE = 'harbour-city-motors';
const PHONE = '0412 777 042';
const E164 = '+61412777042';
const SEARCH = '/search/used-cars?make=Mazda';

const saveButton = (page: Page) => page.getByRole('button', { name: 'Save this search' });

test('a visitor saves a search, signing in on the way, and keeps it in the garage: renamed, paused, deleted', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.goto(siteUrl(SITE, SEARCH));
  await saveButton(page).click();
  await page.waitForURL(/\/sign-in\?next=/);
  await page.getByLabel('Mobile number').fill(PHONE);
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByText('Code sent!')).toBeVisible();
  await page.getByLabel('Verification code').fill(await codeFromOutbox(page.context(), SITE, E164));
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back on the search it came from, where the tap now saves in place.
  await page.waitForURL((url) => url.pathname === '/search/used-cars' && url.searchParams.get('make') === 'Mazda');
  await hydrated(page);
  await saveButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved “Mazda”.' })).toBeVisible();
  const count = Number((await page.getByTestId('result-count').innerText()).replace(/\D/g, ''));

  await page.goto(siteUrl(SITE, '/my-garage'));
  const saved = page.getByRole('region', { name: 'Saved searches' });
  await expect(saved.getByRole('link', { name: 'Mazda' })).toHaveAttribute('href', '/search/used-cars?make=Mazda');
  await expect(saved.getByText(`${count} cars now`)).toBeVisible();

  // Saved before the page's scripts ran: the form posts, and the garage lists it.
  await saveBeforeScripts(browser, page.context(), '/search/used-cars?simple_body=SUV');
  await page.reload();
  await hydrated(page);
  await expect(saved.getByRole('link')).toHaveText(['Mazda', 'SUV']);

  await saved.getByRole('button', { name: 'Rename Mazda' }).click();
  await saved.getByLabel('Name of the saved search').fill('My Mazdas');
  await saved.getByRole('button', { name: 'Save name' }).click();
  await expect(saved.getByRole('link', { name: 'My Mazdas' })).toBeVisible();
  await saved.getByRole('button', { name: 'Pause My Mazdas' }).click();
  await expect(saved.getByText(`${count} cars now · Paused`)).toBeVisible();
  await saved.getByRole('button', { name: 'Delete SUV' }).click();
  await expect(saved.getByRole('link')).toHaveText(['My Mazdas']);

  await page.reload();
  await hydrated(page);
  await expect(saved.getByRole('link')).toHaveText(['My Mazdas']);
  await expect(saved.getByRole('button', { name: 'Resume My Mazdas' })).toBeVisible();

  // Two saved cars compared from the garage (issue 35, item 4), in the garage's order: newest first.
  await page.goto(siteUrl(SITE, SEARCH));
  const hearts = page.getByRole('button', { name: /^Save .* to your garage$/ });
  const names: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const heart = hearts.first();
    const name = ((await heart.getAttribute('aria-label')) ?? '').replace(/^Save (.*) to your garage$/, '$1');
    names.push(name);
    await heart.click();
    await expect(page.getByRole('button', { name: `Remove ${name} from your garage` }).first()).toHaveAttribute('aria-pressed', 'true');
  }
  await page.goto(siteUrl(SITE, '/my-garage'));
  for (const name of names) await page.getByLabel(`Compare ${name}`).check();
  await page.getByRole('button', { name: 'Compare selected' }).click();
  await page.waitForURL((url) => url.pathname === '/compare');
  await expect(page.getByRole('columnheader')).toHaveText([...names].reverse().map((name) => new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))));
});

/** In a page of the signed-in visitor whose scripts are held back, the tap posts the form. */
async function saveBeforeScripts(browser: Browser, signedIn: BrowserContext, path: string) {
  const context = await browser.newContext({ storageState: await signedIn.storageState(), viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await page.route('**/_next/static/chunks/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await page.goto(siteUrl(SITE, path), { waitUntil: 'domcontentloaded' });
  await saveButton(page).click();
  await page.waitForURL((url) => url.pathname === '/my-garage' && url.hash === '#saved-searches');
  await context.close();
}
