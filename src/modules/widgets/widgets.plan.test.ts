import { describe, expect, it } from 'vitest';
import { parseWebsiteConfig, websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { contentSecurityPolicy } from '@/lib/security-headers';
import { chatWidgets, inWorker, isHiddenPath, pageTypeOf, serviceBookingUrl, widgetCspSources, widgetPlan } from './widgets.plan';
import { consentSignals, marketingAllowed } from './widgets.consent';
import { chatMessageEvent } from './widgets.runtime';

const production = { production: true };

describe('widget configuration', () => {
  it('is all off by default: no widget, no consent banner, Meta content type vehicle', () => {
    const config = websiteConfigSchema.parse({});
    expect(config.consent).toEqual({ required: false, privacyPath: '/privacy-policy' });
    expect(config.widgets.facebookContentType).toBe('vehicle');
    expect(config.widgets.chat.popupAfterMs).toBe(3000);
    const plan = widgetPlan(config, {}, production);
    expect(plan.widgets).toEqual([]);
    expect(plan.chat).toBeNull();
    expect(widgetCspSources(plan)).toEqual({});
  });

  it('refuses ids that are not the providers\' shapes (nothing odd reaches a script address)', () => {
    expect(() => parseWebsiteConfig({ widgets: { googleAnalyticsId: 'G-1"><script>' } })).toThrow();
    expect(() => parseWebsiteConfig({ widgets: { gtmId: 'UA-1' } })).toThrow();
    expect(() => parseWebsiteConfig({ widgets: { facebookPixelId: 'abc' } })).toThrow();
    expect(() => parseWebsiteConfig({ widgets: { chat: { hiddenPaths: ['cars'] } } })).toThrow();
  });

  it('declares each configured widget with its script, keys and hidden paths; chat needs its secret', () => {
    const config = parseWebsiteConfig({
      widgets: {
        chat: { provider: 'podium', hiddenPaths: ['/cars'] },
        chatbot: { enabled: true, hiddenPaths: ['/checkout-journey'] },
        googleAnalyticsId: 'G-ABC1234',
        facebookPixelId: '1234567890',
        gtmId: 'GTM-ABC123',
        callTracking: true,
        callTrackingAccount: 'COM1',
        digitalToolsSidebar: true,
        spinViewer: true,
        hiddenPaths: ['/checkout'],
      },
    });
    const plan = widgetPlan(config, { podiumApiOrganization: 'org', podiumApiToken: 'tok', impelChatbotKey: 'imp' }, production);
    expect(plan.widgets.map((w) => [w.id, w.group])).toEqual([
      ['ga4', 'analytics'],
      ['gtm', 'analytics'],
      ['metaPixel', 'marketing'],
      ['callTracking', 'analytics'],
      ['podium', 'chat'],
      ['impel', 'chatbot'],
      ['digitalTools', 'tool'],
      ['spinViewer', 'tool'],
    ]);
    const byId = Object.fromEntries(plan.widgets.map((w) => [w.id, w]));
    expect(byId.ga4.src).toBe('https://www.googletagmanager.com/gtag/js?id=G-ABC1234');
    expect(byId.gtm.src).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-ABC123');
    expect(byId.podium.hiddenPaths).toEqual(['/checkout', '/cars']);
    expect(byId.ga4.hiddenPaths).toEqual([]);
    expect(byId.spinViewer.pageTypes).toEqual(['car']);
    expect(plan.chat).toEqual({ popupAfterMs: 3000 });
    // Without its secret a chat provider is not loaded (and no origin allowed for it).
    const noSecret = widgetPlan(config, {}, production);
    expect(noSecret.widgets.map((w) => w.id)).not.toContain('podium');
    expect(noSecret.chat).toBeNull();
  });

  it('loads nothing outside production unless the website asks', () => {
    const config = parseWebsiteConfig({ widgets: { googleAnalyticsId: 'G-ABC1234' } });
    expect(widgetPlan(config, {}, { production: false }).widgets).toEqual([]);
    const asks = parseWebsiteConfig({ widgets: { googleAnalyticsId: 'G-ABC1234', loadOutsideProduction: true } });
    expect(widgetPlan(asks, {}, { production: false }).widgets).toHaveLength(1);
  });
});

describe('chat actions (issue 31: no chat button that leads nowhere)', () => {
  it('offers chat only where a provider with its key runs; hidden paths hide the ambient button only', () => {
    const config = parseWebsiteConfig({ widgets: { chat: { provider: 'zendesk', hiddenPaths: ['/cars'] }, chatbot: { enabled: true, hiddenPaths: ['/cars'] } } });
    expect(chatWidgets(widgetPlan(config, { zendeskKey: 'k', impelChatbotKey: 'i' }, production))).toEqual({ chat: true, chatbot: true });
    expect(chatWidgets(widgetPlan(config, { zendeskKey: 'k' }, production))).toEqual({ chat: true, chatbot: false });
    // A provider named without its key loads nothing: nothing to open.
    expect(chatWidgets(widgetPlan(config, {}, production))).toEqual({ chat: false, chatbot: false });
    // Outside production (and not asked to load there) no widget runs.
    expect(chatWidgets(widgetPlan(config, { zendeskKey: 'k' }, { production: false }))).toEqual({ chat: false, chatbot: false });
  });
});

describe('CSP origins', () => {
  it('allows exactly the origins of the configured widgets', () => {
    const config = parseWebsiteConfig({ widgets: { googleAnalyticsId: 'G-ABC1234', chat: { provider: 'zendesk' } } });
    const csp = widgetCspSources(widgetPlan(config, { zendeskKey: 'k' }, production));
    // GA4 runs in the worker (decision 043): its host is no script of the page, only where it sends.
    expect(csp.script).toEqual(['https://static.zdassets.com']);
    expect(csp.connect).toContain('https://www.google-analytics.com');
    const mainThread = widgetCspSources(widgetPlan(parseWebsiteConfig({ widgets: { googleAnalyticsId: 'G-ABC1234', analyticsInWorker: false } }), {}, production));
    expect(mainThread.script).toEqual(['https://www.googletagmanager.com']);
    expect(csp.connect).toContain('wss://*.zendesk.com');
    const policy = contentSecurityPolicy(csp);
    expect(policy).toContain('https://static.zdassets.com');
    expect(policy).not.toContain('connect.facebook.net');
    expect(policy).not.toContain('podium');
  });

  it("every origin is https or wss, never a wildcard scheme (and the worker's own 'self')", () => {
    const all = parseWebsiteConfig({
      widgets: { googleAnalyticsId: 'G-ABC1234', facebookPixelId: '1234567', gtmId: 'GTM-ABCD', callTracking: true, callTrackingAccount: 'x', digitalToolsSidebar: true, spinViewer: true, chat: { provider: 'livechat' }, chatbot: { enabled: true } },
    });
    const csp = widgetCspSources(widgetPlan(all, { livechatAgentGroup: '1:2', impelChatbotKey: 'k' }, production));
    expect(csp.worker).toEqual(["'self'"]);
    for (const origin of Object.values({ ...csp, worker: [] }).flat()) expect(origin).toMatch(/^(https|wss):\/\/(\*\.)?[a-z0-9.-]+\.[a-z]+$/);
  });
});

describe('analytics tags in the worker (decision 043)', () => {
  const tags = { googleAnalyticsId: 'G-ABC1234', gtmId: 'GTM-ABCD', facebookPixelId: '1234567' };

  it('puts GA4, GTM and Meta in the worker: their hosts allowed there, Meta\'s script host through the proxy, worker-src self', () => {
    const plan = widgetPlan(parseWebsiteConfig({ widgets: { ...tags, callTracking: true, callTrackingAccount: 'x', chat: { provider: 'podium' } } }), { podiumApiOrganization: 'o' }, production);
    expect(plan.widgets.filter(inWorker).map((w) => w.id)).toEqual(['ga4', 'gtm', 'metaPixel']);
    expect(plan.worker).toMatchObject({ lib: '/api/partytown/', proxy: '/api/partytown/proxy', proxyHosts: ['connect.facebook.net'] });
    expect(plan.worker!.hosts).toEqual(expect.arrayContaining(['www.googletagmanager.com', '*.google-analytics.com', 'connect.facebook.net', 'www.facebook.com']));
    // Only the tags' hosts: not the chat's or the call tracker's, which stay on the main thread.
    expect(plan.worker!.hosts.some((host) => /podium|callrail/.test(host))).toBe(false);
    const policy = contentSecurityPolicy(widgetCspSources(plan));
    expect(policy).toMatch(/worker-src 'self'(;|$)/);
    // The page itself may not run the tags (nor Partytown's main-thread fallback of them); the chat and call tracking still run here.
    const scriptSrc = /script-src ([^;]*)/.exec(policy)![1];
    expect(scriptSrc).not.toMatch(/googletagmanager|facebook/);
    expect(scriptSrc).toContain('https://connect.podium.com');
    expect(scriptSrc).toContain('https://cdn.callrail.com');
  });

  it('none where the website turns it off or has no such tag: no worker-src either', () => {
    const off = widgetPlan(parseWebsiteConfig({ widgets: { ...tags, analyticsInWorker: false } }), {}, production);
    expect(off.worker).toBeNull();
    expect(contentSecurityPolicy(widgetCspSources(off))).not.toContain('worker-src');
    const chatOnly = widgetPlan(parseWebsiteConfig({ widgets: { chat: { provider: 'podium' } } }), { podiumApiOrganization: 'o' }, production);
    expect(chatOnly.worker).toBeNull();
    expect(contentSecurityPolicy(widgetCspSources(chatOnly))).not.toContain('worker-src');
  });
});

describe('paths', () => {
  it('hides a widget on a prefix and what is below it, not on look-alikes', () => {
    expect(isHiddenPath('/cars', ['/cars'])).toBe(true);
    expect(isHiddenPath('/cars/2020-mazda-cx-5-123', ['/cars'])).toBe(true);
    expect(isHiddenPath('/carsales', ['/cars'])).toBe(false);
    expect(isHiddenPath('/our-locations/parramatta', ['/our-locations/'])).toBe(true);
    expect(isHiddenPath('/', ['/cars'])).toBe(false);
  });

  it('tells page types apart by SPEC §2 routes', () => {
    const routes = { vehiclePath: 'cars', garagePath: '/my-garage' };
    expect(pageTypeOf('/', routes)).toBe('home');
    expect(pageTypeOf('/search/used-cars', routes)).toBe('search');
    expect(pageTypeOf('/cars/2020-mazda-cx-5-123', routes)).toBe('car');
    expect(pageTypeOf('/my-garage', routes)).toBe('garage');
    expect(pageTypeOf('/contact', routes)).toBe('contact');
    expect(pageTypeOf('/book-a-service', routes)).toBe('service');
    expect(pageTypeOf('/book-test-drive', routes)).toBe('test-drive');
    expect(pageTypeOf('/finance-pre-approval', routes)).toBe('finance');
    expect(pageTypeOf('/sell-my-car', routes)).toBe('trade-in');
    expect(pageTypeOf('/privacy-policy', routes)).toBe('content');
    expect(pageTypeOf('/motorcycles/x', { ...routes, vehiclePath: 'motorcycles' })).toBe('car');
  });
});

describe('consent and chat events', () => {
  it('marketing waits for a yes only where the banner is on', () => {
    expect(marketingAllowed(false, null)).toBe(true);
    expect(marketingAllowed(true, null)).toBe(false);
    expect(marketingAllowed(true, 'denied')).toBe(false);
    expect(marketingAllowed(true, 'granted')).toBe(true);
    expect(consentSignals(false)).toEqual({ ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied' });
  });

  it('counts the customer\'s first message 55, later ones 57, ignores old or staff messages', () => {
    const now = 1_000_000;
    expect(chatMessageEvent({ author: 'customer', at: now - 1000 }, now, false)).toBe(55);
    expect(chatMessageEvent({ author: 'customer', at: now - 1000 }, now, true)).toBe(57);
    expect(chatMessageEvent({ author: 'customer', at: now - 10_001 }, now, false)).toBeNull();
    expect(chatMessageEvent({ author: 'agent', at: now }, now, false)).toBeNull();
  });
});

describe('service booking link (xtime)', () => {
  it('takes an https address only', () => {
    expect(serviceBookingUrl('https://consumer.xtime.com/scheduling/?webKey=abc')).toBe('https://consumer.xtime.com/scheduling/?webKey=abc');
    expect(serviceBookingUrl('javascript:alert(1)')).toBeNull();
    expect(serviceBookingUrl('http://consumer.xtime.com/')).toBeNull();
    expect(serviceBookingUrl('https://user:pw@xtime.com/')).toBeNull();
    expect(serviceBookingUrl('not a url')).toBeNull();
    expect(serviceBookingUrl(undefined)).toBeNull();
  });
});
