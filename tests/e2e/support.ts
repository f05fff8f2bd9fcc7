import { errors, expect, test as base, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { E2E_PORT, fakeWebhookUrl } from '../../playwright.config';

export { expect };

/**
 * Waits until React has hydrated the page. Its scripts load only after the first photo has painted
 * (decision 035), so a click straight after the page loads would act as without JavaScript.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.readyState !== 'loading' &&
      (!document.querySelector('template[data-deferred-script]') || Object.keys(document.body).some((key) => key.startsWith('__reactFiber'))),
  );
}

/**
 * Takes a screenshot for docs/screenshots or test-results: a record of what a visitor sees, not an
 * assertion. Under a loaded machine Chromium's capture once hung for the rest of a test's minute after
 * the page had passed every check (stop 42's CI), so a capture gets 20 s and, if that runs out, one
 * more try; any other failure is thrown at once.
 */
export async function photograph(target: Page | Locator, options: { path: string; fullPage?: boolean }): Promise<void> {
  try {
    await target.screenshot({ ...options, timeout: 20_000 });
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    console.warn(`screenshot ${options.path} timed out after 20 s; taking it again`);
    await target.screenshot({ ...options, timeout: 20_000 });
  }
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

/** A POST the dealer's webhook receiver stand-in (fake-dealer-webhook.mjs) recorded. */
export type ReceivedWebhook = { lead_id: string | null; reservation: { id: string; status: string; kind: string } | null; idempotency_key: string | null; signature_valid: boolean };

/**
 * A lead's webhook, exactly once: its POST reaches harbour-city-mazda's receiver (waited for, up to
 * 20 s: the outbox worker sends it within seconds of the commit) with a valid X-Lead-Signature, and
 * /dev/outbox has one webhook row for the lead, delivered in one attempt (so no retry will follow).
 */
export async function expectWebhookOnce(page: Page, request: APIRequestContext, site: string, leadId: string): Promise<ReceivedWebhook> {
  const received = async () => {
    const response = await request.get(fakeWebhookUrl(`/__received?lead_id=${encodeURIComponent(leadId)}`));
    expect(response.status()).toBe(200);
    return (await response.json()) as ReceivedWebhook[];
  };
  await expect.poll(async () => (await received()).length, { timeout: 20_000, message: `the webhook of lead ${leadId} reaches the dealer` }).toBeGreaterThan(0);
  const outbox = await page.context().newPage();
  await outbox.goto(siteUrl(site, '/dev/outbox'));
  const row = outbox.locator(`[data-lead-id="${leadId}"][data-channel="webhook"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'delivered');
  await expect(row).toContainText('1 attempt ·');
  await outbox.close();
  const posts = await received();
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatchObject({ signature_valid: true, idempotency_key: `lead-${leadId}` });
  return posts[0];
}

/** The 6-digit code of the newest text to `e164` on the website's demo outbox page (phone sign-in). */
export async function codeFromOutbox(context: BrowserContext, site: string, e164: string): Promise<string> {
  const outbox = await context.newPage();
  await outbox.goto(siteUrl(site, '/dev/outbox'));
  const body = await outbox.locator(`pre[data-sms-to="${e164}"]`).first().innerText();
  await outbox.close();
  return /^(\d{6}) /.exec(body.trim())![1];
}
