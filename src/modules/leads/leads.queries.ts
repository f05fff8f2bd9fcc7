import 'server-only';
import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/db';
import { findTenantById } from '../tenancy/tenancy.queries';
import type { Tenant } from '../tenancy/tenancy.types';
import { leadJson } from './leads.commands';
import { leadDeliveries, leadFiles, leads } from './leads.schema';

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
  const files = await leadFilesOf(websiteId, rows.filter((row) => row.hasFiles).map((row) => row.id));
  return {
    leads: rows.map((row) => ({ ...leadJson(row, { slug: tenant?.slug ?? '' }), files: files.get(row.id) ?? [] })),
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

/** A file of one of the dealership's leads, or null (another dealership's, another website's, none). */
export async function findDealershipLeadFile(websiteId: number, dealershipId: number, leadId: string, fileId: string) {
  const db = await getDb();
  const [file] = await db
    .select({ fileName: leadFiles.fileName, contentType: leadFiles.contentType, content: leadFiles.content })
    .from(leadFiles)
    .innerJoin(leads, and(eq(leads.id, leadFiles.leadId), eq(leads.websiteId, leadFiles.websiteId)))
    .where(and(eq(leadFiles.websiteId, websiteId), eq(leads.dealershipId, dealershipId), eq(leadFiles.leadId, leadId), eq(leadFiles.id, fileId)))
    .limit(1);
  return file ?? null;
}

/** The files' metadata of these leads, for the leads listing (their bytes: findDealershipLeadFile). */
export async function leadFilesOf(websiteId: number, leadIds: string[]) {
  if (leadIds.length === 0) return new Map<string, { id: string; file_name: string; content_type: string; size: number }[]>();
  const db = await getDb();
  const rows = await db
    .select({ id: leadFiles.id, leadId: leadFiles.leadId, fileName: leadFiles.fileName, contentType: leadFiles.contentType, size: leadFiles.size })
    .from(leadFiles)
    .where(and(eq(leadFiles.websiteId, websiteId), inArray(leadFiles.leadId, leadIds)));
  const byLead = new Map<string, { id: string; file_name: string; content_type: string; size: number }[]>();
  for (const row of rows) {
    const list = byLead.get(row.leadId) ?? [];
    list.push({ id: row.id, file_name: row.fileName, content_type: row.contentType, size: row.size });
    byLead.set(row.leadId, list);
  }
  return byLead;
}
