import type { APIRequestContext } from '@playwright/test';
import { dashboardAuth, expect, hydrated, photograph, serverUrl, siteUrl, test } from './support';

/**
 * The car page (SPEC §2 car page actions, §5 eligibility): reserve only where its rule holds, the
 * masked phone revealed on click (recorded through the phone-reveal call and the car_phone_call
 * event), the website's own vehicle path, 404 for a malformed slug, the sold page, the gallery,
 * the structured data. The demo seed's rule cases provide the cars (reads only: the search spec
 * counts this stock at the same time); the sold-long-ago car is pushed through the Dashboard API.
 */

// Website 1 is harbour-city-motors; the key belongs to its dealership harbour-city-mazda.
const WEBSITE_ID = 1;
const DAY = 86_400_000;
const reservableCar = {
  name: '2023 Mazda CX-5 Touring',
  make: 'Mazda',
  model: 'CX-5',
  badge: 'Touring',
  year: 2023,
  km: 18_400,
  price: 38_990,
  price_type: 'Drive Away',
  car_type: 'used',
  status: 'in_stock',
  stocknum: 'E2ECP001',
  description: 'Pushed in by the car page browser tests.',
  payment_processors: [{ authorization_type: 'Stripe', authorization_key: 'pk_test_e2e_car_page', deposit_amount: 500 }],
};

async function putCar(request: APIRequestContext, slug: string, body: Record<string, unknown>) {
  const response = await request.put(serverUrl(`/websites/${WEBSITE_ID}/cars/${slug}.json`), {
    headers: { authorization: dashboardAuth(), 'content-type': 'application/json' },
    data: body,
  });
  expect([200, 201]).toContain(response.status());
}

type Hit = { id: number; slug: string; status: string; reserved: boolean; price: number; photos_count: number };

/** Listed cars of a demo site, by its own search order (reads only: other specs count this stock). */
async function hits(request: APIRequestContext, site: string, limit = 100): Promise<Hit[]> {
  const response = await request.post(serverUrl('/api/search'), { headers: { host: `${site}.localhost` }, data: { limit } });
  expect(response.status()).toBe(200);
  return (await response.json()).hits as Hit[];
}

test('a reservable car offers Reserve; a reserved or sold one does not', async ({ page, request }) => {
  const listed = await hits(request, 'harbour-city-motors');
  const actions = page.getByRole('list', { name: 'Actions' });
  let reservable: string | null = null;
  let reservableId = 0;
  for (const hit of listed.filter((h) => h.status === 'in_stock' && !h.reserved && h.price > 200)) {
    await page.goto(siteUrl('harbour-city-motors', `/cars/${hit.slug}`));
    if ((await actions.getByRole('link', { name: 'Reserve Car Now' }).count()) > 0) {
      reservable = hit.slug;
      reservableId = hit.id;
      break;
    }
  }
  expect(reservable, 'the demo seed gives harbour-city-motors reservable cars').not.toBeNull();
  await expect(actions.getByRole('link', { name: 'Reserve Car Now' })).toHaveAttribute('href', `/cars/${reservable}/checkout`);
  await expect(actions.getByRole('link', { name: 'Enquire Now' })).toHaveAttribute('href', `/enquire?car_id=${reservableId}`);
  await expect(actions.getByRole('link', { name: 'Get Finance' })).toHaveAttribute('href', new RegExp(`^/finance\\?car_id=${reservable}&car_type=.*#finance-form$`));
  await expect(actions.getByRole('link', { name: 'Book a Test Drive' })).toHaveAttribute('href', `/book-test-drive?car_id=${reservableId}`);

  const reserved = listed.find((h) => h.reserved && h.status !== 'sold')!;
  await page.goto(siteUrl('harbour-city-motors', `/cars/${reserved.slug}`));
  await expect(actions.getByRole('link', { name: 'Enquire Now' })).toBeVisible();
  await expect(actions.getByRole('link', { name: /Reserve/ })).toHaveCount(0);

  const sold = listed.find((h) => h.status === 'sold')!;
  await page.goto(siteUrl('harbour-city-motors', `/cars/${sold.slug}`));
  await expect(page.getByText('JUST SOLD').first()).toBeVisible();
  await expect(actions.getByRole('link', { name: 'Enquire Now' })).toBeVisible();
  await expect(actions.getByRole('link', { name: /Reserve/ })).toHaveCount(0);
  await expect(actions.getByRole('link', { name: 'Book a Test Drive' })).toHaveCount(0);
});

test('a car sold before its display window gets a noindex page that says so', async ({ page, request }) => {
  // Sold 10 days ago: never listed, so pushing it changes no other spec's counts.
  const slug = `e2e-sold-${Date.now()}`;
  await putCar(request, slug, { ...reservableCar, status: 'sold', sold_date_timestamp: Date.now() - 10 * DAY });
  const sold = await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  expect(sold?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This vehicle has been sold');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('link', { name: /See other Mazda/ })).toHaveAttribute('href', '/search/new-used-and-demo-cars?make=Mazda');
});

/** A listed in-stock car of harbour-city-motors (its website masks phone numbers). */
async function harbourCar(request: APIRequestContext): Promise<string> {
  return (await hits(request, 'harbour-city-motors', 20)).find((h) => h.status === 'in_stock')!.slug;
}

test('the masked phone number is revealed on click and the reveal and call event are recorded', async ({ page, request }) => {
  const slug = await harbourCar(request);
  await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  const actions = page.getByRole('list', { name: 'Actions' });
  const reveal = actions.getByRole('button', { name: /Show number/ });
  await expect(reveal).toContainText(/Call \(0\d\) XXXX XXXX/);
  // The car's number is not on the page until the reveal (the header and footer carry the dealer's).
  await expect(actions.locator('a[href^="tel:"]')).toHaveCount(0);

  const revealCall = page.waitForResponse((r) => r.url().endsWith('/api/phone-reveal') && r.request().method() === 'POST');
  const eventCall = page.waitForResponse((r) => r.url().endsWith('/api/events/car_phone_call'));
  await reveal.click();
  const revealed = await revealCall;
  expect(revealed.status()).toBe(200);
  const body = revealed.request().postDataJSON() as Record<string, number>;
  expect(body).toEqual({ car_id: expect.any(Number), dealership_id: expect.any(Number), website_id: WEBSITE_ID });
  const { phone } = (await revealed.json()) as { phone: string };
  expect((await eventCall).status()).toBe(202);
  const link = actions.getByRole('link', { name: `Call ${phone}` });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `tel:${phone.replace(/[^\d+]/g, '')}`);
});

test('without JavaScript the phone reveal posts and the page comes back with the number', async ({ browser, request }) => {
  const slug = await harbourCar(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  await page.getByRole('button', { name: /Show number/ }).click();
  await expect(page).toHaveURL(new RegExp(`/cars/${slug}\\?show_phone=[0-9a-f-]{36}#call-dealer$`));
  await expect(page.getByRole('list', { name: 'Actions' }).getByRole('link', { name: /^Call \(0\d\) \d{4} \d{4}$/ })).toBeVisible();
  // The number shows only after a recorded reveal, not for a hand-made address.
  await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}?show_phone=1`));
  await expect(page.getByRole('button', { name: /Show number/ })).toBeVisible();
  await context.close();
});

test('on coastline-motorcycles /cars/{slug} redirects to /motorcycles/{slug}', async ({ page }) => {
  const search = await page.request.post(serverUrl('/api/search'), { headers: { host: 'coastline-motorcycles.localhost' }, data: { limit: 1 } });
  expect(search.status()).toBe(200);
  const [hit] = (await search.json()).hits as { slug: string }[];
  const first = await page.request.get(serverUrl(`/cars/${hit.slug}`), { headers: { host: 'coastline-motorcycles.localhost' }, maxRedirects: 0 });
  expect(first.status()).toBe(308);
  expect(first.headers().location).toBe(`/motorcycles/${hit.slug}`);
  await page.goto(siteUrl('coastline-motorcycles', `/cars/${hit.slug}`));
  await expect(page).toHaveURL(siteUrl('coastline-motorcycles', `/motorcycles/${hit.slug}`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an invalid slug gives the 404 page with no server error', async ({ page }) => {
  for (const path of ['/cars/abc$%25', '/cars/abc$%', '/cars/no-such-car-anywhere']) {
    const response = await page.goto(siteUrl('harbour-city-motors', path));
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  }
});

test('the gallery moves by buttons, keys and thumbnails and opens full screen; structured data describes the car', async ({ page }) => {
  const search = await page.request.post(serverUrl('/api/search'), { headers: { host: 'harbour-city-motors.localhost' }, data: { limit: 20 } });
  const hits = (await search.json()).hits as { slug: string; photos_count: number; status: string }[];
  const hit = hits.find((h) => h.photos_count > 2 && h.status === 'in_stock')!;
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(siteUrl('harbour-city-motors', `/cars/${hit.slug}`));
  const counter = page.locator('[data-gallery-stage] [data-gallery-counter]');
  await expect(counter).toHaveText(/^1 \/ \d+$/);
  await page.locator('[data-gallery-stage]').getByRole('button', { name: 'Next photo' }).click();
  await expect(counter).toHaveText(/^2 \//);
  // Focus is on the Next button, inside the gallery: the arrow keys move too.
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText(/^3 \//);
  await page.keyboard.press('ArrowLeft');
  await expect(counter).toHaveText(/^2 \//);
  await page.getByRole('link', { name: /Show photo 1 of/ }).click();
  await expect(counter).toHaveText(/^1 \//);
  await expect(page.getByRole('link', { name: /Show photo 1 of/ })).toHaveAttribute('aria-current', 'true');

  await page.locator('[data-gallery-open]').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  const [car, crumbs] = jsonLd.map((text) => JSON.parse(text));
  expect(car).toMatchObject({ '@type': 'Car', offers: { '@type': 'Offer', priceCurrency: 'AUD', seller: { '@type': 'AutoDealer' } } });
  expect(crumbs['@type']).toBe('BreadcrumbList');
  await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200');
  const ogImage = await page.locator('meta[property="og:image"]').getAttribute('content');
  const social = await page.request.get(serverUrl(new URL(ogImage!).pathname), { headers: { host: 'harbour-city-motors.localhost' } });
  expect(social.status()).toBe(200);
  expect(social.headers()['content-type']).toBe('image/jpeg');
  const event = JSON.parse((await page.locator('#vehicle-content-event').textContent())!);
  expect(event).toMatchObject({ contents: [{ quantity: 1 }], currency: 'AUD', content_type: 'product' });

  await photograph(page, { path: 'docs/screenshots/car-page-harbour-city-motors-375.png', fullPage: false });
  await page.setViewportSize({ width: 1280, height: 900 });
  await photograph(page, { path: 'docs/screenshots/car-page-harbour-city-motors-1280.png', fullPage: false });
});

test('the override template leads with its sidebar four', async ({ page }) => {
  const search = await page.request.post(serverUrl('/api/search'), { headers: { host: 'gold-coast-used-cars.localhost' }, data: { limit: 30 } });
  const hits = (await search.json()).hits as { slug: string; status: string; reserved: boolean; price: number }[];
  for (const hit of hits.filter((h) => h.status === 'in_stock' && !h.reserved && h.price > 200)) {
    await page.goto(siteUrl('gold-coast-used-cars', `/cars/${hit.slug}`));
    const links = page.getByRole('list', { name: 'Actions' }).getByRole('link');
    const labels = await links.allTextContents();
    if (!labels.some((l) => l.startsWith('Reserve Now - '))) continue;
    expect(labels.slice(0, 4)).toEqual(['Enquire Now', 'Get Your Valuation', 'Get Finance', expect.stringMatching(/^Reserve Now - \$[\d,]+$/)]);
    return;
  }
  throw new Error('no reservable car on gold-coast-used-cars');
});

test('the held-back scripts are added two to a task, every one of them, and the page hydrates (decision 035)', async ({ page }) => {
  // A mutation observer's callback runs once at the end of each task that changed the DOM: the
  // scripts it sees at once were added in one task.
  await page.addInitScript(() => {
    const batches: string[][] = [];
    (window as unknown as { scriptBatches: string[][] }).scriptBatches = batches;
    new MutationObserver((records) => {
      const held = (node: Node) => node instanceof HTMLScriptElement && document.querySelector(`template[data-deferred-script="${new URL(node.src, location.href).pathname}"]`) !== null;
      const added = records.flatMap((record) => [...record.addedNodes]).filter(held) as HTMLScriptElement[];
      if (added.length > 0) batches.push(added.map((script) => new URL(script.src).pathname));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(siteUrl('harbour-city-motors', '/search/new-cars'), { waitUntil: 'domcontentloaded' });
  const held = await page.locator('template[data-deferred-script]').evaluateAll((templates) => templates.map((template) => template.getAttribute('data-deferred-script')));
  expect(held.length).toBeGreaterThan(2);
  await hydrated(page);
  const batches = await page.evaluate(() => (window as unknown as { scriptBatches: string[][] }).scriptBatches);
  expect(batches.flat()).toEqual(held);
  for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(2);
});

test("the scripts a car page starts with carry V8's compile hint; a script loaded on demand does not (decision 061)", async ({ page }) => {
  const hinted = (src: string) => page.evaluate(async (path) => (await (await fetch(path)).text()).startsWith('//# allFunctionsCalledOnLoad\n'), src);
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().includes('/_next/static/chunks/')) requested.push(new URL(request.url()).pathname);
  });
  await page.goto(siteUrl('lone-star-auto', '/'));
  const startup = requested.slice();
  expect(startup.length).toBeGreaterThan(3);
  for (const src of startup) expect(await hinted(src), src).toBe(true);
  // The enquiry dialog's code loads when it is opened: it stays lazy.
  await page.locator('.car-card-link').first().click();
  await page.waitForURL(/\/cars\//);
  // The card is a plain link (a full load): until the car page hydrates, Inquire Now goes to the
  // form's own page (decision 060), where no dialog opens.
  await hydrated(page);
  await page.getByRole('list', { name: 'Actions' }).getByRole('link', { name: /^Inquire Now/ }).first().click();
  await expect(page.locator('[role="dialog"] form')).toBeVisible();
  const later = requested.filter((src) => !startup.includes(src));
  const lazy = [];
  for (const src of later) if (!(await hinted(src))) lazy.push(src);
  expect(lazy.length, `scripts loaded after the start: ${later.join(', ')}`).toBeGreaterThan(0);
});
