import { test as base, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';

export { expect } from '@playwright/test';

/**
 * Waits until React has hydrated the page. Its scripts load only after the first photo has painted
 * (decision 035), so a click straight after the page loads would act as without JavaScript.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.querySelector('template[data-deferred-script]') || Object.keys(document.body).some((key) => key.startsWith('__reactFiber')),
  );
}

/** Playwright's test, whose page.goto also waits for hydration when JavaScript is on. */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      page.goto = async (...args: Parameters<Page['goto']>) => {
        const response = await goto(...args);
        await hydrated(page);
        return response;
      };
    }
    await provide(page);
  },
});

export const DEMO_SLUGS = [
  'harbour-city-motors',
  'southern-cross-skoda',
  'outback-trucks',
  'coastline-motorcycles',
  'wanderer-rv',
  'gold-coast-used-cars',
  'kiwi-motors',
  'lone-star-auto',
] as const;

/** The site of a demo dealer, reached the way a visitor in development does: {slug}.localhost. */
export function siteUrl(slug: string, path = '/'): string {
  return `http://${slug}.localhost:${E2E_PORT}${path}`;
}

export const serverUrl = (path = '/') => `http://127.0.0.1:${E2E_PORT}${path}`;

/** Basic auth of the Dashboard API key tests/e2e/run.mjs creates for harbour-city-mazda. */
export function dashboardAuth(): string {
  const id = process.env.E2E_API_KEY_ID;
  const secret = process.env.E2E_API_SECRET;
  if (!id || !secret) throw new Error('tests/e2e/run.mjs creates the Dashboard API key: run the e2e tests through it');
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}
