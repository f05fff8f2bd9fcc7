import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { isValidTimeZone } from '@/lib/time-zone';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { ALERT_KINDS, type AlertKind } from './alerts.schema';
import { ALERT_OUTBOX_CHANNEL } from './alerts.digest';

/**
 * The dealer's view of visitors' alerts (issue 35 item 5), in analytics.json: messages sent by
 * channel and what they told of, visitors with alerts on, unsubscribes, and the complete leads whose
 * visitor arrived from an alert's link (its utm_source=alerts, recorded with the lead as every
 * tracked link is).
 */
export type AlertFigures = {
  messages: { email: number; sms: number };
  items: Record<AlertKind, number>;
  subscribers: number;
  unsubscribed: number;
  leads_after_alert: number;
};

type Day = { year: number; month: number; day: number };
const iso = (d: Day) => `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** From the start of `from` to the end of `to`, local dates of the website's time zone. */
export async function alertFigures(tenant: Tenant, from: Day, to: Day): Promise<AlertFigures> {
  const zone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'UTC';
  const start = sql`(${iso(from)}::timestamp at time zone ${zone})`;
  const end = sql`((${iso(to)}::date + 1)::timestamp at time zone ${zone})`;
  const db = await getDb();
  const [messages, items, people, leads] = await Promise.all([
    db.execute(sql`select channel, count(*)::int as n from lead_deliveries
      where website_id = ${tenant.id} and lead_id is null and channel in (${ALERT_OUTBOX_CHANNEL.email}, ${ALERT_OUTBOX_CHANNEL.sms})
        and created_at >= ${start} and created_at < ${end} group by channel`),
    db.execute(sql`select kind, sum(items)::int as n from alert_counts
      where website_id = ${tenant.id} and sent_at >= ${start} and sent_at < ${end} group by kind`),
    db.execute(sql`select count(*) filter (where unsubscribed_at is null)::int as subscribers,
        count(*) filter (where unsubscribed_at >= ${start} and unsubscribed_at < ${end})::int as unsubscribed
      from alert_subscriptions where website_id = ${tenant.id}`),
    db.execute(sql`select count(*)::int as n from leads
      where website_id = ${tenant.id} and linked_query_params->>'utm_source' = 'alerts' and lead_status = 'Complete' and not spam
        and created_at >= ${start} and created_at < ${end}`),
  ]);
  const byChannel = new Map(rowsOf<{ channel: string; n: number }>(messages).map((row) => [row.channel, Number(row.n)]));
  const byKind = new Map(rowsOf<{ kind: AlertKind; n: number }>(items).map((row) => [row.kind, Number(row.n)]));
  const [counts] = rowsOf<{ subscribers: number; unsubscribed: number }>(people);
  return {
    messages: { email: byChannel.get(ALERT_OUTBOX_CHANNEL.email) ?? 0, sms: byChannel.get(ALERT_OUTBOX_CHANNEL.sms) ?? 0 },
    items: Object.fromEntries(ALERT_KINDS.map((kind) => [kind, byKind.get(kind) ?? 0])) as Record<AlertKind, number>,
    subscribers: Number(counts?.subscribers ?? 0),
    unsubscribed: Number(counts?.unsubscribed ?? 0),
    leads_after_alert: Number(rowsOf<{ n: number }>(leads)[0]?.n ?? 0),
  };
}
