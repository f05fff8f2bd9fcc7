import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEventBatch } from '../widgets.events.validation';
import { analyticsIds, trackLinkClicks, trackEvent } from './analytics-client';

/** A Storage-like map. */
function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('trackEvent', () => {
  let local: ReturnType<typeof memoryStorage>;
  let session: ReturnType<typeof memoryStorage>;
  let beacon: ReturnType<typeof vi.fn>;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    local = memoryStorage();
    session = memoryStorage();
    beacon = vi.fn(() => true);
    fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
    vi.stubGlobal('window', { localStorage: local, sessionStorage: session });
    vi.stubGlobal('location', { pathname: '/cars/mazda-cx-5', search: '?utm_source=x' });
    vi.stubGlobal('navigator', { sendBeacon: beacon });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  const sentBodies = () => beacon.mock.calls.map((call) => JSON.parse(call[1] as string) as Record<string, unknown>);

  it('beacons the event with the page, a lasting anon_id and a per-tab session_id, in a form the server accepts', () => {
    trackEvent(3, { car_id: 12 });
    trackEvent(25);
    expect(beacon).toHaveBeenCalledTimes(2);
    expect(beacon.mock.calls[0][0]).toBe('/api/events');
    const [first, second] = sentBodies();
    expect(first).toMatchObject({ category: 3, url: '/cars/mazda-cx-5?utm_source=x', event_properties: { car_id: 12 } });
    expect(first.anon_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.anon_id).toBe(first.anon_id);
    expect(second.session_id).toBe(first.session_id);
    expect(local.map.get('analytics-anon-id')).toBe(first.anon_id);
    expect(session.map.get('analytics-session-id')).toBe(first.session_id);
    expect(second).not.toHaveProperty('event_properties');
    for (const body of [first, second]) expect(parseEventBatch(body, 'any', 'any.localhost').ok).toBe(true);
  });

  it('keeps the ids across page loads: a new tab gets a new session, the same anon_id', () => {
    trackEvent(1);
    const [before] = sentBodies();
    session.map.clear();
    trackEvent(1);
    const [, after] = sentBodies();
    expect(after.anon_id).toBe(before.anon_id);
    expect(after.session_id).not.toBe(before.session_id);
  });

  it('falls back to fetch with keepalive when the beacon is refused or missing', () => {
    beacon.mockReturnValue(false);
    trackEvent(41, { location: 'yard' }, { error_message: 'x' });
    expect(fetchMock).toHaveBeenCalledWith('/api/events', expect.objectContaining({ method: 'POST', keepalive: true, headers: { 'Content-Type': 'text/plain' } }));
    vi.stubGlobal('navigator', {});
    trackEvent(41);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('never throws: blocked storage, no randomUUID, failing transports', () => {
    const blocked = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('SecurityError'); } };
    vi.stubGlobal('window', { localStorage: blocked, sessionStorage: blocked });
    vi.stubGlobal('crypto', {});
    vi.stubGlobal('navigator', { sendBeacon: () => { throw new Error('beacon broken'); } });
    expect(() => trackEvent(1)).not.toThrow();
    vi.stubGlobal('navigator', {});
    vi.stubGlobal('fetch', () => Promise.reject(new Error('offline')));
    expect(() => trackEvent(1)).not.toThrow();
    const ids = analyticsIds();
    expect(ids.anon_id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(analyticsIds()).toEqual(ids);
  });

  it('counts clicks on call links (25) and directions links (41) through one listener, and nothing else', () => {
    const listeners: ((event: unknown) => void)[] = [];
    vi.stubGlobal('document', { addEventListener: (_type: string, listener: (event: unknown) => void) => listeners.push(listener) });
    trackLinkClicks();
    trackLinkClicks();
    expect(listeners).toHaveLength(1);
    const click = (link: { href: string; hostname: string } | null) => listeners[0]({ target: { closest: () => link } });
    click({ href: 'tel:0299990000', hostname: '' });
    click({ href: 'https://www.google.com/maps/dir/?api=1&destination=-33.8%2C151.0', hostname: 'www.google.com' });
    click({ href: 'https://maps.apple.com/?daddr=-33.8%2C151.0&q=Yard', hostname: 'maps.apple.com' });
    click({ href: 'https://www.google.com/maps/place/Harbour', hostname: 'www.google.com' });
    click({ href: 'https://harbour.localhost/cars/x', hostname: 'harbour.localhost' });
    click(null);
    const bodies = sentBodies();
    expect(bodies.map((b) => [b.category, b.event_properties])).toEqual([
      [25, { name: 'tel_click', phone: '0299990000' }],
      [41, { name: 'directions', provider: 'www.google.com' }],
      [41, { name: 'directions', provider: 'maps.apple.com' }],
    ]);
    for (const body of bodies) expect(parseEventBatch(body, 'any', 'any.localhost').ok).toBe(true);
  });

  it('replaces a stored id that is not one of ours', () => {
    local.setItem('analytics-anon-id', '<script>');
    expect(analyticsIds().anon_id).not.toBe('<script>');
  });
});
