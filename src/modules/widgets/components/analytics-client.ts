/**
 * The browser side of first-party analytics (SPEC §3, §7, §8): trackEvent(category, properties)
 * posts one event to /api/events with navigator.sendBeacon (it survives the page being left),
 * else fetch with keepalive. anon_id lives in localStorage (the browser), session_id in
 * sessionStorage (the tab). It never throws and never waits: an analytics failure is only lost.
 * No dependencies: it ships on every page.
 */

const ENDPOINT = '/api/events';

export function newId(): string {
  try {
    return crypto.randomUUID();
  } catch {
    // Old browsers and plain-http pages have no randomUUID.
    return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 14)}`;
  }
}

/** The id kept under key in the store, made on first use; one per page load when storage is blocked. */
const fallbackIds: Record<string, string> = {};
function storedId(store: 'localStorage' | 'sessionStorage', key: string): string {
  try {
    const storage = window[store];
    let id = storage.getItem(key);
    if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) storage.setItem(key, (id = newId()));
    return id;
  } catch {
    return (fallbackIds[key] ??= newId());
  }
}

/** The visitor's ids, for payloads that carry them (a lead's anon_id and session_id). */
export function analyticsIds(): { anon_id: string; session_id: string } {
  return { anon_id: storedId('localStorage', 'analytics-anon-id'), session_id: storedId('sessionStorage', 'analytics-session-id') };
}

export type EventExtras = { lead_id?: string; error_message?: string };

/** Sends one event of SPEC §9's catalogue; properties a small object of text, numbers and booleans. */
export function trackEvent(category: number, properties?: Record<string, unknown>, extras?: EventExtras): void {
  try {
    const body = JSON.stringify({
      category,
      url: (location.pathname + location.search).slice(0, 2000),
      ...analyticsIds(),
      ...extras,
      ...(properties ? { event_properties: properties } : {}),
    });
    // The widget runtime (GA4, Meta pixel) reads the same events from this queue (decision 037).
    const queue = ((window as unknown as { siteEvents?: unknown[] }).siteEvents ??= []);
    if (queue.length < 50) queue.push([category, properties]);
    sendToEvents(body);
  } catch {
    // SPEC §8: analytics failure is logged only; the page goes on.
  }
}

/**
 * Posts a body (JSON text) to /api/events: a string is sent as text/plain, so no preflight, and
 * the beacon outlives the page; fetch with keepalive where there is no beacon or it was refused.
 */
export function sendToEvents(body: string): void {
  if (navigator.sendBeacon?.(ENDPOINT, body)) return;
  void fetch(ENDPOINT, { method: 'POST', body, keepalive: true, headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
}

let listening = false;

/**
 * Counts clicks on call links (click to call, 25) and directions links (41: Google Maps /maps/dir/,
 * Apple Maps daddr=) anywhere on the page with one listener, so no link needs a handler of its
 * own. Installed once per page load (PageViewTracker does it).
 */
export function trackLinkClicks(): void {
  if (listening) return;
  listening = true;
  try {
    document.addEventListener(
      'click',
      (event) => {
        const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
        const href = link?.href ?? '';
        if (href.startsWith('tel:')) trackEvent(25, { name: 'tel_click', phone: href.slice(4, 44) });
        else if (/\/maps\/dir\/|[?&]daddr=/.test(href)) trackEvent(41, { name: 'directions', provider: link!.hostname });
      },
      { capture: true, passive: true },
    );
  } catch {
    // No document (a test, a worker): nothing to count.
  }
}
