import type { Page } from '@playwright/test';
import { expect, siteUrl, test } from './support';

/** Issue 35, item 4: up to three cars side by side from a shareable URL, on an AU, the NZ and the US website. */

async function carSlugs(page: Page, site: string, count: number): Promise<string[]> {
  await page.goto(siteUrl(site, '/search/used-cars'));
  const hrefs = await page.locator('main a[href^="/cars/"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
  return [...new Set(hrefs)].slice(0, count).map((href) => href.slice('/cars/'.length));
}

for (const [site, odometer] of [
  ['harbour-city-motors', / km$/],
  ['kiwi-motors', / km$/],
  ['lone-star-auto', / mi$/],
] as const) {
  test(`${site}: three cars side by side, differences marked, readable at 375 px`, async ({ page }) => {
    const slugs = await carSlugs(page, site, 4);
    await page.setViewportSize({ width: 375, height: 800 });
    // A fourth car and a repeated one are left out: at most three, each once.
    await page.goto(siteUrl(site, `/compare?${[...slugs, slugs[0]].map((slug) => `car=${slug}`).join('&')}`));
    const table = page.getByRole('table');
    const headers = table.getByRole('columnheader');
    await expect(headers).toHaveCount(3);
    for (const [k, slug] of slugs.slice(0, 3).entries()) await expect(headers.nth(k).getByRole('link')).toHaveAttribute('href', `/cars/${slug}`);
    const odometerRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Odometer/ }) });
    for (const cell of await odometerRow.getByRole('cell').all()) await expect(cell).toHaveText(odometer);
    // Generated demo cars differ in year or odometer at least.
    expect(await table.locator('tr[data-differs]').count()).toBeGreaterThan(0);
    // The table scrolls inside its box; the page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
}

test('a compare URL naming nothing of this website shows no car, only the way to stock', async ({ page }) => {
  const [kiwiCar] = await carSlugs(page, 'kiwi-motors', 1);
  await page.goto(siteUrl('harbour-city-motors', `/compare?car=${kiwiCar}&car=%3Cscript%3E&car=..%2F..%2Fetc`));
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByText('No cars to compare.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'browse our stock' })).toHaveAttribute('href', '/search/new-used-and-demo-cars');
});
