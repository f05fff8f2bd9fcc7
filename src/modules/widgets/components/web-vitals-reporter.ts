import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import type { PageType } from '../widgets.events.catalogue';
import { storedConsent } from '../widgets.consent';
import { VITALS_REPORT_TYPE, type VitalMetric } from '../widgets.vitals';
import { newId, sendToEvents } from './analytics-client';

/**
 * The browser side of real-visitor web vitals (decision 058), imported by the widget host at the
 * visitor's first interaction (never before it, decision 035). web-vitals reads what the browser
 * buffered before it was loaded (the navigation, paints, LCP candidates, layout shifts, the first
 * input), then keeps measuring. The metrics of one page view are kept and sent together, as one
 * item for POST /api/events, when the page is hidden (a tab switch, leaving it, closing it): the
 * moment LCP, CLS and INP are final. A metric that arrives while the page is already hidden goes
 * in the next task; one that changes after the page was shown again goes at the next hide (the
 * server keeps the larger value per view). A page restored from the back/forward cache is a new page view.
 * Where the website asks for consent, nothing is sent until the visitor has accepted.
 */

export type VitalsOptions = {
  /** The page type of the page that was loaded (client navigations do not reset web-vitals' metrics). */
  pageType: PageType;
  /** The page type of the current address, for a page restored from the back/forward cache. */
  pageTypeNow: () => PageType;
  consentRequired: boolean;
};

/** Times in whole ms (web-vitals reports fractions), CLS to 4 decimals: a small beacon. */
const valueOf = (metric: Metric) => (metric.name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value));

export function reportWebVitals({ pageType, pageTypeNow, consentRequired }: VitalsOptions): void {
  let view = { id: newId(), pageType };
  let pending: Partial<Record<VitalMetric, number>> = {};

  const send = () => {
    if (Object.keys(pending).length === 0) return;
    // Kept until the visitor has answered yes: a later hide sends them.
    if (consentRequired && storedConsent() !== 'granted') return;
    try {
      sendToEvents(JSON.stringify({ type: VITALS_REPORT_TYPE, view_id: view.id, page_type: view.pageType, metrics: pending }));
    } catch {
      // SPEC §8: an analytics failure is only lost.
    }
    pending = {};
  };

  const record = (metric: Metric) => {
    pending[metric.name as VitalMetric] = valueOf(metric);
    // Reported while hidden: LCP, CLS and INP as the page is hidden are sent together by the
    // listener below; one that comes later, in the next task.
    if (document.visibilityState === 'hidden') setTimeout(send, 0);
  };

  // web-vitals finalises LCP, CLS and INP in its own visibilitychange listeners (on window, capture
  // phase); this one (on window, bubbling) runs after them all, so they leave in one beacon.
  // Leaving the page fires pagehide first, still visible (Chromium): what is known by then goes
  // at once, the metrics finalised at the hide that follows in a second beacon.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send();
  });
  addEventListener('pagehide', send);
  // Restored from the back/forward cache: web-vitals starts new metrics for it, a new view here.
  addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    send();
    view = { id: newId(), pageType: pageTypeNow() };
  });

  onTTFB(record);
  onFCP(record);
  onLCP(record);
  onCLS(record);
  onINP(record);
}
