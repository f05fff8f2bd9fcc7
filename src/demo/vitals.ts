import 'server-only';
import { addDays, isoDate, wallTimeAt } from '@/lib/time-zone';
import { websiteConfigSchema } from '@/modules/tenancy/tenancy.config';
import type { webVitals } from '@/modules/widgets/widgets.schema';
import { VITAL_MAX } from '@/modules/widgets/widgets.vitals';
import { Random } from './random';
import type { SiteSeed } from './sites';

/**
 * A demo website's real-visitor web vitals (decision 058): the 28 days to today, so a dealer can
 * see what web_vitals.json looks like. Deterministic: the same values on every run for a site
 * (only the dates move with `now`). Each page view draws its metrics around a median of its page
 * type (log-normal, as field data is), scaled by a factor of the site's (some sites are slower
 * than others) that eases by a tenth over the four weeks (a site getting faster). Not every view
 * has an INP: only where the visitor interacted.
 */

export const VITALS_HISTORY_DAYS = 28;

type Medians = { lcp: number; fcp: number; ttfb: number; inp: number };
const PAGE_TYPES: ReadonlyArray<readonly [string, number, Medians]> = [
  ['home', 25, { lcp: 1900, fcp: 1150, ttfb: 320, inp: 110 }],
  ['search', 30, { lcp: 2100, fcp: 1250, ttfb: 420, inp: 150 }],
  ['car', 32, { lcp: 2000, fcp: 1200, ttfb: 380, inp: 120 }],
  ['content', 5, { lcp: 1500, fcp: 1000, ttfb: 300, inp: 80 }],
  ['finance', 4, { lcp: 1700, fcp: 1100, ttfb: 330, inp: 140 }],
  ['contact', 4, { lcp: 1600, fcp: 1050, ttfb: 310, inp: 130 }],
];

type Row = typeof webVitals.$inferInsert;

export function vitalsFor(site: SiteSeed, now: Date): Row[] {
  const random = new Random(`vitals:${site.slug}`);
  const timeZone = websiteConfigSchema.parse(site.config).timeZone;
  const today = wallTimeAt(now.getTime(), timeZone);
  const siteFactor = 0.8 + random.float() * 0.7;
  // Standard normal (Box–Muller) from the site's stream.
  const normal = () => Math.sqrt(-2 * Math.log(1 - random.float())) * Math.cos(2 * Math.PI * random.float());
  const around = (median: number, spread: number, max: number) => Math.min(max, Math.round(median * Math.exp(spread * normal())));
  const weights = PAGE_TYPES.map(([type, weight]) => [type, weight] as const);
  const rows: Row[] = [];
  for (let back = VITALS_HISTORY_DAYS - 1; back >= 0; back--) {
    const date = addDays(today, -back);
    const weekend = date.weekday === 0 || date.weekday === 6;
    const factor = siteFactor * (1 - (0.1 * (VITALS_HISTORY_DAYS - 1 - back)) / (VITALS_HISTORY_DAYS - 1));
    const views = random.int(20, 45) + (weekend ? 15 : 0);
    for (let v = 0; v < views; v++) {
      const pageType = random.weighted(weights);
      const medians = PAGE_TYPES.find(([type]) => type === pageType)![2];
      const ttfb = around(medians.ttfb * factor, 0.5, VITAL_MAX.TTFB);
      const fcp = Math.max(ttfb, around(medians.fcp * factor, 0.35, VITAL_MAX.FCP));
      rows.push({
        websiteId: site.id,
        viewId: `seed-${isoDate(date)}-${v}`,
        day: isoDate(date),
        pageType,
        ttfb,
        fcp,
        lcp: Math.max(fcp, around(medians.lcp * factor, 0.4, VITAL_MAX.LCP)),
        cls: random.chance(0.55) ? 0 : Math.min(VITAL_MAX.CLS, Math.round(0.03 * factor * Math.exp(0.9 * normal()) * 1000) / 1000),
        inp: random.chance(0.7) ? around(medians.inp * factor, 0.6, VITAL_MAX.INP) : null,
        createdAt: now,
      });
    }
  }
  return rows;
}
