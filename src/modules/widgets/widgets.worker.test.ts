import { describe, expect, it } from 'vitest';
import { resolveUrl, workerBootstrap } from './widgets.worker';

/**
 * Decision 043: what the worker is given. Partytown sends resolveUrl's source text to its worker and
 * rebuilds it there, so the function is rebuilt the same way here: it must need nothing but its
 * arguments and `this` (the configuration).
 */
const config = {
  lib: '/api/partytown/',
  widgetProxy: '/api/partytown/proxy',
  widgetHosts: ['www.googletagmanager.com', '*.google-analytics.com', 'connect.facebook.net', 'www.facebook.com'],
  widgetProxyHosts: ['connect.facebook.net'],
};
// As Partytown's worker does: new Function('return ' + source)().
const rebuilt = new Function(`return ${String(resolveUrl)}`)() as typeof resolveUrl;
const page = new URL('https://harbour-city-motors.example/cars/x');
const resolve = (url: string, type = 'script') => String(rebuilt.call(config, new URL(url), page, type));

describe("the worker's addresses (resolveUrl)", () => {
  it('lets the website and its tags\' hosts through, wildcards included', () => {
    expect(resolve('https://harbour-city-motors.example/api/events')).toBe('https://harbour-city-motors.example/api/events');
    expect(resolve('https://www.googletagmanager.com/gtag/js?id=G-ABC1234')).toBe('https://www.googletagmanager.com/gtag/js?id=G-ABC1234');
    expect(resolve('https://region1.google-analytics.com/g/collect?v=2', 'fetch')).toBe('https://region1.google-analytics.com/g/collect?v=2');
    expect(resolve('https://www.facebook.com/tr?id=1', 'image')).toBe('https://www.facebook.com/tr?id=1');
  });

  it("sends scripts from a host without CORS headers through the website's proxy", () => {
    const proxied = new URL(resolve('https://connect.facebook.net/en_US/fbevents.js'));
    expect(proxied.origin + proxied.pathname).toBe('https://harbour-city-motors.example/api/partytown/proxy');
    expect(proxied.searchParams.get('url')).toBe('https://connect.facebook.net/en_US/fbevents.js');
  });

  it('refuses any other host, look-alikes and plain http included', () => {
    for (const url of ['https://evil.example/x.js', 'https://google-analytics.com.evil.example/x', 'https://evilgoogle-analytics.com/x', 'http://www.googletagmanager.com/gtm.js']) {
      expect(resolve(url)).toBe('https://harbour-city-motors.example/api/partytown/refused');
    }
  });
});

describe("the worker's bootstrap", () => {
  const calls = (text: string) => {
    // Runs the bootstrap in a window of its own and reads what the tags would find there.
    const win: Record<string, unknown> & { dataLayer?: IArguments[] } = {};
    new Function('window', 'gtag', 'fbq', `with (window) { ${text} }`)(win, (...a: unknown[]) => (win.gtag as (...b: unknown[]) => void)(...a), (...a: unknown[]) => (win.fbq as (...b: unknown[]) => void)(...a));
    return { win, google: (win.dataLayer ?? []).map((entry) => (Array.isArray(entry) ? entry : entry && typeof entry === 'object' && 'length' in entry ? Array.from(entry) : entry)) };
  };

  it('sets Consent Mode v2 defaults before anything else of Google, denied until a yes where asked', () => {
    const { google } = calls(workerBootstrap({ id: 'ga4', keys: { id: 'G-ABC1234' } }, false, true));
    expect(google[0]).toEqual(['consent', 'default', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', wait_for_update: 500 }]);
    expect(google[1]?.[0]).toBe('js');
    expect(google[2]).toEqual(['config', 'G-ABC1234', { send_page_view: false }]);
  });

  it("a second Google tag does not set the defaults again; Meta's stub queues until fbevents.js arrives", () => {
    expect(workerBootstrap({ id: 'gtm', keys: { id: 'GTM-ABCD' } }, true, false)).not.toContain('consent');
    const { win } = calls(workerBootstrap({ id: 'metaPixel', keys: { id: '1234567' } }, true, false));
    expect((win.fbq as unknown as { queue: IArguments[] }).queue.map((args) => Array.from(args))).toEqual([['init', '1234567']]);
  });
});
