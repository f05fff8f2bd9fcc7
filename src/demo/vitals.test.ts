import { describe, expect, it } from 'vitest';
import { DEMO_SITES } from './sites';
import { vitalsFor } from './vitals';

const NOW = new Date('2026-11-21T09:00:00Z');

describe('demo web vitals history', () => {
  it('gives every demo website 28 days to today (its own time zone) of page views, the same on every run', () => {
    for (const site of DEMO_SITES) {
      const rows = vitalsFor(site, NOW);
      expect(vitalsFor(site, NOW)).toEqual(rows);
      const days = [...new Set(rows.map((r) => r.day))];
      expect(days, site.slug).toHaveLength(28);
      // 09:00 UTC on 21 Nov is 21 Nov in Australia and New Zealand, 21 Nov (03:00) in Texas.
      expect(days.at(-1), site.slug).toBe('2026-11-21');
      expect(days[0], site.slug).toBe('2026-10-25');
      expect(new Set(rows.map((r) => r.viewId)).size).toBe(rows.length);
      expect(new Set(rows.map((r) => r.pageType))).toEqual(new Set(['home', 'search', 'car', 'content', 'finance', 'contact']));
    }
  });

  it('draws values a browser could report: within the limits the events endpoint accepts, INP only on some views', () => {
    const rows = DEMO_SITES.flatMap((site) => vitalsFor(site, NOW));
    for (const r of rows) {
      for (const [value, max] of [[r.lcp, 60_000], [r.fcp, 60_000], [r.ttfb, 60_000], [r.cls, 10]] as const) {
        expect(value).not.toBeNull();
        expect(value!).toBeGreaterThanOrEqual(0);
        expect(value!).toBeLessThanOrEqual(max);
      }
      expect(r.lcp!).toBeGreaterThanOrEqual(r.fcp!);
      expect(r.fcp!).toBeGreaterThanOrEqual(r.ttfb!);
    }
    const withInp = rows.filter((r) => r.inp != null).length / rows.length;
    expect(withInp).toBeGreaterThan(0.5);
    expect(withInp).toBeLessThan(0.9);
  });
});
