import { describe, expect, it } from 'vitest';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import { widgetPlan } from './widgets.plan';
import { vitalRating } from './widgets.vitals';

// Google's thresholds as issue 32 and decision 058 give them: good up to LCP 2.5 s, INP 200 ms,
// CLS 0.1, FCP 1.8 s, TTFB 0.8 s; needs improvement up to 4 s, 500 ms, 0.25, 3 s, 1.8 s; poor above.
describe('vitalRating', () => {
  it('rates each metric at and around its thresholds', () => {
    const cases: [Parameters<typeof vitalRating>[0], number, string][] = [
      ['LCP', 2500, 'good'],
      ['LCP', 2501, 'needs improvement'],
      ['LCP', 4000, 'needs improvement'],
      ['LCP', 4001, 'poor'],
      ['INP', 200, 'good'],
      ['INP', 201, 'needs improvement'],
      ['INP', 500, 'needs improvement'],
      ['INP', 501, 'poor'],
      ['CLS', 0, 'good'],
      ['CLS', 0.1, 'good'],
      ['CLS', 0.101, 'needs improvement'],
      ['CLS', 0.25, 'needs improvement'],
      ['CLS', 0.251, 'poor'],
      ['FCP', 1800, 'good'],
      ['FCP', 1801, 'needs improvement'],
      ['FCP', 3001, 'poor'],
      ['TTFB', 800, 'good'],
      ['TTFB', 801, 'needs improvement'],
      ['TTFB', 1800, 'needs improvement'],
      ['TTFB', 1801, 'poor'],
    ];
    for (const [metric, value, rating] of cases) expect(vitalRating(metric, value), `${metric} ${value}`).toBe(rating);
  });
});

describe('webVitals.sampleRate', () => {
  it('is every page view (1) by default, takes 0 to 1, refuses anything else, and reaches the browser in the widget plan', () => {
    expect(websiteConfigSchema.parse({}).webVitals).toEqual({ sampleRate: 1 });
    expect(widgetPlan(websiteConfigSchema.parse({}), {}, { production: true }).vitalsSampleRate).toBe(1);
    expect(widgetPlan(websiteConfigSchema.parse({ webVitals: { sampleRate: 0.25 } }), {}, { production: false }).vitalsSampleRate).toBe(0.25);
    expect(websiteConfigSchema.safeParse({ webVitals: { sampleRate: 0 } }).success).toBe(true);
    for (const sampleRate of [-0.1, 1.5, '1', null]) expect(websiteConfigSchema.safeParse({ webVitals: { sampleRate } }).success, String(sampleRate)).toBe(false);
  });
});
