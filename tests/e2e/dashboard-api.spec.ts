import { dashboardAuth, expect, serverUrl, siteUrl, test } from './support';

// Website 1 is harbour-city-motors; the key belongs to its dealership harbour-city-mazda.
const WEBSITE_ID = 1;
const newCar = {
  name: '2024 Toyota GR86 GTS',
  make: 'Toyota',
  model: 'GR86',
  badge: 'GTS',
  year: 2024,
  km: 4200,
  price: 51990,
  price_type: 'Drive Away',
  car_type: 'used',
  status: 'in_stock',
  colour: 'Ignition Red',
  simple_body: 'Coupe',
  simple_fuel: 'Petrol',
  simple_transmission: 'Manual',
  simple_drive: 'RWD',
  stocknum: 'E2E1001A',
  description: 'Pushed in by the dealer management system during the browser tests.',
};

test('a car PUT through the Dashboard API appears on the dealer site, and DELETE withdraws it', async ({ request, page }) => {
  const slug = `e2e-gr86-${Date.now()}`;
  const url = serverUrl(`/websites/${WEBSITE_ID}/cars/${slug}.json`);

  const put = await request.put(url, { headers: { authorization: dashboardAuth(), 'content-type': 'application/json' }, data: newCar });
  expect(put.status()).toBe(201);
  expect((await put.json()).slug).toBe(slug);

  const got = await request.get(url, { headers: { authorization: dashboardAuth() } });
  expect(got.status()).toBe(200);
  expect((await got.json()).price).toBe(51990);

  await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('GR86');
  await expect(page.getByText('$51,990').first()).toBeVisible();

  await page.goto(siteUrl('harbour-city-motors', '/search/new-used-and-demo-cars?q=E2E1001A'));
  await expect(page.getByRole('link', { name: /GR86/ }).first()).toBeVisible();

  const deleted = await request.delete(url, { headers: { authorization: dashboardAuth() } });
  expect(deleted.status()).toBe(204);
  const gone = await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  expect(gone?.status()).toBe(404);
});

test('a price lowered through the Dashboard API shows in the car page’s price history, dated in the website’s zone', async ({ request, page }) => {
  const slug = `e2e-price-${Date.now()}`;
  const url = serverUrl(`/websites/${WEBSITE_ID}/cars/${slug}.json`);
  const headers = { authorization: dashboardAuth(), 'content-type': 'application/json' };
  expect((await request.put(url, { headers, data: { ...newCar, stocknum: 'E2E1002B' } })).status()).toBe(201);

  await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('GR86');
  await expect(page.getByTestId('price-history')).toHaveCount(0);

  expect((await request.put(url, { headers, data: { ...newCar, stocknum: 'E2E1002B', price: 49990 } })).status()).toBe(200);
  // harbour-city-motors writes dates in en-AU, Australia/Sydney (issue 31).
  const today = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Australia/Sydney' }).format(new Date());
  await page.goto(siteUrl('harbour-city-motors', `/cars/${slug}`));
  const history = page.getByTestId('price-history');
  await history.getByText('Price history').click();
  await expect(history.getByRole('listitem')).toHaveText([`${today}: Reduced to $49,990 (was $51,990)`]);

  expect((await request.delete(url, { headers: { authorization: dashboardAuth() } })).status()).toBe(204);
});

test('the Dashboard API refuses wrong credentials, foreign websites and malformed bodies', async ({ request }) => {
  const url = serverUrl(`/websites/${WEBSITE_ID}/pages/search_slugs.json`);
  expect((await request.get(url)).status()).toBe(401);
  expect((await request.get(url, { headers: { authorization: 'Basic ' + Buffer.from('dk_nope:wrong').toString('base64') } })).status()).toBe(401);

  // Website 7 belongs to another dealer: indistinguishable from one that does not exist.
  const foreign = await request.get(serverUrl('/websites/7/pages/search_slugs.json'), { headers: { authorization: dashboardAuth() } });
  expect(foreign.status()).toBe(404);

  const bad = await request.put(serverUrl(`/websites/${WEBSITE_ID}/cars/bad-car.json`), {
    headers: { authorization: dashboardAuth(), 'content-type': 'application/json' },
    data: { ...newCar, year: 'soon', price: -5 },
  });
  expect(bad.status()).toBe(422);
  const body = await bad.json();
  expect(Object.keys(body.fields)).toEqual(expect.arrayContaining(['year', 'price']));

  // Answered on any host: the dealer's systems need not know the site's domain.
  const anyHost = await request.get(url, { headers: { authorization: dashboardAuth(), host: 'integrations.example' } });
  expect(anyHost.status()).toBe(200);
});
