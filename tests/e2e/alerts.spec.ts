import { codeFromOutbox, dashboardAuth, expect, hydrated, serverUrl, siteUrl, test } from './support';

/**
 * Issue 35 item 2 as a visitor (decision 066): alerts turned on in the garage with consent; a price
 * drop on a saved car, a saved car sold, a saved car reserved and then back in stock, and a new car
 * matching a saved search, each made through the Dashboard API, reach the demo outbox by email; its
 * unsubscribe link works without signing in.
 * The e2e server sweeps every 2 s and sends what each sweep finds at once (playwright.config.ts).
 */

const SITE = 'harbour-city-motors';
const WEBSITE_ID = 1;
const PHONE = '0412 777 066';
const E164 = '+61412777066';
const EMAIL = 'alerts.e2e@example.com';
const car = (stocknum: string, price: number) => ({
  make: 'Toyota',
  model: 'GR86',
  badge: 'GTS',
  year: 2024,
  km: 4200,
  price,
  car_type: 'used',
  status: 'in_stock',
  simple_body: 'Coupe',
  stocknum,
});

test('a visitor turns alerts on, and a price drop, a sale, a reservation and its release, and a new match made through the Dashboard API reach them by email, and they unsubscribe without signing in', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const headers = { authorization: dashboardAuth(), 'content-type': 'application/json' };
  const carUrl = (slug: string) => serverUrl(`/websites/${WEBSITE_ID}/cars/${slug}.json`);
  const [dropping, selling, reserving] = [`e2e-alert-drop-${stamp}`, `e2e-alert-sold-${stamp}`, `e2e-alert-held-${stamp}`];
  const ids: number[] = [];
  for (const [slug, stocknum] of [[dropping, 'E2EAL1'], [selling, 'E2EAL2'], [reserving, 'E2EAL4']] as const) {
    const put = await request.put(carUrl(slug), { headers, data: car(stocknum, 51_990) });
    expect(put.status()).toBe(201);
    ids.push((await put.json()).id);
  }

  await page.goto(siteUrl(SITE, '/sign-in?next=/my-garage'));
  await page.getByLabel('Mobile number').fill(PHONE);
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page.getByText('Code sent!')).toBeVisible();
  await page.getByLabel('Verification code').fill(await codeFromOutbox(page.context(), SITE, E164));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/my-garage');
  // The garage's own API calls, from the signed-in page.
  const post = (path: string, body: object) =>
    page.evaluate(async ([p, b]) => {
      const response = await fetch(p as string, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      return response.ok ? response.status : `${response.status} ${await response.text()}`;
    }, [path, body] as const);
  expect(await post('/api/garage', { car_ids: ids })).toBe(200);
  expect(await post('/api/saved-searches', { href: '/search/used-cars?make_model=Toyota%3AGR86' })).toBe(201);

  // The garage's alerts: consent is required, then they are on.
  await page.reload();
  await hydrated(page);
  const alerts = page.getByRole('region', { name: 'Alerts' });
  await alerts.getByLabel(/^Email address/).fill(EMAIL);
  await alerts.getByRole('button', { name: 'Turn on alerts' }).click();
  // The browser holds the form until the required box is ticked.
  await expect(page).not.toHaveURL(/alerts=/);
  await alerts.getByRole('checkbox', { name: /I agree to receive alerts from Harbour City Motors/ }).check();
  await alerts.getByRole('button', { name: 'Turn on alerts' }).click();
  await page.waitForURL(/alerts=on/);
  await expect(alerts.getByRole('status')).toHaveText('Alerts are on.');
  await expect(alerts.getByTestId('alerts-on')).toContainText(`On, by email to ${EMAIL}, at most one message a day`);

  // Four stock changes through the dealer's system.
  expect((await request.put(carUrl(dropping), { headers, data: car('E2EAL1', 49_990) })).status()).toBe(200);
  expect((await request.put(carUrl(selling), { headers, data: { ...car('E2EAL2', 51_990), status: 'sold' } })).status()).toBe(200);
  expect((await request.put(carUrl(reserving), { headers, data: { ...car('E2EAL4', 51_990), reserved: true } })).status()).toBe(200);
  expect((await request.put(carUrl(`e2e-alert-new-${stamp}`), { headers, data: car('E2EAL3', 47_990) })).status()).toBe(201);

  // The e2e server sends each sweep's finds at once (ALERTS_DIGEST_INTERVAL_MS=0): one to four emails.
  const outbox = await page.context().newPage();
  const emails = outbox.locator('li[data-channel="visitor_alert_email"]').filter({ hasText: `To: ${EMAIL}` });
  let text = '';
  const readOutbox = async () => {
    await outbox.goto(siteUrl(SITE, '/dev/outbox'));
    text = (await emails.locator('pre').allInnerTexts()).join('\n');
  };
  await expect(async () => {
    await readOutbox();
    expect(text).toContain('Price drops on cars you saved\n- 2024 Toyota GR86 GTS: now $49,990 (was $51,990)');
    expect(text).toContain('Sold\n- 2024 Toyota GR86 GTS');
    expect(text).toContain('Reserved\n- 2024 Toyota GR86 GTS, $51,990');
    expect(text).toMatch(/New cars for your saved searches\n“Toyota GR86”:\n- 2024 Toyota GR86 GTS, \$47,990/);
  }).toPass({ timeout: 30_000 });
  expect(text).not.toContain('Back in stock');
  // The reservation falls through: the car is for sale again.
  expect((await request.put(carUrl(reserving), { headers, data: { ...car('E2EAL4', 51_990), reserved: false } })).status()).toBe(200);
  await expect(async () => {
    await readOutbox();
    expect(text).toContain('Back in stock\n- 2024 Toyota GR86 GTS, $51,990');
  }).toPass({ timeout: 30_000 });
  expect(text).toContain('You get these alerts because you turned them on at Harbour City Motors');
  await expect(emails.first().locator('[data-header="List-Unsubscribe-Post"]')).toHaveText('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  const unsubscribe = /Unsubscribe: (\S+)/.exec(text)![1];

  // The link works in a browser that is not signed in.
  const stranger = await page.context().browser()!.newContext();
  const linkPage = await stranger.newPage();
  await linkPage.goto(unsubscribe.replace(/^http:\/\/[^/]+/, siteUrl(SITE, '').replace(/\/$/, '')));
  await expect(linkPage.getByRole('heading', { name: 'Stop alerts from Harbour City Motors?' })).toBeVisible();
  await linkPage.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(linkPage.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await stranger.close();

  await page.reload();
  await hydrated(page);
  await expect(alerts.getByRole('button', { name: 'Turn on alerts' })).toBeVisible();
  await expect(alerts.getByTestId('alerts-on')).toHaveCount(0);
});
