import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { isoDate, isValidTimeZone } from '@/lib/time-zone';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import type { LocalDate } from './widgets.events.queries';
import { VITAL_METRICS, VITAL_THRESHOLDS, vitalRating, type VitalMetric, type VitalRating } from './widgets.vitals';

/**
 * A website's real-visitor web vitals (decision 058) for the Dashboard API: each metric's 75th
 * percentile over the page views measured, in total, per page type and per local day, rated by
 * Google's thresholds. One statement (grouping sets) on the (website_id, day) index, always one
 * website's rows.
 */

export type MetricSummary = {
  /** 75th percentile (linear interpolation); ms for times, a score for CLS; null without samples. */
  p75: number | null;
  rating: VitalRating | null;
  /** Page views that reported this metric (INP only where the visitor interacted). */
  samples: number;
};
export type VitalsSummary = { page_views: number; metrics: Record<VitalMetric, MetricSummary> };

export type VitalsReport = VitalsSummary & {
  website_id: number;
  time_zone: string;
  from: string;
  to: string;
  thresholds: Record<VitalMetric, { good: number; poor: number; unit: 'ms' | 'score' }>;
  page_types: (VitalsSummary & { page_type: string })[];
  days: (VitalsSummary & { date: string })[];
};

const COLUMN: Record<VitalMetric, string> = { LCP: 'lcp', INP: 'inp', CLS: 'cls', FCP: 'fcp', TTFB: 'ttfb' };

/** Times to whole milliseconds, CLS to 3 decimals: the figure shown is the figure rated. */
const rounded = (metric: VitalMetric, value: number) => (metric === 'CLS' ? Math.round(value * 1000) / 1000 : Math.round(value));

type Row = { day: string | null; page_type: string | null; by_day: number; by_type: number; views: number } & Record<string, number | string | null>;

function summaryOf(row: Row): VitalsSummary {
  const metrics = {} as Record<VitalMetric, MetricSummary>;
  for (const metric of VITAL_METRICS) {
    const raw = row[`${COLUMN[metric]}_p75`];
    const p75 = raw == null ? null : rounded(metric, Number(raw));
    metrics[metric] = { p75, rating: p75 == null ? null : vitalRating(metric, p75), samples: Number(row[`${COLUMN[metric]}_n`]) };
  }
  return { page_views: Number(row.views), metrics };
}

const EMPTY_ROW = { views: 0, ...Object.fromEntries(VITAL_METRICS.map((m) => [`${COLUMN[m]}_n`, 0])) } as unknown as Row;

/** The website's vitals from the start of local date `from` to the end of `to` (inclusive). */
export async function vitalsReport(tenant: Tenant, from: LocalDate, to: LocalDate): Promise<VitalsReport> {
  const timeZone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'UTC';
  const aggregates = sql.join(
    VITAL_METRICS.map((m) => sql.raw(`percentile_cont(0.75) within group (order by ${COLUMN[m]}) as ${COLUMN[m]}_p75, count(${COLUMN[m]})::int as ${COLUMN[m]}_n`)),
    sql`, `,
  );
  const db = await getDb();
  const rows = rowsOf<Row>(
    await db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, page_type, grouping(day)::int as by_day, grouping(page_type)::int as by_type,
        count(*)::int as views, ${aggregates}
      from web_vitals
      where website_id = ${tenant.id} and day >= ${isoDate(from)}::date and day <= ${isoDate(to)}::date
      group by grouping sets ((day), (page_type), ())
      order by 1 nulls last, views desc, 2`),
  );
  // grouping() is 1 for a column the row is not grouped by.
  const total = rows.find((r) => Number(r.by_day) === 1 && Number(r.by_type) === 1) ?? EMPTY_ROW;
  const thresholds = Object.fromEntries(VITAL_METRICS.map((m) => [m, { ...VITAL_THRESHOLDS[m], unit: m === 'CLS' ? 'score' : 'ms' }])) as VitalsReport['thresholds'];
  return {
    website_id: tenant.id,
    time_zone: timeZone,
    from: isoDate(from),
    to: isoDate(to),
    thresholds,
    ...summaryOf(total),
    page_types: rows.filter((r) => Number(r.by_day) === 1 && Number(r.by_type) === 0).map((r) => ({ page_type: String(r.page_type), ...summaryOf(r) })),
    days: rows.filter((r) => Number(r.by_day) === 0).map((r) => ({ date: String(r.day), ...summaryOf(r) })),
  };
}
