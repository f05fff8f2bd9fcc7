import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Metric } from 'web-vitals';
import { parseEventBatch } from '../widgets.events.validation';

// web-vitals itself needs a browser's performance observers; here its callbacks are driven by hand.
const callbacks = vi.hoisted(() => new Map<string, (metric: Metric) => void>());
vi.mock('web-vitals', () => ({
  onTTFB: (cb: (m: Metric) => void) => callbacks.set('TTFB', cb),
  onFCP: (cb: (m: Metric) => void) => callbacks.set('FCP', cb),
  onLCP: (cb: (m: Metric) => void) => callbacks.set('LCP', cb),
  onCLS: (cb: (m: Metric) => void) => callbacks.set('CLS', cb),
  onINP: (cb: (m: Metric) => void) => callbacks.set('INP', cb),
}));

const { reportWebVitals } = await import('./web-vitals-reporter');

describe('reportWebVitals', () => {
  let beacon: ReturnType<typeof vi.fn>;
  let listeners: Map<string, ((event: { persisted?: boolean }) => void)[]>;
  let doc: { visibilityState: 'visible' | 'hidden' };
  let consent: string | null;

  beforeEach(() => {
    callbacks.clear();
    beacon = vi.fn(() => true);
    listeners = new Map();
    doc = { visibilityState: 'visible' };
    consent = null;
    vi.stubGlobal('navigator', { sendBeacon: beacon });
    vi.stubGlobal('document', doc);
    vi.stubGlobal('localStorage', { getItem: () => consent });
    vi.stubGlobal('addEventListener', (type: string, fn: (event: { persisted?: boolean }) => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]));
  });
  afterEach(() => vi.unstubAllGlobals());

  const metric = (name: string, value: number) => callbacks.get(name)!({ name, value } as Metric);
  const fire = (type: string, event: { persisted?: boolean } = {}) => listeners.get(type)?.forEach((fn) => fn(event));
  const hide = () => {
    doc.visibilityState = 'hidden';
    fire('visibilitychange');
  };
  const sent = () => beacon.mock.calls.map((call) => JSON.parse(call[1] as string) as { type: string; view_id: string; page_type: string; metrics: Record<string, number> });

  it('keeps a page view’s metrics and sends them in one beacon when the page is hidden, in the form the server accepts', () => {
    reportWebVitals({ pageType: 'car', pageTypeNow: () => 'search', consentRequired: false });
    metric('TTFB', 312.4);
    metric('FCP', 1184.6);
    metric('LCP', 2051.2);
    expect(beacon).not.toHaveBeenCalled();
    metric('CLS', 0.021349);
    metric('INP', 128);
    hide();
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(beacon.mock.calls[0][0]).toBe('/api/events');
    const [body] = sent();
    expect(body).toMatchObject({ type: 'web_vitals', page_type: 'car', metrics: { TTFB: 312, FCP: 1185, LCP: 2051, CLS: 0.0213, INP: 128 } });
    expect(parseEventBatch(body, 'any', 'any.localhost')).toEqual({ ok: true, events: [body] });
    // pagehide after the hide: nothing new, nothing sent again.
    fire('pagehide');
    expect(beacon).toHaveBeenCalledTimes(1);
  });

  it('sends what is finalised as the page is hidden in one beacon, after web-vitals’ own listeners', () => {
    reportWebVitals({ pageType: 'home', pageTypeNow: () => 'home', consentRequired: false });
    metric('TTFB', 200);
    // Leaving the page: pagehide while still visible, then the hide, where web-vitals (capture
    // phase, before this module's listener) reports LCP, CLS and INP.
    fire('pagehide');
    doc.visibilityState = 'hidden';
    metric('LCP', 1500);
    metric('CLS', 0.01);
    metric('INP', 64);
    fire('visibilitychange');
    expect(sent().map((b) => b.metrics)).toEqual([{ TTFB: 200 }, { LCP: 1500, CLS: 0.01, INP: 64 }]);
  });

  it('sends a metric that arrives later while hidden in the next task, with the same view id; a page back from the back/forward cache is a new view', async () => {
    reportWebVitals({ pageType: 'home', pageTypeNow: () => 'search', consentRequired: false });
    metric('LCP', 1500);
    hide();
    metric('INP', 90);
    expect(beacon).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [first, second] = sent();
    expect(second).toMatchObject({ view_id: first.view_id, page_type: 'home', metrics: { INP: 90 } });
    expect(second.metrics).not.toHaveProperty('LCP');
    doc.visibilityState = 'visible';
    fire('pageshow', { persisted: true });
    metric('LCP', 300);
    hide();
    const third = sent()[2];
    expect(third).toMatchObject({ page_type: 'search', metrics: { LCP: 300 } });
    expect(third.view_id).not.toBe(first.view_id);
  });

  it('where the website asks for consent, sends nothing until the visitor has accepted', () => {
    reportWebVitals({ pageType: 'home', pageTypeNow: () => 'home', consentRequired: true });
    metric('LCP', 1500);
    hide();
    consent = 'denied';
    fire('pagehide');
    expect(beacon).not.toHaveBeenCalled();
    consent = 'granted';
    fire('pagehide');
    expect(sent()).toEqual([expect.objectContaining({ metrics: { LCP: 1500 } })]);
  });
});
