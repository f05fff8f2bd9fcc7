'use client';

import { useEffect } from 'react';
import { PAGE_VIEW_EVENTS, type PageType } from '../widgets.events.catalogue';
import { trackEvent, trackLinkClicks } from './analytics-client';

/** The car of a car page, from the vehicle event the page writes (#vehicle-content-event). */
function carOnPage(): { car_id: number } | undefined {
  try {
    const id = Number((JSON.parse(document.getElementById('vehicle-content-event')?.textContent ?? '{}') as { content_ids?: string[] }).content_ids?.[0]);
    return Number.isSafeInteger(id) ? { car_id: id } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends the page view of SPEC §9 (ids 1–13 by page type) once the page has loaded and the browser
 * is idle, so it never competes with the page's own work. Renders nothing. Mount one per page
 * (a client navigation mounts the next page's and sends its view); `properties` such as
 * {car_id} make the dealer's page views per car (on a car page they default to the page's car). It also counts call and directions link clicks
 * (25, 41) on every page, through one listener (trackLinkClicks).
 */
export function PageViewTracker({ pageType, properties }: { pageType: PageType; properties?: Record<string, string | number | boolean> }) {
  const key = JSON.stringify(properties ?? null);
  useEffect(() => {
    trackLinkClicks();
    let cancelled = false;
    const send = () => {
      if (!cancelled) trackEvent(PAGE_VIEW_EVENTS[pageType] ?? PAGE_VIEW_EVENTS.other, properties ?? (pageType === 'car' ? carOnPage() : undefined));
    };
    const whenIdle = () => (window.requestIdleCallback ? window.requestIdleCallback(send, { timeout: 3000 }) : setTimeout(send, 1));
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', whenIdle);
    };
    // properties is compared by its JSON (key): a new object with the same content is the same view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageType, key]);
  return null;
}
