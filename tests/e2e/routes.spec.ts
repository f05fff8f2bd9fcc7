import { expect, serverUrl, test } from './support';

/**
 * The site's routes sit at the app's root and take the website from the Host header, with no
 * rewrite (decision 045): what reaches which route, as a visitor or an integrator would notice it.
 * Requests go to 127.0.0.1 with the Host header, as curl would send them.
 */

const HOST = 'harbour-city-motors.localhost';

test('the Host header names the website however it is spelt (case, port, trailing dot)', async ({ request }) => {
  for (const host of [HOST, 'Harbour-City-Motors.LOCALHOST', `${HOST}:8080`, `${HOST}.`]) {
    const response = await request.get(serverUrl('/contact'), { headers: { host } });
    expect(response.status(), host).toBe(200);
    expect(await response.text(), host).toContain('Harbour City Motors');
  }
});

// Refused before any page or route runs (decision 056, issue 33: a Host with userinfo or a path
// was resolved to a website and used to build payment return URLs).
test('a Host header that is not a host name is refused with 400, naming no dealer', async ({ request }) => {
  for (const host of ['x..y', 'harbour-city-motors.localhost/contact', '-bad-.example', 'harbour-city-motors.localhost:80@evil.example']) {
    for (const path of ['/', '/contact', '/cars/anything', '/robots.txt', '/sitemap.xml', '/feeds/google-vehicles.xml']) {
      const response = await request.get(serverUrl(path), { headers: { host } });
      expect(response.status(), `${host} ${path}`).toBe(400);
      const body = await response.text();
      expect(body, `${host} ${path}`).toContain('Bad request: the Host header is not a host name');
      expect(body).not.toMatch(/Harbour City|Kiwi Motors|Lone Star/);
    }
  }
});

test('a stray % in a page path gives the 404 page, not a server error', async ({ request }) => {
  for (const path of ['/cars/abc$%', '/cars/abc%2', '/%', '/about-us%', '/search/used-cars/%zz']) {
    const response = await request.get(serverUrl(path), { headers: { host: HOST } });
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).toContain('Page not found');
  }
  // An API or media path with one is refused as an address that is not valid.
  for (const path of ['/api/leads/%', '/media/abc%']) {
    expect((await request.get(serverUrl(path), { headers: { host: HOST } })).status(), path).toBe(400);
  }
});

test('the API and media routes win over the site\'s root routes', async ({ request }) => {
  const search = await request.post(serverUrl('/api/search'), { headers: { host: HOST }, data: { limit: 1 } });
  expect(search.status()).toBe(200);
  expect(search.headers()['content-type']).toContain('application/json');

  const media = await request.get(serverUrl('/media/no-such-photo.jpg'), { headers: { host: HOST } });
  expect(media.status()).toBe(404);
  expect(media.headers()['content-type']).toContain('text/plain');
});

test('an unknown API path is an API\'s 404, in JSON, whatever the method', async ({ request }) => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
    const response = await request.fetch(serverUrl('/api/no-such-endpoint/1'), { method, headers: { host: HOST, 'content-type': 'application/json' }, data: method === 'GET' ? undefined : {} });
    expect(response.status(), method).toBe(404);
    expect(await response.json(), method).toEqual({ error: 'Not found' });
  }
});

test('the build\'s files are served; a missing one (a stale chunk after a deploy) is Next\'s plain 404, not a page', async ({ request }) => {
  const home = await (await request.get(serverUrl('/'), { headers: { host: HOST } })).text();
  const asset = /\/_next\/static\/[^"'\s]+\.(?:js|css)/.exec(home)?.[0];
  expect(asset).toBeTruthy();
  expect((await request.get(serverUrl(asset!), { headers: { host: HOST } })).status(), asset).toBe(200);
  const chunk = await request.get(serverUrl('/_next/static/chunks/no-such-chunk.js'), { headers: { host: HOST } });
  expect(chunk.status()).toBe(404);
  expect(chunk.headers()['content-type']).toContain('text/plain');
  expect(await chunk.text()).toBe('Not Found');
});

test('the Dashboard API answers at its public paths on any host, and nowhere else', async ({ request }) => {
  const paths = ['/websites/1/cars/anything.json', '/manufacturers/mazda.json?website_id=1', '/dealerships/1/leads.json', '/api/v1/websites/1/website_session_data.json'];
  for (const host of [HOST, 'integrations.example']) {
    for (const path of paths) {
      const response = await request.get(serverUrl(path), { headers: { host } });
      // No credentials: the handler's own 401, in JSON.
      expect(response.status(), `${host} ${path}`).toBe(401);
      expect(response.headers()['content-type'], path).toContain('application/json');
    }
  }
  // The handlers' former internal address is not a second way in.
  expect((await request.get(serverUrl('/api/dashboard/websites/1/cars/anything.json'), { headers: { host: HOST } })).status()).toBe(404);
});
