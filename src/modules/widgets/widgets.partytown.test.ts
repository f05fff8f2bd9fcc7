import { describe, expect, it } from 'vitest';
import { partytownFile, proxyTarget, resolveOverride, withoutNoStore } from './widgets.partytown';

describe("Partytown's files from the installed package (decision 043)", () => {
  it('serves the snippet and the service worker as JavaScript, nothing else', async () => {
    const snippet = await partytownFile('partytown.js');
    expect(snippet.status).toBe(200);
    expect(snippet.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await snippet.text()).toMatch(/^\/\* Partytown [\d.]+ /);
    const sw = await partytownFile('partytown-sw.js');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    for (const name of ['partytown-atomics.js', '../package.json', 'debug', 'constructor', '__proto__']) expect((await partytownFile(name)).status).toBe(404);
  });

  it("serves the service worker's own answers as no-cache, not no-store, so pages with tags can enter the back/forward cache", async () => {
    const sw = await (await partytownFile('partytown-sw.js')).text();
    expect(sw).not.toContain('no-store');
    expect(sw).toContain('"Cache-Control":"no-cache"');
    // Otherwise unchanged: one header swapped, same length but for the two words.
    const original = sw.replace('"Cache-Control":"no-cache"', '"Cache-Control":"no-store"');
    expect(withoutNoStore(original)).toBe(sw);
    // A version of the package without that header (or with it twice) is refused, not served as is.
    expect(() => withoutNoStore('self.onfetch=()=>{}')).toThrow(/decision 050/);
    expect(() => withoutNoStore(original + original)).toThrow(/decision 050/);
  });
});

describe('the proxy for scripts without CORS headers', () => {
  const hosts = ['connect.facebook.net'];

  it("fetches only https addresses on the website's proxied hosts", () => {
    expect(proxyTarget('https://connect.facebook.net/en_US/fbevents.js', hosts)?.href).toBe('https://connect.facebook.net/en_US/fbevents.js');
    expect(proxyTarget('https://connect.facebook.net/signals/config/1234567?v=2.9', hosts)).not.toBeNull();
    for (const url of [
      'http://connect.facebook.net/en_US/fbevents.js',
      'https://connect.facebook.net:8443/x.js',
      'https://user:pw@connect.facebook.net/x.js',
      'https://connect.facebook.net.evil.example/x.js',
      'https://evil.example/?https://connect.facebook.net/',
      'https://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
      'not a url',
      '',
      null,
    ]) {
      expect(proxyTarget(url, hosts)).toBeNull();
    }
    // A website without the pixel proxies nothing.
    expect(proxyTarget('https://connect.facebook.net/en_US/fbevents.js', [])).toBeNull();
  });

  it('connects where WIDGET_PROXY_RESOLVE says (benchmark and tests), else to the host', () => {
    const env = 'connect.facebook.net:4443:127.0.0.1,www.googletagmanager.com:4443:127.0.0.1';
    expect(resolveOverride('connect.facebook.net', env)).toEqual({ address: '127.0.0.1', port: 4443 });
    expect(resolveOverride('evil.example', env)).toBeNull();
    expect(resolveOverride('connect.facebook.net', undefined)).toBeNull();
  });
});
