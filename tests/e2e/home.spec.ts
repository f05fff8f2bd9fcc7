import { DEMO_SLUGS, expect, photograph, serverUrl, siteUrl, test } from './support';

const WIDTHS = [375, 1280] as const;

for (const slug of DEMO_SLUGS) {
  test.describe(`${slug} home page`, () => {
    for (const width of WIDTHS) {
      test(`renders as its own dealer at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        const response = await page.goto(siteUrl(slug));
        expect(response?.status()).toBe(200);

        await expect(page.getByRole('banner')).toBeVisible();
        await expect(page.getByRole('main')).toBeVisible();
        await expect(page.getByRole('contentinfo')).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByRole('searchbox').or(page.getByRole('textbox', { name: /search/i })).first()).toBeVisible();

        // No element wider than the viewport (nothing scrolls sideways on a phone).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);

        // Scroll once through the page so lazy images load, then photograph it as a visitor sees it.
        await page.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += 500) {
            window.scrollTo(0, y);
            await new Promise((resolve) => setTimeout(resolve, 40));
          }
          window.scrollTo(0, 0);
        });
        await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete));
        await photograph(page, { path: `docs/screenshots/${slug}-${width}.png`, fullPage: true });

        // Skip link is the first thing a keyboard reaches, and it leads to the main content.
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: /skip to content/i });
        await expect(skip).toBeFocused();
        await skip.press('Enter');
        await expect(page.locator('#main')).toBeFocused();
      });
    }
  });
}

test('each dealer site is branded from its own configuration', async ({ page }) => {
  const seen = new Map<string, string>();
  for (const slug of DEMO_SLUGS) {
    await page.goto(siteUrl(slug));
    const brand = await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--site-primary').trim());
    const title = await page.title();
    expect(brand).toMatch(/^#[0-9a-f]{6}$/i);
    seen.set(slug, `${brand} ${title}`);
  }
  expect(new Set(seen.values()).size).toBe(DEMO_SLUGS.length);
});

test('an unknown host gets a plain 404 naming no dealer', async ({ request }) => {
  const response = await request.get(serverUrl('/'), { headers: { host: 'nobody.example' } });
  expect(response.status()).toBe(404);
  const html = await response.text();
  for (const slug of DEMO_SLUGS) expect(html).not.toContain(slug);
  expect(html).not.toMatch(/Harbour City|Kiwi Motors|Lone Star/);
});

test('the same site answers curl-style with a Host header', async ({ request }) => {
  const response = await request.get(serverUrl('/'), { headers: { host: 'kiwi-motors.localhost' } });
  expect(response.status()).toBe(200);
  expect(await response.text()).toContain('lang="en-NZ"');
});

test('plain localhost lists the demo sites in demo mode', async ({ page }) => {
  await page.goto(`http://localhost:${new URL(serverUrl()).port}/`);
  for (const slug of DEMO_SLUGS) {
    await expect(page.locator(`a[href*="${slug}.localhost"]`).first()).toBeVisible();
  }
});
