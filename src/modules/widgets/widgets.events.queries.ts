import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { instantOfWallTime, isValidTimeZone } from '@/lib/time-zone';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { PAGE_VIEW_EVENTS } from './widgets.events.catalogue';

/**
 * The dealer's own figures (Dashboard API GET /websites/{id}/analytics.json): events counted per
 * day (in the website's time zone) and category, totals per category, car page views per car and
 * leads per source.
 * Always one website's events (the tenant comes first), read by the (website_id, created_at) index.
 */

export type LocalDate = { year: number; month: number; day: number };

export type EventCounts = {
  website_id: number;
  time_zone: string;
  from: string;
  to: string;
  /** Days with events, oldest first; counts keyed by event id. */
  days: { date: string; total: number; events: Record<string, number> }[];
  totals: Record<string, number>;
  /** Car page views (event 3 with event_properties.car_id), most viewed first, at most 100 cars. */
  car_page_views: { car_id: number; views: number }[];
  /**
   * Complete, non-spam leads by source, most first: the first page's utm_source where the visitor
   * came from a tracked link, else their answer to 'where did you hear about us', else the lead's
   * source ('Website').
   */
  leads_by_source: { source: string; leads: number }[];
};

const iso = (d: LocalDate) => `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The instant a local date starts in the zone (its first existing minute when clocks skip midnight). */
function startOfDay(date: LocalDate, timeZone: string): Date {
  for (let hour = 0; hour < 3; hour++) {
    const instant = instantOfWallTime({ ...date, hour, minute: 0 }, timeZone);
    if (instant !== null) return new Date(instant);
  }
  return new Date(Date.UTC(date.year, date.month - 1, date.day));
}

/** Counts of the website's events from the start of `from` to the end of `to` (local dates, inclusive). */
export async function countEvents(tenant: Tenant, from: LocalDate, to: LocalDate): Promise<EventCounts> {
  const timeZone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'UTC';
  const start = startOfDay(from, timeZone);
  const next = new Date(Date.UTC(to.year, to.month - 1, to.day + 1));
  const end = startOfDay({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }, timeZone);
  const db = await getDb();
  const [perDay, perCar, perSource] = await Promise.all([
    db.execute(sql`select to_char(created_at at time zone ${timeZone}, 'YYYY-MM-DD') as day, category, count(*)::int as count
      from analytics_events
      where website_id = ${tenant.id} and created_at >= ${start.toISOString()} and created_at < ${end.toISOString()}
      group by 1, 2 order by 1, 2`),
    db.execute(sql`select (event_properties->>'car_id')::int as car_id, count(*)::int as views
      from analytics_events
      where website_id = ${tenant.id} and created_at >= ${start.toISOString()} and created_at < ${end.toISOString()}
        and category = ${PAGE_VIEW_EVENTS.car} and jsonb_typeof(event_properties->'car_id') = 'number'
        and (event_properties->>'car_id') ~ '^[0-9]{1,9}$'
      group by 1 order by 2 desc, 1 limit 100`),
    db.execute(sql`select coalesce(nullif(linked_query_params->>'utm_source', ''), nullif(attributes->>'where-did-you-hear-about-us', ''), source) as source, count(*)::int as leads
      from leads
      where website_id = ${tenant.id} and created_at >= ${start.toISOString()} and created_at < ${end.toISOString()}
        and lead_status = 'Complete' and not spam
      group by 1 order by 2 desc, 1 limit 100`),
  ]);
  const days: EventCounts['days'] = [];
  const totals: Record<string, number> = {};
  for (const row of rowsOf<{ day: string; category: number; count: number }>(perDay)) {
    let day = days.at(-1);
    if (!day || day.date !== row.day) days.push((day = { date: row.day, total: 0, events: {} }));
    const count = Number(row.count);
    day.events[String(row.category)] = count;
    day.total += count;
    totals[String(row.category)] = (totals[String(row.category)] ?? 0) + count;
  }
  return {
    website_id: tenant.id,
    time_zone: timeZone,
    from: iso(from),
    to: iso(to),
    days,
    totals,
    car_page_views: rowsOf<{ car_id: number; views: number }>(perCar).map((r) => ({ car_id: Number(r.car_id), views: Number(r.views) })),
    leads_by_source: rowsOf<{ source: string; leads: number }>(perSource).map((r) => ({ source: String(r.source), leads: Number(r.leads) })),
  };
}
