import 'server-only';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/db';
import { findTenantById } from '../tenancy/tenancy.queries';
import type { Tenant } from '../tenancy/tenancy.types';
import { leadJson } from './leads.commands';
import { leadDeliveries, leads } from './leads.schema';

export const LEAD_LIST_STATUSES = ['Complete', 'Incomplete', 'spam'] as const;
export type LeadListFilter = { from?: Date; to?: Date; status?: (typeof LEAD_LIST_STATUSES)[number]; page: number; perPage: number };

/** A dealership's leads, newest first, by page (dashboard GET /dealerships/{id}/leads.json). */
export async function listDealershipLeads(websiteId: number, dealershipId: number, filter: LeadListFilter) {
  const db = await getDb();
  const tenant = await findTenantById(websiteId);
  const conditions: SQL[] = [eq(leads.websiteId, websiteId), eq(leads.dealershipId, dealershipId)];
  if (filter.from) conditions.push(gte(leads.createdAt, filter.from));
  if (filter.to) conditions.push(lt(leads.createdAt, filter.to));
  if (filter.status === 'spam') conditions.push(eq(leads.spam, true));
  else if (filter.status) conditions.push(eq(leads.leadStatus, filter.status), eq(leads.spam, false));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(leads).where(where).orderBy(desc(leads.createdAt), desc(leads.id)).limit(filter.perPage).offset((filter.page - 1) * filter.perPage),
    db.select({ total: sql<number>`count(*)::int` }).from(leads).where(where),
  ]);
  return {
    leads: rows.map((row) => leadJson(row, { slug: tenant?.slug ?? '' })),
    pagination: { page: filter.page, per_page: filter.perPage, total, pages: Math.ceil(total / filter.perPage) },
  };
}

/** The latest outbox emails and webhooks of a website, for the demo-mode /dev/outbox page. */
export async function listOutbox(tenant: Tenant, limit = 50) {
  const db = await getDb();
  return db
    .select({
      id: leadDeliveries.id,
      leadId: leadDeliveries.leadId,
      channel: leadDeliveries.channel,
      status: leadDeliveries.status,
      attempts: leadDeliveries.attempts,
      payload: leadDeliveries.payload,
      lastError: leadDeliveries.lastError,
      createdAt: leadDeliveries.createdAt,
      deliveredAt: leadDeliveries.deliveredAt,
    })
    .from(leadDeliveries)
    .where(eq(leadDeliveries.websiteId, tenant.id))
    .orderBy(desc(leadDeliveries.id))
    .limit(limit);
}
