import { createHash, createHmac } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { E2E_TILL, FAKE_TILL_PORT } from '../../playwright.config';
import { expect, photograph, serverUrl, siteUrl, test } from './support';

/**
 * Decision 041: a hosted payment page provider in the browser. gold-coast-used-cars is configured
 * for Till, and the e2e server has Till's keys with its gateway at tests/e2e/fake-till.mjs (no
 * network here). Till's hosted page (https://pay.till.test/…, the address the gateway stand-in
 * answers) is answered by page.route: it sends the visitor back to the return address the
 * platform gave Till, as Till does; then the test sends Till's callback, signed with the shared
 * secret, to the notifications endpoint. This tests our side only: Till's real page and callback
 * need a Till test account.
 */

const SITE = 'gold-coast-used-cars';
const HOST = `${SITE}.localhost`;

type Hit = { id: number; slug: string; name: string; status: string; reserved: boolean; price: number };
type TillTransaction = { uuid: string; merchantTransactionId: string; amount: string; currency: string; successUrl: string; cancelUrl: string; errorUrl: string; callbackUrl: string };

const used = new Set<number>();

/** A car of the website that can be reserved now; the two tests take one from each end (a failed test's worker restarts and forgets `used`). */
async function tillCar(request: APIRequestContext, end: 'first' | 'last'): Promise<Hit> {
  const search = await request.post(serverUrl('/api/search'), { headers: { host: HOST }, data: { limit: 60 } });
  const hits = ((await search.json()).hits as Hit[]).filter((h) => h.status === 'in_stock' && !h.reserved && h.price > 200 && !used.has(h.id));
  if (end === 'last') hits.reverse();
  for (const hit of hits) {
    const quote = await request.get(serverUrl(`/api/checkout/quote?car_id=${hit.id}`), { headers: { host: HOST } });
    const answer = (await quote.json()) as { eligible: boolean; provider: string };
    if (quote.status() === 200 && answer.eligible) {
      expect(answer.provider).toBe('till');
      used.add(hit.id);
      return hit;
    }
  }
  throw new Error(`no car of ${SITE} can be reserved`);
}

/** What the platform asked Till's gateway for this transaction (the stand-in keeps it). */
async function transaction(uuid: string): Promise<TillTransaction> {
  const response = await fetch(`http://127.0.0.1:${FAKE_TILL_PORT}/__transactions/${uuid}`);
  expect(response.status).toBe(200);
  return (await response.json()) as TillTransaction;
}

/** Till's callback, signed as Till signs it: base64 HMAC-SHA512 of method, body SHA-512, content type, date and path. */
async function tillCallback(request: APIRequestContext, t: TillTransaction, result: 'OK' | 'ERROR', extra: Record<string, unknown> = {}) {
  const body = JSON.stringify({ result, uuid: t.uuid, merchantTransactionId: t.merchantTransactionId, purchaseId: `2026-${t.uuid}`, transactionType: 'PREAUTHORIZE', paymentMethod: 'Creditcard', amount: t.amount, currency: t.currency, ...extra });
  const contentType = 'application/json; charset=utf-8';
  const date = new Date().toUTCString();
  const path = new URL(t.callbackUrl).pathname;
  const bodyHash = createHash('sha512').update(body).digest('hex');
  const signature = createHmac('sha512', E2E_TILL.sharedSecret).update(['POST', bodyHash, contentType, date, path].join('\n')).digest('base64');
  // The callback URL is the website's own host (where the visitor started).
  expect(new URL(t.callbackUrl).host).toBe(`${HOST}:${new URL(serverUrl()).port}`);
  return request.post(serverUrl(path), { headers: { host: HOST, 'content-type': contentType, date, 'x-signature': signature }, data: body });
}

async function fillDetails(page: Page) {
  await page.getByLabel('First Name').fill('Robin');
  await page.getByLabel('Email').fill('robin.till@example.com');
  await page.getByLabel('Phone').fill('0412 345 679');
  await page.getByLabel('Postcode').fill('4217');
  await page.getByLabel(/accept them/).check();
}

async function expectAccessible(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']).analyze();
  expect(
    violations.flatMap((v) => v.nodes.map((node) => `${v.id} ${node.target.join(' ')}`)),
    `axe violations: ${where}`,
  ).toEqual([]);
}

/**
 * Till's hosted page, answered here: a redirect back to the address the platform gave Till for
 * `outcome`, with the parameters a provider adds (which the platform must not trust). With
 * `stayFirst`, the first visit is answered 204 (the browser stays on the payment step, so it can be
 * looked at) and the visitor's 'Continue to the payment page' goes on.
 */
async function hostedPage(page: Page, outcome: 'successUrl' | 'cancelUrl', stayFirst: boolean) {
  const seen: string[] = [];
  await page.route('https://pay.till.test/**', async (route: Route) => {
    const uuid = new URL(route.request().url()).pathname.split('/').pop()!;
    seen.push(uuid);
    if (stayFirst && seen.length === 1) return route.fulfill({ status: 204 });
    const t = await transaction(uuid);
    await route.fulfill({ status: 302, headers: { location: `${t[outcome]}&uuid=${uuid}&result=OK` } });
  });
  return seen;
}

test('Till: the visitor pays on the hosted page, comes back, and the signed callback reserves the car', async ({ page, request }) => {
  const car = await tillCar(request, 'first');
  const seen = await hostedPage(page, 'successUrl', true);

  const checkout = await page.goto(siteUrl(SITE, `/cars/${car.slug}/checkout`));
  // A Till website's checkout page allows no payment script: Till is a plain navigation.
  expect(checkout!.headers()['content-security-policy']).not.toContain('stripe.com');
  await fillDetails(page);
  await page.getByRole('button', { name: /^Reserve for \$/ }).click();

  await test.step('the payment step sends the browser to Till’s page (the first visit answered 204, to look at the step)', async () => {
    await expect.poll(() => seen.length).toBe(1);
    await expect(page.getByRole('heading', { name: /^Pay your \$[\d,]+ deposit$/ })).toBeVisible();
    await expect(page.getByText(/You are being taken to the secure payment page/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continue to the payment page' })).toHaveAttribute('href', `https://pay.till.test/redirect/${seen[0]}`);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `no sideways scrolling at ${width} px`).toBeLessThanOrEqual(width);
      await photograph(page, { path: `docs/screenshots/checkout-till-payment-step-${width}.png`, fullPage: true });
    }
  });

  const t = await transaction(seen[0]);
  await test.step('back from Till: /checkout waits for the notification; the address decides nothing', async () => {
    await page.getByRole('link', { name: 'Continue to the payment page' }).click();
    await expect(page).toHaveURL(/\/checkout\?reservation=[0-9a-f-]{36}&outcome=success$/);
    await expect(page.getByRole('heading', { name: 'Confirming your payment' })).toBeVisible();
    await expect(page.getByText(/waiting for the payment provider to confirm your payment/)).toBeVisible();
    await page.setViewportSize({ width: 375, height: 900 });
    await photograph(page, { path: 'docs/screenshots/checkout-till-waiting-375.png' });
  });

  await test.step('Till’s signed callback arrives: the page says the car is reserved', async () => {
    const callback = await tillCallback(request, t, 'OK');
    expect(callback.status()).toBe(200);
    expect(await callback.text()).toBe('OK');
    await expect(page.getByRole('heading', { name: `${car.name} is reserved for you` })).toBeVisible({ timeout: 15_000 });
    // The page's poll may land between the hold and the capture (two transactions, both answered
    // 'reserved for you'); the callback's 200 comes after the capture, so a reload shows 'completed'.
    await expect(page.locator('[data-payment-return]')).toHaveAttribute('data-payment-return', /^(held|completed)$/);
    await expectAccessible(page, 'back from Till, reserved');
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await photograph(page, { path: `docs/screenshots/checkout-till-returned-${width}.png`, fullPage: true });
    }
    const quote = await request.get(serverUrl(`/api/checkout/quote?car_id=${car.id}`), { headers: { host: HOST } });
    expect((await quote.json()).eligible).toBe(false);
  });

  await test.step('the same callback again changes nothing', async () => {
    expect((await tillCallback(request, t, 'OK')).status()).toBe(200);
    await page.reload();
    await expect(page.locator('[data-payment-return]')).toHaveAttribute('data-payment-return', 'completed');
  });
});

test('Till: cancelled on the hosted page, the visitor is told clearly and the car is free again', async ({ page, request }) => {
  const car = await tillCar(request, 'last');
  const seen = await hostedPage(page, 'cancelUrl', false);
  await page.goto(siteUrl(SITE, `/cars/${car.slug}/checkout`));
  await fillDetails(page);
  await page.getByRole('button', { name: /^Reserve for \$/ }).click();
  await expect(page).toHaveURL(/\/checkout\?reservation=[0-9a-f-]{36}&outcome=cancel$/);
  await expect(page.getByText(/You left the payment page/)).toBeVisible();

  // A forged callback (another secret) is refused and changes nothing.
  const t = await transaction(seen[0]);
  const forged = await request.post(serverUrl('/api/checkout/notifications/till'), {
    headers: { host: HOST, 'content-type': 'application/json; charset=utf-8', date: new Date().toUTCString(), 'x-signature': 'forged' },
    data: JSON.stringify({ result: 'OK', uuid: t.uuid, transactionType: 'PREAUTHORIZE' }),
  });
  expect(forged.status()).toBe(400);

  expect((await tillCallback(request, t, 'ERROR', { message: 'The customer cancelled the payment.' })).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Your payment did not go through' })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-payment-return]').getByRole('alert')).toHaveText('The customer cancelled the payment.');
  await expect(page.getByRole('link', { name: `Back to the ${car.name}` })).toHaveAttribute('href', `/cars/${car.slug}`);
  // The list of this browser's reservations below agrees once it has asked again (every 3 s).
  await expect(page.getByRole('list', { name: 'Your reservations' }).getByRole('listitem').filter({ hasText: car.name })).toContainText('Payment failed', { timeout: 10_000 });
  await page.setViewportSize({ width: 375, height: 900 });
  await photograph(page, { path: 'docs/screenshots/checkout-till-cancelled-375.png' });
  const quote = await request.get(serverUrl(`/api/checkout/quote?car_id=${car.id}`), { headers: { host: HOST } });
  expect((await quote.json()).eligible).toBe(true);
});
