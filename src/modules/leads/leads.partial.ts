import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { logger } from '@/lib/logger';
import { findTenantById } from '../tenancy/tenancy.queries';
import { partialDeliveryRows } from './leads.commands';
import { leadDeliveries, leadFiles, leads } from './leads.schema';

/**
 * Partial leads (website configuration leads.deliverPartialAfterMinutes, default off): a lead left
 * 'Incomplete' that long is delivered once, marked partial, through the outbox. Claimed with
 * FOR UPDATE SKIP LOCKED, so any number of workers may sweep; the unique (lead, channel) index
 * makes a second delivery impossible. When the visitor finishes later, the complete lead is
 * delivered on its own channels as usual.
 */

export const PARTIAL_SWEEP_INTERVAL_MS = 60_000;

export async function queuePartialLeads(now = new Date(), limit = 50): Promise<number> {
  const db = await getDb();
  // The websites that opted in, read before the transaction (the embedded database has one connection).
  const optedIn = rowsOf<{ id: number }>(await db.execute(sql`select id from websites where (config->'leads'->>'deliverPartialAfterMinutes') is not null`));
  if (optedIn.length === 0) return 0;
  const tenants = new Map((await Promise.all(optedIn.map(({ id }) => findTenantById(id)))).filter((t) => t !== null).map((t) => [t.id, t]));
  return db.transaction(async (tx) => {
    const due = rowsOf<{ id: string; websiteId: number }>(
      await tx.execute(sql`select l.id, l.website_id as "websiteId" from leads l join websites w on w.id = l.website_id
        where l.lead_status = 'Incomplete' and not l.spam
          and (w.config->'leads'->>'deliverPartialAfterMinutes') is not null
          and l.updated_at < ${now.toISOString()}::timestamptz - make_interval(mins => (w.config->'leads'->>'deliverPartialAfterMinutes')::int)
          and not exists (select 1 from lead_deliveries d where d.lead_id = l.id and d.channel in ('partial_email', 'partial_webhook'))
        order by l.updated_at limit ${limit}
        for update of l skip locked`),
    );
    let queued = 0;
    for (const { id, websiteId } of due) {
      const tenant = tenants.get(websiteId);
      if (!tenant) continue;
      try {
        // A savepoint each: one lead that cannot be delivered does not hold back the others.
        queued += await tx.transaction(async (lead) => {
          const [row] = await lead.select().from(leads).where(and(eq(leads.websiteId, websiteId), eq(leads.id, id)));
          const fileIds = (await lead.select({ id: leadFiles.id }).from(leadFiles).where(eq(leadFiles.leadId, id))).map((f) => f.id);
          const rows = row ? await partialDeliveryRows(lead, tenant, row, fileIds) : [];
          if (rows.length === 0) return 0;
          return (await lead.insert(leadDeliveries).values(rows).onConflictDoNothing({ target: [leadDeliveries.leadId, leadDeliveries.channel] }).returning({ id: leadDeliveries.id })).length;
        });
      } catch (error) {
        logger.warn({ err: error, leadId: id }, 'partial lead not queued');
      }
    }
    if (queued) logger.info({ queued, leads: due.map((d) => d.id) }, 'partial leads queued');
    return queued;
  });
}
