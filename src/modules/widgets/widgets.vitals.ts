/**
 * Real-visitor Core Web Vitals (issue 32, decision 058): the metrics, their limits and Google's
 * thresholds. Plain data, client-safe, no dependencies (the report's validation and the Dashboard
 * API's ratings read it; the browser sends what web-vitals measured).
 */

export const VITAL_METRICS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type VitalMetric = (typeof VITAL_METRICS)[number];

/**
 * Google's thresholds (web.dev/articles/vitals, the `web-vitals` package's own): a value up to
 * `good` is good, up to `poor` needs improvement, above it is poor. Times in milliseconds, CLS a score.
 */
export const VITAL_THRESHOLDS: Record<VitalMetric, { good: number; poor: number }> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1800, poor: 3000 },
  TTFB: { good: 800, poor: 1800 },
};

/**
 * The largest value accepted from a browser: a minute for the times, 10 for CLS (layout shift
 * scores are at most 1 each, summed over a 5 s window). Anything larger is not a measurement.
 */
export const VITAL_MAX: Record<VitalMetric, number> = { LCP: 60_000, INP: 60_000, CLS: 10, FCP: 60_000, TTFB: 60_000 };

export type VitalRating = 'good' | 'needs improvement' | 'poor';

export function vitalRating(metric: VitalMetric, value: number): VitalRating {
  const { good, poor } = VITAL_THRESHOLDS[metric];
  if (value <= good) return 'good';
  return value <= poor ? 'needs improvement' : 'poor';
}

/** What the browser sends in a POST /api/events batch: one page view's metrics. */
export const VITALS_REPORT_TYPE = 'web_vitals';
