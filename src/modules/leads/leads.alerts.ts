import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { logger } from '@/lib/logger';
import type { OutboxPayload } from './leads.schema';

/**
 * A delivery that failed its last attempt is not the end of the lead: the dealership's fallback
 * address (website configuration leads.fallbackEmail, else the dealership's own email) gets an
 * 'alert' email through the same outbox, carrying the lead as it would have arrived, once per
 * lead. An alert that fails itself raises no further alert; every failure stays listed in the
 * Dashboard API (GET /dealerships/{id}/failed_deliveries.json) and can be retried
 * (npm run leads:retry).
 */

export type FailedDelivery = { id: number; leadId: string; payload: OutboxPayload; channel: string; attempts: number; lastError: string };

type Target = { websiteId: number; fallback: string | null; dealershipEmail: string | null; websiteName: string };

export function alertPayload(failed: FailedDelivery, to: string, websiteName: string): OutboxPayload {
  const payload = failed.payload;
  const how = payload.kind === 'email' ? `by email to ${payload.to}` : payload.kind === 'webhook' ? `to the webhook ${payload.url}` : `by SMS to ${payload.to}`;
  const intro = [
    `We could not deliver a ${websiteName} lead ${how} after ${failed.attempts} attempt${failed.attempts === 1 ? '' : 's'}.`,
    `Last error: ${failed.lastError || 'unknown'}.`,
    'The lead follows; please contact the customer and check the delivery settings.',
    '',
  ].join('\n');
  if (failed.payload.kind === 'email') {
    return { kind: 'email', to, subject: `Undelivered lead: ${failed.payload.subject}`.slice(0, 250), text: `${intro}\n${failed.payload.text}`, adf: failed.payload.adf, attachmentIds: failed.payload.attachmentIds };
  }
  return { kind: 'email', to, subject: `Undelivered lead (webhook) from ${websiteName}`.slice(0, 250), text: `${intro}\n${failed.payload.body}`, adf: '', attachmentIds: [] };
}

/** Queues the alert of each delivery that has just failed for good (alerts excepted). */
export async function queueFailureAlerts(failures: FailedDelivery[]): Promise<number> {
  const db = await getDb();
  let queued = 0;
  for (const failed of failures) {
    if (failed.channel === 'alert') continue;
    const [target] = rowsOf<Target>(
      await db.execute(sql`select l.website_id as "websiteId", w.config->'leads'->>'fallbackEmail' as fallback, d.email as "dealershipEmail", w.name as "websiteName"
        from leads l join websites w on w.id = l.website_id
        left join dealerships d on d.website_id = l.website_id and d.id = l.dealership_id
        where l.id = ${failed.leadId}`),
    );
    const to = target?.fallback || target?.dealershipEmail || null;
    // The address that just failed is no fallback.
    if (!target || !to || (failed.payload.kind === 'email' && failed.payload.to === to)) {
      logger.error({ deliveryId: failed.id, leadId: failed.leadId }, 'lead delivery failed for good and there is no other address to alert');
      continue;
    }
    const payload = alertPayload(failed, to, target.websiteName);
    const inserted = rowsOf<{ id: number }>(
      await db.execute(sql`insert into lead_deliveries (website_id, lead_id, channel, payload)
        values (${target.websiteId}, ${failed.leadId}, 'alert', ${JSON.stringify(payload)}::jsonb)
        on conflict (lead_id, channel) do nothing returning id`),
    );
    queued += inserted.length;
  }
  return queued;
}

/** Puts failed deliveries back in the queue (all of a dealership's, or one); returns how many. */
export async function retryFailedDeliveries(websiteId: number, dealershipId: number, deliveryId?: number): Promise<number> {
  const db = await getDb();
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`update lead_deliveries d set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null, last_error = null
      from leads l
      where l.id = d.lead_id and l.website_id = ${websiteId} and l.dealership_id = ${dealershipId} and d.website_id = ${websiteId}
        and d.status = 'failed' ${deliveryId === undefined ? sql`` : sql`and d.id = ${deliveryId}`}
      returning d.id`),
  );
  return rows.length;
}

/** A dealership's failed deliveries, newest first (Dashboard API). */
export async function listFailedDeliveries(websiteId: number, dealershipId: number, limit = 100) {
  const db = await getDb();
  const rows = rowsOf<{ id: number; leadId: string; channel: string; attempts: number; lastError: string | null; createdAt: string; name: string | null; email: string | null; phone: string | null; category: string }>(
    await db.execute(sql`select d.id, d.lead_id as "leadId", d.channel, d.attempts, d.last_error as "lastError", d.created_at as "createdAt",
        l.name, l.email, l.phone, l.category
      from lead_deliveries d join leads l on l.id = d.lead_id
      where d.website_id = ${websiteId} and l.website_id = ${websiteId} and l.dealership_id = ${dealershipId} and d.status = 'failed'
      order by d.id desc limit ${limit}`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    lead_id: r.leadId,
    channel: r.channel,
    attempts: r.attempts,
    last_error: r.lastError,
    created_at: new Date(r.createdAt).toISOString(),
    lead: { name: r.name, email: r.email, phone: r.phone, category: r.category },
  }));
}
