import 'server-only';
import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, or, sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/db';
import { DashboardError, NotFoundError, ValidationError } from '../dashboard/dashboard.errors';
import { locations } from '../locations/locations.schema';
import { cars } from '../stock/stock.schema';
import { dealerships } from '../tenancy/tenancy.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { analyticsEvents } from '../widgets/widgets.schema';
import { buildAdf } from './leads.adf';
import { wakeDeliveryWorker } from './leads.delivery';
import { consumeLeadLimits } from './leads.limits';
import { normaliseCategory } from './leads.rules';
import { leadDeliveries, leadFiles, leads, leadWebhooks, type OutboxPayload } from './leads.schema';
import { scoreLead } from './leads.spam';
import { HONEYPOT_FIELD, LEAD_MESSAGES, leadName, type LeadPayload } from './leads.validation';

/**
 * Lead commands (SPEC §7 POST/PUT /api/leads). A lead, its analytics event and its outbox rows are
 * written in one transaction, so a committed lead is always delivered and a rolled-back one never
 * is. Every reference the body names (car, location, dealership) must belong to the website.
 */

export type SubmitMeta = {
  idempotencyKey: string | null;
  userAgent: string | null;
  ip: string | null;
  referer: string | null;
};

export type UploadedFile = { fileName: string; contentType: string; content: Buffer };

export type LeadResult = { id: string; replayed: boolean };

export class TooManyLeadsError extends DashboardError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

const COLUMN_KEYS = new Set([
  'name', 'first_name', 'last_name', 'middle_name', 'email', 'phone', 'postcode', 'message', 'category', 'subcategory',
  'url', 'source', 'user_agent', 'location_id', 'car_id', 'car_dealership_id', 'visited_pages', 'linked_query_params',
  'has_files', 'lead_id', 'lead_status', 'form_completed', 'skipped_steps', 'step_number', HONEYPOT_FIELD, 'fill_ms',
  'website_slug',
]);

type CarRef = { id: number; dealershipId: number; locationId: number | null; year: number; make: string; model: string; stocknum: string; vin: string | null; carType: string; price: number };
type Refs = {
  car: CarRef | null;
  locationId: number | null;
  dealership: { id: number; name: string; email: string; webhookUrl: string | null } | null;
  leadEmail: string | null;
};

async function resolveRefs(tx: Tx, tenant: Tenant, lead: LeadPayload, current?: { carId: number | null; locationId: number | null; dealershipId: number | null }): Promise<Refs> {
  const errors: Record<string, string> = {};
  if (lead.website_slug && lead.website_slug !== tenant.slug) errors['lead.website_slug'] = 'is not this website';

  const carId = lead.car_id ?? current?.carId ?? null;
  let car: CarRef | null = null;
  if (carId !== null) {
    [car = null] = await tx
      .select({ id: cars.id, dealershipId: cars.dealershipId, locationId: cars.locationId, year: cars.year, make: cars.make, model: cars.model, stocknum: cars.stocknum, vin: cars.vin, carType: cars.carType, price: cars.price })
      .from(cars)
      .where(and(eq(cars.websiteId, tenant.id), eq(cars.id, carId)));
    if (!car) errors['lead.car_id'] = 'is not a car of this website';
  }

  let location: { id: number; dealershipId: number; leadEmail: string | null } | null = null;
  const locationId = lead.location_id ?? current?.locationId ?? null;
  if (tenant.config.pushLeadsToWebsitePrimaryLocation) {
    [location = null] = await tx
      .select({ id: locations.id, dealershipId: locations.dealershipId, leadEmail: locations.leadEmail })
      .from(locations)
      .where(eq(locations.websiteId, tenant.id))
      .orderBy(sql`${locations.primary} desc`, asc(locations.position), asc(locations.id))
      .limit(1);
  } else if (locationId !== null) {
    [location = null] = await tx
      .select({ id: locations.id, dealershipId: locations.dealershipId, leadEmail: locations.leadEmail })
      .from(locations)
      .where(and(eq(locations.websiteId, tenant.id), eq(locations.id, locationId)));
    if (!location) errors['lead.location_id'] = 'is not a location of this website';
  }

  const tenantDealerships = await tx
    .select({ id: dealerships.id, slug: dealerships.slug, name: dealerships.name, email: dealerships.email, webhookUrl: leadWebhooks.url })
    .from(dealerships)
    .leftJoin(leadWebhooks, and(eq(leadWebhooks.dealershipId, dealerships.id), eq(leadWebhooks.websiteId, tenant.id), eq(leadWebhooks.enabled, true)))
    .where(eq(dealerships.websiteId, tenant.id))
    .orderBy(asc(dealerships.id));
  const bySlug = lead.dealership_slug ? tenantDealerships.find((d) => d.slug === lead.dealership_slug) : undefined;
  if (lead.dealership_slug && !bySlug) errors['lead.dealership_slug'] = 'is not a dealership of this website';
  if (lead.car_dealership_id !== undefined && !tenantDealerships.some((d) => d.id === lead.car_dealership_id)) {
    errors['lead.car_dealership_id'] = 'is not a dealership of this website';
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const dealershipId = location?.dealershipId ?? car?.dealershipId ?? bySlug?.id ?? current?.dealershipId ?? lead.car_dealership_id ?? tenantDealerships[0]?.id;
  const dealership = tenantDealerships.find((d) => d.id === dealershipId) ?? null;
  let leadEmail = location?.leadEmail || null;
  if (!leadEmail && car?.locationId && !location) {
    const [carLocation] = await tx.select({ leadEmail: locations.leadEmail }).from(locations).where(and(eq(locations.websiteId, tenant.id), eq(locations.id, car.locationId)));
    leadEmail = carLocation?.leadEmail || null;
  }
  return { car, locationId: location?.id ?? car?.locationId ?? null, dealership, leadEmail: leadEmail || dealership?.email || null };
}

function attributesOf(lead: LeadPayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(lead).filter(([key, value]) => !COLUMN_KEYS.has(key) && value !== undefined));
}

function isComplete(lead: { lead_status?: string; form_completed?: boolean }): boolean {
  return lead.lead_status !== 'Incomplete' && lead.form_completed !== false;
}

/** Earlier leads in the last day with this message from the same email or phone (many visitors keep a form's default message). */
async function sameMessageCount(tx: Tx, websiteId: number, lead: LeadPayload): Promise<number> {
  const { message, email, phone } = lead;
  if (!message || message.trim().length < 20 || (!email && !phone)) return 0;
  const sender = email && phone ? or(eq(leads.email, email), eq(leads.phone, phone)) : email ? eq(leads.email, email) : eq(leads.phone, phone!);
  const [row] = await tx
    .select({ n: count() })
    .from(leads)
    .where(and(eq(leads.websiteId, websiteId), eq(leads.message, message), sender, gt(leads.createdAt, sql`now() - interval '1 day'`)));
  return row?.n ?? 0;
}

async function findByIdempotencyKey(websiteId: number, key: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.websiteId, websiteId), eq(leads.idempotencyKey, key)));
  return row?.id ?? null;
}

/** POST /api/leads: stores the lead (or answers the first lead's id for a repeated Idempotency-Key). */
export async function createLead(tenant: Tenant, lead: LeadPayload, meta: SubmitMeta, files: UploadedFile[] = []): Promise<LeadResult> {
  if (meta.idempotencyKey) {
    const existing = await findByIdempotencyKey(tenant.id, meta.idempotencyKey);
    if (existing) return { id: existing, replayed: true };
  }
  const limit = await consumeLeadLimits(tenant.id, meta.ip, lead.phone);
  if (!limit.ok) throw new TooManyLeadsError(limit.message, limit.retryAfterSeconds);

  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const refs = await resolveRefs(tx, tenant, lead);
    const { category, subcategory, eventId } = normaliseCategory(lead.category ?? 'General Enquiry', lead.subcategory);
    const verdict = scoreLead({
      honeypot: lead[HONEYPOT_FIELD],
      fillMs: lead.fill_ms,
      minimumFillMs: tenant.config.leads.minimumFillSeconds * 1000,
      message: lead.message,
      email: lead.email,
      sameMessageCount: await sameMessageCount(tx, tenant.id, lead),
    });
    const complete = isComplete(lead);
    const [row] = await tx
      .insert(leads)
      .values({
        websiteId: tenant.id,
        dealershipId: refs.dealership?.id ?? null,
        locationId: refs.locationId,
        carId: refs.car?.id ?? null,
        category,
        subcategory: subcategory ?? null,
        name: leadName(lead),
        firstName: lead.first_name ?? null,
        lastName: lead.last_name ?? null,
        middleName: lead.middle_name ?? null,
        email: lead.email ?? null,
        phone: lead.phone ?? null,
        postcode: lead.postcode ?? null,
        message: lead.message ?? null,
        source: 'Website',
        url: lead.url ?? meta.referer,
        userAgent: meta.userAgent,
        visitedPages: lead.visited_pages ?? [],
        linkedQueryParams: Object.fromEntries(Object.entries(lead.linked_query_params ?? {}).filter(([, v]) => v !== '')),
        hasFiles: files.length > 0,
        leadStatus: complete ? 'Complete' : 'Incomplete',
        formCompleted: complete,
        skippedSteps: lead.skipped_steps ?? [],
        stepNumber: lead.step_number ?? null,
        attributes: attributesOf(lead),
        spam: verdict.spam,
        spamReasons: verdict.reasons,
        idempotencyKey: meta.idempotencyKey,
      })
      .onConflictDoNothing({ target: [leads.websiteId, leads.idempotencyKey] })
      .returning();
    if (!row) return null; // a concurrent request with the same key committed first
    const fileIds: string[] = [];
    for (const file of files) {
      const [stored] = await tx
        .insert(leadFiles)
        .values({ websiteId: tenant.id, leadId: row.id, fileName: file.fileName, contentType: file.contentType, size: file.content.length, sha256: createHash('sha256').update(file.content).digest('hex'), content: file.content })
        .returning({ id: leadFiles.id });
      fileIds.push(stored.id);
    }
    if (!verdict.spam) {
      await recordEvent(tx, tenant, row.id, eventId, lead, category, subcategory);
      if (complete) await enqueueDeliveries(tx, tenant, row, refs, fileIds);
    }
    return row.id;
  });
  if (result === null) {
    const existing = await findByIdempotencyKey(tenant.id, meta.idempotencyKey!);
    if (!existing) throw new Error('idempotent lead vanished');
    return { id: existing, replayed: true };
  }
  wakeDeliveryWorker();
  return { id: result, replayed: false };
}

/** PUT /api/leads/{id}: a later step of a multi-step form; completes the lead when it says so. */
export async function updateLead(tenant: Tenant, leadId: string, lead: LeadPayload, meta: SubmitMeta): Promise<LeadResult> {
  const db = await getDb();
  let delivered = false;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(leads)
      .where(and(eq(leads.websiteId, tenant.id), eq(leads.id, leadId)))
      .for('update');
    if (!current) throw new NotFoundError();
    const refs = await resolveRefs(tx, tenant, lead, current);
    const normalised = lead.category ? normaliseCategory(lead.category, lead.subcategory) : normaliseCategory(current.category, lead.subcategory ?? current.subcategory ?? undefined);
    const honeypot = lead[HONEYPOT_FIELD];
    const spam = current.spam || Boolean(honeypot && honeypot.trim() !== '');
    const complete = current.formCompleted || isComplete(lead);
    const name = lead.name !== undefined || lead.first_name !== undefined ? leadName({ name: lead.name, first_name: lead.first_name ?? current.firstName ?? undefined }) : current.name;
    await tx
      .update(leads)
      .set({
        dealershipId: refs.dealership?.id ?? current.dealershipId,
        locationId: refs.locationId ?? current.locationId,
        carId: refs.car?.id ?? current.carId,
        category: normalised.category,
        subcategory: normalised.subcategory ?? null,
        name,
        firstName: lead.first_name ?? current.firstName,
        lastName: lead.last_name ?? current.lastName,
        middleName: lead.middle_name ?? current.middleName,
        email: lead.email ?? current.email,
        phone: lead.phone ?? current.phone,
        postcode: lead.postcode ?? current.postcode,
        message: lead.message ?? current.message,
        url: lead.url ?? current.url,
        userAgent: meta.userAgent ?? current.userAgent,
        visitedPages: lead.visited_pages ?? current.visitedPages,
        linkedQueryParams: lead.linked_query_params ?? current.linkedQueryParams,
        leadStatus: complete ? 'Complete' : 'Incomplete',
        formCompleted: complete,
        skippedSteps: lead.skipped_steps ?? current.skippedSteps,
        stepNumber: lead.step_number ?? current.stepNumber,
        attributes: { ...current.attributes, ...attributesOf(lead) },
        spam,
        spamReasons: spam && !current.spam ? ['honeypot'] : current.spamReasons,
        updatedAt: new Date(),
      })
      .where(and(eq(leads.websiteId, tenant.id), eq(leads.id, leadId)));
    if (spam) return;
    await recordEvent(tx, tenant, leadId, normalised.eventId, lead, normalised.category, normalised.subcategory);
    if (complete) {
      const missing: Record<string, string> = {};
      if (!name) missing['lead.name'] = LEAD_MESSAGES.required;
      if (!(lead.email ?? current.email) && !(lead.phone ?? current.phone)) missing['lead.email'] = LEAD_MESSAGES.required;
      if (Object.keys(missing).length) throw new ValidationError(missing);
      const fileIds = (await tx.select({ id: leadFiles.id }).from(leadFiles).where(eq(leadFiles.leadId, leadId))).map((f) => f.id);
      const [updated] = await tx.select().from(leads).where(eq(leads.id, leadId));
      await enqueueDeliveries(tx, tenant, updated, refs, fileIds);
      delivered = true;
    }
  });
  if (delivered) wakeDeliveryWorker();
  return { id: leadId, replayed: false };
}

async function recordEvent(tx: Tx, tenant: Tenant, leadId: string, eventId: number, lead: LeadPayload, category: string, subcategory: string | undefined) {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, 200) : null);
  await tx.insert(analyticsEvents).values({
    websiteId: tenant.id,
    category: eventId,
    url: lead.url ?? null,
    leadId,
    anonId: text(lead.anon_id),
    sessionId: text(lead.session_id),
    eventProperties: { category, subcategory: subcategory ?? null, lead_status: lead.lead_status ?? 'Complete', step_number: lead.step_number ?? null },
  });
}

/** The outbox rows of a completed lead: email to the location's or dealership's lead address, the dealership's webhook. Once per lead and channel. */
async function enqueueDeliveries(tx: Tx, tenant: Tenant, row: LeadRow, refs: Refs, fileIds: string[]): Promise<void> {
  const leadId = row.id;
  const car = refs.car;
  const rows: { channel: 'email' | 'webhook'; payload: OutboxPayload }[] = [];
  if (refs.leadEmail) {
    const adf = buildAdf({
      leadId,
      createdAt: row.createdAt,
      firstName: row.firstName ?? row.name,
      lastName: row.lastName,
      email: row.email,
      phone: row.phone,
      postcode: row.postcode,
      message: row.message,
      category: row.category,
      subcategory: row.subcategory,
      dealershipName: refs.dealership?.name ?? tenant.name,
      websiteName: tenant.name,
      car,
    });
    rows.push({ channel: 'email', payload: { kind: 'email', to: refs.leadEmail, subject: emailSubject(row, tenant, car), text: emailText(row, tenant, car), adf, attachmentIds: fileIds } });
  }
  if (refs.dealership?.webhookUrl) {
    rows.push({ channel: 'webhook', payload: { kind: 'webhook', url: refs.dealership.webhookUrl, body: JSON.stringify({ lead: leadJson(row, tenant) }) } });
  }
  if (rows.length === 0) return;
  await tx
    .insert(leadDeliveries)
    .values(rows.map((r) => ({ websiteId: tenant.id, leadId, channel: r.channel, payload: r.payload })))
    .onConflictDoNothing({ target: [leadDeliveries.leadId, leadDeliveries.channel] });
}

type LeadRow = typeof leads.$inferSelect;

function emailSubject(row: LeadRow, tenant: Tenant, car: CarRef | null): string {
  const about = car ? ` about the ${car.year} ${car.make} ${car.model}` : '';
  return `${row.category}${about} from ${row.name || 'a visitor'} (${tenant.name})`.replace(/[\r\n]+/g, ' ').slice(0, 250);
}

function emailText(row: LeadRow, tenant: Tenant, car: CarRef | null): string {
  const lines: [string, string | null | undefined][] = [
    ['Enquiry', [row.category, row.subcategory].filter(Boolean).join(' / ')],
    ['Name', [row.name, row.lastName].filter(Boolean).join(' ')],
    ['Email', row.email],
    ['Phone', row.phone],
    ['Postcode', row.postcode],
    ['Vehicle', car ? `${car.year} ${car.make} ${car.model} (stock ${car.stocknum || '-'}${car.vin ? `, VIN ${car.vin}` : ''})` : null],
    ['Message', row.message],
    ['Page', row.url],
    ['Website', tenant.name],
    ['Lead id', row.id],
  ];
  const extra = Object.entries(row.attributes).map(([key, value]) => [key, Array.isArray(value) ? value.join(', ') : String(value ?? '')] as [string, string]);
  return [...lines, ...extra]
    .filter(([, value]) => value)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');
}

/** A lead as the dashboard API and the webhook give it (SPEC §3 Lead payload names). */
export function leadJson(row: LeadRow, tenant: Pick<Tenant, 'slug'>) {
  return {
    id: row.id,
    website_slug: tenant.slug,
    dealership_id: row.dealershipId,
    location_id: row.locationId,
    car_id: row.carId,
    category: row.category,
    subcategory: row.subcategory,
    name: row.name,
    first_name: row.firstName,
    last_name: row.lastName,
    middle_name: row.middleName,
    email: row.email,
    phone: row.phone,
    postcode: row.postcode,
    message: row.message,
    source: row.source,
    url: row.url,
    user_agent: row.userAgent,
    visited_pages: row.visitedPages,
    linked_query_params: row.linkedQueryParams,
    has_files: row.hasFiles,
    lead_status: row.leadStatus,
    form_completed: row.formCompleted,
    skipped_steps: row.skippedSteps,
    step_number: row.stepNumber,
    attributes: row.attributes,
    spam: row.spam,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
