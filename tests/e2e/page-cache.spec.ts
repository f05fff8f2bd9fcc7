import type { APIRequestContext } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';
import { dashboardAuth, expect, serverUrl, test } from './support';

// Website 1 is harbour-city-motors; the e2e key belongs to its dealership harbour-city-mazda.
const WEBSITE_ID = 1;
// Requests go to 127.0.0.1 with the site's Host header: only browsers resolve *.localhost.
const host = (slug: string) => `${slug}.localhost:${E2E_PORT}`;

async function searchPage(request: APIRequestContext, path: string, headers: Record<string, string> = {}) {
  const response = await request.get(serverUrl(path), { headers: { host: host('harbour-city-motors'), ...headers } });
  expect(response.status()).toBe(200);
  const html = await response.text();
  const count = /data-testid="result-count">([\d,]+)</.exec(html)?.[1];
  return { cache: response.headers()['x-page-cache'], count: Number(count?.replace(/,/g, '')), html };
}

test('a search page is served again from the page cache until the dealer changes stock', async ({ request }) => {
  // A URL of this test's own, so parallel tests cannot have cached it.
  const path = `/search/new-used-and-demo-cars?utm_content=page-cache-${Date.now()}`;
  const first = await searchPage(request, path);
  expect(first.cache).toBe('miss');
  const again = await searchPage(request, path);
  expect(again.cache).toBe('hit');
  expect(again.count).toBe(first.count);

  const car = serverUrl(`/websites/${WEBSITE_ID}/cars/e2e-cache-${Date.now()}.json`);
  const put = await request.put(car, {
    headers: { authorization: dashboardAuth(), 'content-type': 'application/json' },
    data: {
      name: '2023 Mazda CX-5 Maxx', make: 'Mazda', model: 'CX-5', year: 2023, km: 12000, price: 38990,
      car_type: 'used', status: 'in_stock', stocknum: 'E2E2002C',
    },
  });
  expect(put.status()).toBe(201);
  const afterAdd = await searchPage(request, path);
  expect(afterAdd.cache).toBe('miss');
  expect(afterAdd.count).toBe(first.count + 1);

  expect((await request.delete(car, { headers: { authorization: dashboardAuth() } })).status()).toBe(204);
  const afterDelete = await searchPage(request, path);
  expect(afterDelete.cache).toBe('miss');
  expect(afterDelete.count).toBe(first.count);
});

test('a car page is served again from the page cache until the dealer changes the car', async ({ request }) => {
  const slug = `e2e-cache-car-${Date.now()}`;
  const car = serverUrl(`/websites/${WEBSITE_ID}/cars/${slug}.json`);
  const body = {
    name: '2022 Mazda CX-30 G20 Evolve', make: 'Mazda', model: 'CX-30', year: 2022, km: 21000, price: 31990,
    car_type: 'used', status: 'in_stock', stocknum: 'E2E2003C',
  };
  const put = (price: number) =>
    request.put(car, { headers: { authorization: dashboardAuth(), 'content-type': 'application/json' }, data: { ...body, price } });
  const carPage = async () => {
    const response = await request.get(serverUrl(`/cars/${slug}`), { headers: { host: host('harbour-city-motors') } });
    expect(response.status()).toBe(200);
    return { cache: response.headers()['x-page-cache'], html: await response.text() };
  };
  expect((await put(31990)).status()).toBe(201);
  const first = await carPage();
  expect(first.cache).toBe('miss');
  expect(first.html).toContain('$31,990');
  expect((await carPage()).cache).toBe('hit');

  expect((await put(29990)).status()).toBe(200);
  const changed = await carPage();
  expect(changed.cache).toBe('miss');
  expect(changed.html).toContain('$29,990');
  expect((await request.delete(car, { headers: { authorization: dashboardAuth() } })).status()).toBe(204);
});

test('visitors with cookies, client-side navigations and other sites never get a cached page', async ({ request }) => {
  const path = `/search/used-cars?utm_content=page-cache-bypass-${Date.now()}`;
  await searchPage(request, path);
  expect((await searchPage(request, path)).cache).toBe('hit');
  expect((await searchPage(request, path, { cookie: 'session=someone' })).cache).toBeUndefined();
  const rsc = await request.get(serverUrl(path), { headers: { host: host('harbour-city-motors'), rsc: '1' } });
  expect(rsc.headers()['x-page-cache']).toBeUndefined();

  // Another website's page at the same URL is its own entry, with its own stock.
  const other = await request.get(serverUrl(path), { headers: { host: host('kiwi-motors') } });
  expect(other.headers()['x-page-cache']).toBe('miss');
  expect(await other.text()).not.toContain('Harbour City');
});

test('the home, content, contact, location and finance pages and the sitemap are served from the page cache', async ({ request }) => {
  const site = { host: host('harbour-city-motors') };
  for (const path of ['/', '/about-us', '/contact', '/finance', '/sitemap.xml']) {
    // A URL of this test's own, so parallel tests cannot have cached it.
    const url = serverUrl(`${path}?utm_content=page-cache-${Date.now()}`);
    const first = await request.get(url, { headers: site });
    expect(first.status(), path).toBe(200);
    expect(first.headers()['x-page-cache'], path).toBe('miss');
    const again = await request.get(url, { headers: site });
    expect(again.headers()['x-page-cache'], path).toBe('hit');
    expect(await again.text()).toBe(await first.text());
  }
  const contact = await request.get(serverUrl('/contact'), { headers: site });
  const location = /href="(\/our-locations\/[^"]+)"/.exec(await contact.text())?.[1];
  expect(location).toBeTruthy();
  await request.get(serverUrl(location!), { headers: site });
  expect((await request.get(serverUrl(location!), { headers: site })).headers()['x-page-cache']).toBe('hit');
});

test('the home page renders again once the dealer changes stock', async ({ request }) => {
  const home = () => request.get(serverUrl('/?utm_content=page-cache-home'), { headers: { host: host('harbour-city-motors') } });
  await home();
  expect((await home()).headers()['x-page-cache']).toBe('hit');
  const car = serverUrl(`/websites/${WEBSITE_ID}/cars/e2e-cache-home-${Date.now()}.json`);
  const put = await request.put(car, {
    headers: { authorization: dashboardAuth(), 'content-type': 'application/json' },
    data: { name: '2021 Mazda 3 G20', make: 'Mazda', model: '3', year: 2021, km: 30000, price: 24990, car_type: 'used', status: 'in_stock', stocknum: 'E2E2004C' },
  });
  expect(put.status()).toBe(201);
  expect((await home()).headers()['x-page-cache']).toBe('miss');
  expect((await request.delete(car, { headers: { authorization: dashboardAuth() } })).status()).toBe(204);
});
