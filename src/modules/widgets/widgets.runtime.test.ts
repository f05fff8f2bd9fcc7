import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatMessageCounter, liveChatMessage, mirrorEvent, podiumMessage, zendeskMessage } from './widgets.runtime';
import type { WidgetPlan } from './widgets.plan';

const plan: WidgetPlan = {
  widgets: [],
  worker: null,
  consent: { required: false, privacyPath: '/privacy-policy' },
  chat: null,
  facebookContentType: 'vehicle',
  currency: 'AUD',
  routes: { vehiclePath: 'cars', garagePath: '/my-garage' },
  vitalsSampleRate: 1,
};

const vehicle = { content_ids: ['42'], contents: [{ id: '42', quantity: 1 }], currency: 'AUD', value: 25990, content_type: 'product', content_name: '2020 Mazda CX-5' };

describe('events mirrored to GA4 and the Meta pixel', () => {
  let fbq: ReturnType<typeof vi.fn>;
  let dataLayer: unknown[];

  beforeEach(() => {
    vi.useFakeTimers();
    fbq = vi.fn();
    dataLayer = [];
    vi.stubGlobal('window', { fbq, dataLayer });
    vi.stubGlobal('document', { title: 'Car', getElementById: (id: string) => (id === 'vehicle-content-event' ? { textContent: JSON.stringify(vehicle) } : null) });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const gtagCalls = () => dataLayer.map((entry) => Array.from(entry as ArrayLike<unknown>));

  it('a car page view: GA4 page_view and Meta PageView at once, ViewContent (automotive) 250 ms later', () => {
    vi.stubGlobal('location', { pathname: '/cars/2020-mazda-cx-5-42', search: '', href: 'https://x/cars/2020-mazda-cx-5-42' });
    mirrorEvent(plan, 3, { car_id: 42 }, { google: true, meta: true });
    expect(gtagCalls()).toEqual([['event', 'page_view', { page_location: 'https://x/cars/2020-mazda-cx-5-42', page_title: 'Car' }]]);
    expect(fbq.mock.calls).toEqual([['track', 'PageView']]);
    vi.advanceTimersByTime(249);
    expect(fbq).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fbq.mock.calls[1]).toEqual(['track', 'ViewContent', { ...vehicle, content_type: 'vehicle' }]);
  });

  it("ViewContent goes to the window's fbq of the moment: Partytown replaces its forwarding stub when the worker starts", () => {
    vi.stubGlobal('location', { pathname: '/cars/2020-mazda-cx-5-42', search: '', href: 'https://x/cars/2020-mazda-cx-5-42' });
    mirrorEvent(plan, 3, { car_id: 42 }, { google: true, meta: true });
    const forwarder = vi.fn();
    (window as unknown as { fbq: unknown }).fbq = forwarder;
    vi.advanceTimersByTime(250);
    expect(fbq.mock.calls).toEqual([['track', 'PageView']]);
    expect(forwarder.mock.calls).toEqual([['track', 'ViewContent', { ...vehicle, content_type: 'vehicle' }]]);
  });

  it("'product' where the website's catalogue is a product one", () => {
    vi.stubGlobal('location', { pathname: '/cars/x-42', search: '', href: 'https://x/cars/x-42' });
    mirrorEvent({ ...plan, facebookContentType: 'product' }, 3, undefined, { google: true, meta: true });
    vi.advanceTimersByTime(250);
    expect(fbq.mock.calls[1][2]).toMatchObject({ content_type: 'product' });
  });

  it('a search page view: Meta Search with search_string', () => {
    vi.stubGlobal('location', { pathname: '/search/used-cars', search: '?q=mazda%20cx-5', href: 'https://x/search/used-cars?q=mazda%20cx-5' });
    mirrorEvent(plan, 2, undefined, { google: true, meta: true });
    vi.advanceTimersByTime(250);
    expect(fbq.mock.calls).toEqual([['track', 'PageView'], ['track', 'Search', { search_string: 'mazda cx-5' }]]);
  });

  it('saving a car: GA4 add_to_wishlist and Meta AddToWishlist', () => {
    vi.stubGlobal('location', { pathname: '/', search: '', href: 'https://x/' });
    mirrorEvent(plan, 20, { car_id: 42 }, { google: true, meta: true });
    expect(gtagCalls()).toEqual([['event', 'add_to_wishlist', { items: [{ item_id: '42' }] }]]);
    vi.advanceTimersByTime(250);
    expect(fbq.mock.calls).toEqual([['track', 'AddToWishlist', { content_type: 'vehicle', content_ids: ['42'], currency: 'AUD' }]]);
  });

  it('nothing to Meta without consent', () => {
    vi.stubGlobal('location', { pathname: '/cars/x-42', search: '', href: 'https://x/cars/x-42' });
    mirrorEvent(plan, 3, undefined, { google: true, meta: false });
    vi.advanceTimersByTime(1000);
    expect(fbq).not.toHaveBeenCalled();
    expect(gtagCalls()).toHaveLength(1);
  });
});

describe('chat messages as events 55 and 57 (SPEC §7)', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  const counter = () => {
    const sent: [number, Record<string, unknown>][] = [];
    const count = chatMessageCounter('zendesk', (category, properties) => sent.push([category, properties]), () => now);
    return { sent, count };
  };

  it("the customer's first message is 55, every later one 57", () => {
    const { sent, count } = counter();
    count({ author: 'customer', at: now - 500 });
    count({ author: 'customer', at: now });
    count({ author: 'customer', at: now - 10_000 });
    expect(sent).toEqual([
      [55, { widget: 'zendesk' }],
      [57, { widget: 'zendesk' }],
      [57, { widget: 'zendesk' }],
    ]);
  });

  it('a message older than 10 s (history shown again) or without a time is ignored, and does not make the next one "later"', () => {
    const { sent, count } = counter();
    count({ author: 'customer', at: now - 10_001 });
    count({ author: 'customer', at: NaN });
    count({ author: 'customer', at: now - 2000 });
    expect(sent).toEqual([[55, { widget: 'zendesk' }]]);
  });

  it("the agent's or a bot's messages are ignored", () => {
    const { sent, count } = counter();
    count({ author: 'agent', at: now });
    expect(sent).toEqual([]);
    count({ author: 'customer', at: now });
    count({ author: 'agent', at: now });
    expect(sent).toEqual([[55, { widget: 'zendesk' }]]);
  });

  it("reads Zendesk messaging's messages: author.type 'user' is the visitor, received an ISO time", () => {
    expect(zendeskMessage({ author: { type: 'user' }, received: '2026-11-25T09:59:58.000Z', content: { type: 'text', text: 'Hi' } })).toEqual({ author: 'customer', at: now - 2000 });
    expect(zendeskMessage({ author: { type: 'business' }, received: '2026-11-25T10:00:00.000Z' })).toEqual({ author: 'agent', at: now });
    expect(zendeskMessage({ author: { type: 'user' }, received: now / 1000 })).toEqual({ author: 'customer', at: now });
    expect(zendeskMessage(null)).toBeNull();
    expect(zendeskMessage({ content: { text: 'no author' } })).toBeNull();
  });

  it("reads LiveChat's new_event: author.type 'customer', timestamp in ms or s", () => {
    expect(liveChatMessage({ type: 'message', author: { type: 'customer' }, timestamp: now })).toEqual({ author: 'customer', at: now });
    expect(liveChatMessage({ type: 'message', author: { type: 'agent' }, timestamp: now / 1000 })).toEqual({ author: 'agent', at: now });
    expect(liveChatMessage({ type: 'message' })).toBeNull();
  });

  it("reads Podium's events: only 'Conversation Started' is the visitor's message, timed as it arrives", () => {
    expect(podiumMessage('Conversation Started', now)).toEqual({ author: 'customer', at: now });
    expect(podiumMessage('Bubble Clicked', now)).toBeNull();
    expect(podiumMessage('Widget Closed', now)).toBeNull();
  });
});
