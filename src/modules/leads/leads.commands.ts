import 'server-only';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db, type Tx } from '@/db';
import { insertRowsSql, rowsOf } from '@/db/rows';
import { ConflictError, NotFoundError, ValidationError } from '@/lib/http';
import { dealerships } from '../tenancy/tenancy.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { visibleCarsWhere } from '@/modules/stock/server';
import { analyticsEvents } from '../widgets/widgets.schema';
import { buildAdf } from './leads.adf';
import { wakeDeliveryWorker } from './leads.delivery';
import { editTokenMatches, newEditToken } from './leads.tokens';
import { dateCheck, DATE_FIELD_NAMES } from './form-rules/checks';
import { leadEmailSubject, leadEmailText } from './leads.email';
import { env } from '@/lib/env';
import { checkedAddresses, RefusedAddressError, type Resolver } from '@/lib/outbound-address';
import { consumeLimits, countLimitsSql, limitVerdict, throwIfRefused, type LimitCount } from '@/lib/rate-limit';
import { leadLimits, leadStepLimits } from './leads.limits';
import { CATEGORIES } from './form-rules/categories';
import { normaliseCategory } from './form-rules/flow';
import { leadDeliveries, leadFiles, leads, leadWebhooks, type OutboxPayload } from './leads.schema';
import { scoreLead } from './leads.spam';
import { HONEYPOT_FIELD, leadName, type LeadPayload } from './form-rules/schemas';
import { LEAD_MESSAGES } from './form-rules/messages';
import { formPhoneVerified } from '@/modules/identity/server';

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
  /** The secret the first step answered (leads.tokens.ts), presented by later steps. */
  editToken: string | null;
};

export type UploadedFile = { fileName: string; contentType: string; content: Buffer };

/** `token`: the secret a later step must present (leads.tokens.ts). */
export type LeadResult = { id: string; token: string | null; replayed: boolean };

export const LEAD_UPDATE_MESSAGES = {
  /** A completed lead is not changed again; its final step repeated answers its id. */
  completed: 'This enquiry has already been sent.',
} as const;

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
type CurrentRefs = { carId: number | null; locationId: number | null; dealershipId: number | null };
type LocationRef = { id: number; dealershipId: number; leadEmail: string | null };
type DealershipRef = { id: number; slug: string; name: string; email: string; webhookUrl: string | null };
type Context = {
  /** The lead an earlier submission with the same Idempotency-Key stored. */
  existingId: string | null;
  car: CarRef | null;
  location: LocationRef | null;
  carLocationEmail: string | null;
  dealerships: DealershipRef[];
  sameMessageCount: number;
};

/**
 * Everything a submission needs to read, in one statement: the lead of its Idempotency-Key, the
 * car and location it names (of this website only), the website's dealerships with their webhooks,
 * and the repeated-message count for the spam score (earlier leads in the last day with this
 * message from the same email or phone; many visitors keep a form's default message).
 */
async function readContext(db: Db | Tx, tenant: Tenant, lead: LeadPayload, options: { idempotencyKey?: string | null; current?: CurrentRefs; countSameMessage?: boolean }): Promise<Context> {
  const w = tenant.id;
  const carId = lead.car_id ?? options.current?.carId ?? null;
  const locationId = lead.location_id ?? options.current?.locationId ?? null;
  const { message, email, phone } = lead;
  const countSameMessage = options.countSameMessage && message && message.trim().length >= 20 && (email || phone);
  const sender = email && phone ? sql`(email = ${email} or phone = ${phone})` : email ? sql`email = ${email}` : sql`phone = ${phone ?? null}`;
  const locationColumns = sql`id, dealership_id as "dealershipId", lead_email as "leadEmail"`;
  const location = tenant.config.pushLeadsToWebsitePrimaryLocation
    ? sql`(select row_to_json(l) from (select ${locationColumns} from locations where website_id = ${w} order by "primary" desc, position, id limit 1) l)`
    : locationId !== null
      ? sql`(select row_to_json(l) from (select ${locationColumns} from locations where website_id = ${w} and id = ${locationId}) l)`
      : sql`null`;
  const [row] = rowsOf<Context>(
    await db.execute(sql`select
      ${options.idempotencyKey ? sql`(select id from leads where website_id = ${w} and idempotency_key = ${options.idempotencyKey})` : sql`null`} as "existingId",
      ${carId !== null ? sql`(select row_to_json(c) from (select id, dealership_id as "dealershipId", location_id as "locationId", year, make, model, stocknum, vin, car_type as "carType", price from cars where website_id = ${w} and id = ${carId} and ${visibleCarsWhere(tenant, new Date())}) c)` : sql`null`} as car,
      ${location}::json as location,
      ${carId !== null ? sql`(select l.lead_email from cars c join locations l on l.website_id = c.website_id and l.id = c.location_id where c.website_id = ${w} and c.id = ${carId})` : sql`null`} as "carLocationEmail",
      (select coalesce(json_agg(d order by d.id), '[]') from (
        select d.id, d.slug, d.name, d.email, h.url as "webhookUrl" from dealerships d
        left join lead_webhooks h on h.dealership_id = d.id and h.website_id = ${w} and h.enabled
        where d.website_id = ${w}) d) as dealerships,
      ${countSameMessage ? sql`(select count(*)::int from leads where website_id = ${w} and message = ${message} and ${sender} and created_at > now() - interval '1 day')` : sql`0`} as "sameMessageCount"`),
  );
  return row;
}

/**
 * The references a lead names, checked against the website (422 naming each foreign one), and where
 * its email goes; with its dates, which are refused before today in the website's time zone.
 */
function checkRefs(tenant: Tenant, lead: LeadPayload, context: Context, current?: CurrentRefs): Refs {
  const errors: Record<string, string> = {};
  if (lead.website_slug && lead.website_slug !== tenant.slug) errors['lead.website_slug'] = 'is not this website';
  const { car, location, dealerships } = context;
  // A car the website does not list (another website's, hidden, long sold) is treated as no car:
  // the visitor did not type its id, and the answer must not tell listed ids from unlisted ones.
  if (!tenant.config.pushLeadsToWebsitePrimaryLocation && (lead.location_id ?? current?.locationId ?? null) !== null && !location) {
    errors['lead.location_id'] = 'is not a location of this website';
  }
  const bySlug = lead.dealership_slug ? dealerships.find((d) => d.slug === lead.dealership_slug) : undefined;
  if (lead.dealership_slug && !bySlug) errors['lead.dealership_slug'] = 'is not a dealership of this website';
  if (lead.car_dealership_id !== undefined && !dealerships.some((d) => d.id === lead.car_dealership_id)) {
    errors['lead.car_dealership_id'] = 'is not a dealership of this website';
  }
  for (const name of DATE_FIELD_NAMES) {
    const value = lead[name];
    const message = value === undefined || value === null || value === '' ? null : dateCheck(tenant.config.timeZone)(String(value));
    if (message) errors[`lead.${name}`] = message;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const dealershipId = location?.dealershipId ?? car?.dealershipId ?? bySlug?.id ?? current?.dealershipId ?? lead.car_dealership_id ?? dealerships[0]?.id;
  const dealership = dealerships.find((d) => d.id === dealershipId) ?? null;
  const leadEmail = location?.leadEmail || (location ? null : context.carLocationEmail) || dealership?.email || null;
  return { car, locationId: location?.id ?? car?.locationId ?? null, dealership, leadEmail };
}

/** Set by the platform only (below), never taken from the visitor. */
const SERVER_ATTRIBUTES = new Set(['phone_verified']);

function attributesOf(lead: LeadPayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(lead).filter(([key, value]) => !COLUMN_KEYS.has(key) && !SERVER_ATTRIBUTES.has(key) && value !== undefined));
}

/**
 * A finished finance enquiry says whether its phone passed a code on this website in the last 15
 * minutes (the instant finance popup verifies it before applying), so the dealer knows it is real.
 */
async function verifiedPhoneAttribute(tenant: Tenant, category: string, phone: string | null, complete: boolean): Promise<Record<string, boolean>> {
  if (!complete || category !== CATEGORIES.finance) return {};
  return { phone_verified: await formPhoneVerified(tenant, phone) };
}

function isComplete(lead: { lead_status?: string; form_completed?: boolean }): boolean {
  return lead.lead_status !== 'Incomplete' && lead.form_completed !== false;
}

async function findByIdempotencyKey(websiteId: number, key: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.websiteId, websiteId), eq(leads.idempotencyKey, key)));
  return row?.id ?? null;
}

/**
 * POST /api/leads: stores the lead (or answers the first lead's id for a repeated Idempotency-Key).
 * Two statements (decision 018): one reads what the submission needs (readContext); one counts
 * the limits and, when within them, inserts the lead, its files, its analytics event and its
 * outbox rows. The lead's id and timestamps are made here so the outbox payloads can be built
 * before that statement.
 */
export async function createLead(tenant: Tenant, lead: LeadPayload, meta: SubmitMeta, files: UploadedFile[] = []): Promise<LeadResult> {
  const db = await getDb();
  const context = await readContext(db, tenant, lead, { idempotencyKey: meta.idempotencyKey, countSameMessage: true });
  if (context.existingId) return replayLead(db, tenant, context.existingId);
  const refs = checkRefs(tenant, lead, context);
  const { category, subcategory, eventId } = normaliseCategory(lead.category ?? 'General Enquiry', lead.subcategory);
  const verdict = scoreLead({
    honeypot: lead[HONEYPOT_FIELD],
    fillMs: lead.fill_ms,
    minimumFillMs: tenant.config.leads.minimumFillSeconds * 1000,
    message: lead.message,
    email: lead.email,
    sameMessageCount: context.sameMessageCount,
  });
  const complete = isComplete(lead);
  const verified = await verifiedPhoneAttribute(tenant, category, lead.phone ?? null, complete);
  const now = new Date();
  const editToken = newEditToken();
  const row: LeadRow = {
    id: randomUUID(),
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
    attributes: { ...attributesOf(lead), ...verified },
    spam: verdict.spam,
    spamReasons: verdict.reasons,
    idempotencyKey: meta.idempotencyKey,
    editTokenHash: editToken.hash,
    createdAt: now,
    updatedAt: now,
  };
  const fileRows = files.map((file) => fileRow(tenant, row.id, file));
  const limits = leadLimits(tenant.id, meta.ip, lead.phone);

  // Every insert after the lead's reads `stored_lead`, so none happens when the lead is refused
  // by a limit or loses an Idempotency-Key race.
  const afterLead: SQL[] = fileRows.map(
    (file, i) => sql`, stored_file_${sql.raw(String(i))} as (insert into lead_files (id, website_id, lead_id, file_name, content_type, size, sha256, content)
      select ${file.id}::uuid, ${tenant.id}, id, ${file.fileName}, ${file.contentType}, ${file.size}, ${file.sha256}, ${file.content}::bytea from stored_lead)`,
  );
  if (!verdict.spam) {
    afterLead.push(sql`, stored_event as (${insertRowsSql(analyticsEvents, [eventRow(tenant, row.id, eventId, lead, category, subcategory)], sql`where exists (select 1 from stored_lead)`)})`);
    const deliveries = complete ? deliveryRows(tenant, row, refs, fileRows.map((f) => f.id)) : [];
    if (deliveries.length > 0) afterLead.push(sql`, stored_deliveries as (${insertRowsSql(leadDeliveries, deliveries, sql`where exists (select 1 from stored_lead)`)})`);
  }
  const [result] = rowsOf<{ id: string | null; limits: LimitCount[] | null }>(
    await db.execute(sql`with ${countLimitsSql(limits)},
      stored_lead as (${insertRowsSql(leads, [row], sql`where (select ok from within_limits) on conflict (website_id, idempotency_key) do nothing returning id`)})
      ${sql.join(afterLead)}
      select (select id from stored_lead) as id, (select json_agg(limit_counts) from limit_counts) as limits`),
  );
  if (result.id === null) {
    throwIfRefused(limitVerdict(limits, result.limits ?? []));
    // A concurrent request with the same key committed first.
    const existing = await findByIdempotencyKey(tenant.id, meta.idempotencyKey!);
    if (!existing) throw new Error('idempotent lead vanished');
    return replayLead(db, tenant, existing);
  }
  wakeDeliveryWorker();
  return { id: row.id, token: editToken.token, replayed: false };
}

/** A lead's file as stored (lead_files), checksummed. */
function fileRow(tenant: Tenant, leadId: string, file: UploadedFile) {
  const { fileName, contentType, content } = file;
  return { id: randomUUID(), websiteId: tenant.id, leadId, fileName, contentType, size: content.length, sha256: createHash('sha256').update(content).digest('hex'), content };
}

/**
 * A repeated Idempotency-Key: the first lead's id, with a new edit token (only its hash was kept,
 * and the key proves the caller made the first request as much as the first token would).
 */
async function replayLead(db: Db, tenant: Tenant, id: string): Promise<LeadResult> {
  const editToken = newEditToken();
  await db.update(leads).set({ editTokenHash: editToken.hash }).where(and(eq(leads.websiteId, tenant.id), eq(leads.id, id)));
  return { id, token: editToken.token, replayed: true };
}

/**
 * PUT /api/leads/{id}: a later step of a multi-step form; completes the lead when it says so.
 * Only with the lead's edit token (else 404, as for an unknown id), counted against the per-IP step
 * limit and, when it brings a new phone number, that number's lead limit. A completed lead is not
 * changed again: its final step repeated answers its id. Files (a multipart step: trade-in photos)
 * are kept with the lead and go with its email.
 */
export async function updateLead(tenant: Tenant, leadId: string, lead: LeadPayload, meta: SubmitMeta, files: UploadedFile[] = []): Promise<LeadResult> {
  const db = await getDb();
  await consumeLimits(db, leadStepLimits(tenant.id, meta.ip));
  // Before the transaction: the embedded database runs one statement at a time.
  const verified = lead.category ? await verifiedPhoneAttribute(tenant, normaliseCategory(lead.category, lead.subcategory).category, lead.phone ?? null, isComplete(lead)) : {};
  let delivered = false;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(leads)
      .where(and(eq(leads.websiteId, tenant.id), eq(leads.id, leadId)))
      .for('update');
    if (!current || !editTokenMatches(meta.editToken, current.editTokenHash)) throw new NotFoundError();
    if (current.formCompleted) {
      if (isComplete(lead)) return;
      throw new ConflictError(LEAD_UPDATE_MESSAGES.completed);
    }
    if (lead.phone && lead.phone !== current.phone) await consumeLimits(tx, leadLimits(tenant.id, null, lead.phone));
    const refs = checkRefs(tenant, lead, await readContext(tx, tenant, lead, { current }), current);
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
        attributes: { ...current.attributes, ...attributesOf(lead), ...verified },
        hasFiles: current.hasFiles || files.length > 0,
        spam,
        spamReasons: spam && !current.spam ? ['honeypot'] : current.spamReasons,
        updatedAt: new Date(),
      })
      .where(and(eq(leads.websiteId, tenant.id), eq(leads.id, leadId)));
    if (files.length > 0) await tx.insert(leadFiles).values(files.map((file) => fileRow(tenant, leadId, file)));
    if (spam) return;
    await tx.insert(analyticsEvents).values(eventRow(tenant, leadId, normalised.eventId, lead, normalised.category, normalised.subcategory));
    if (complete) {
      const missing: Record<string, string> = {};
      if (!name) missing['lead.name'] = LEAD_MESSAGES.required;
      if (!(lead.email ?? current.email) && !(lead.phone ?? current.phone)) missing['lead.email'] = LEAD_MESSAGES.required;
      if (Object.keys(missing).length) throw new ValidationError(missing);
      const fileIds = (await tx.select({ id: leadFiles.id }).from(leadFiles).where(eq(leadFiles.leadId, leadId))).map((f) => f.id);
      const [updated] = await tx.select().from(leads).where(eq(leads.id, leadId));
      const deliveries = deliveryRows(tenant, updated, refs, fileIds);
      if (deliveries.length > 0) await tx.insert(leadDeliveries).values(deliveries).onConflictDoNothing({ target: [leadDeliveries.leadId, leadDeliveries.channel] });
      delivered = true;
    }
  });
  if (delivered) wakeDeliveryWorker();
  return { id: leadId, token: null, replayed: false };
}

function eventRow(tenant: Tenant, leadId: string, eventId: number, lead: LeadPayload, category: string, subcategory: string | undefined): typeof analyticsEvents.$inferInsert {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value.slice(0, 200) : null);
  return {
    websiteId: tenant.id,
    category: eventId,
    url: lead.url ?? null,
    leadId,
    anonId: text(lead.anon_id),
    sessionId: text(lead.session_id),
    eventProperties: { category, subcategory: subcategory ?? null, lead_status: lead.lead_status ?? 'Complete', step_number: lead.step_number ?? null },
  };
}

/** The outbox rows of a completed lead: email to the location's or dealership's lead address, the dealership's webhook. Once per lead and channel (unique index). */
function deliveryRows(tenant: Tenant, row: LeadRow, refs: Refs, fileIds: string[]): (typeof leadDeliveries.$inferInsert)[] {
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
    rows.push({ channel: 'email', payload: { kind: 'email', to: refs.leadEmail, subject: leadEmailSubject(row, tenant, car), text: leadEmailText(row, tenant, car), adf, attachmentIds: fileIds } });
  }
  if (refs.dealership?.webhookUrl) {
    rows.push({ channel: 'webhook', payload: { kind: 'webhook', url: refs.dealership.webhookUrl, body: JSON.stringify({ lead: leadJson(row, tenant) }) } });
  }
  return rows.map((r) => ({ websiteId: tenant.id, leadId, channel: r.channel, payload: r.payload }));
}

type LeadRow = typeof leads.$inferSelect;

/**
 * The outbox rows that deliver a lead left 'Incomplete' as partial (leads.partial.ts): the same
 * email and webhook as a completed lead's, on their own channels (partial_email, partial_webhook),
 * so the completed lead is still delivered when the visitor finishes, and marked as partial.
 */
export async function partialDeliveryRows(db: Db | Tx, tenant: Tenant, row: LeadRow, fileIds: string[]): Promise<(typeof leadDeliveries.$inferInsert)[]> {
  const current = { carId: row.carId, locationId: row.locationId, dealershipId: row.dealershipId };
  const refs = checkRefs(tenant, {} as LeadPayload, await readContext(db, tenant, {} as LeadPayload, { current }), current);
  return deliveryRows(tenant, row, refs, fileIds).map((delivery) => {
    const payload = delivery.payload;
    const partial: OutboxPayload =
      payload.kind === 'email'
        ? { ...payload, subject: `Partial lead: ${payload.subject}`.slice(0, 250), text: `${PARTIAL_NOTE}\n\n${payload.text}` }
        : { ...payload, body: JSON.stringify({ ...(JSON.parse(payload.body) as object), partial: true }) };
    return { ...delivery, channel: delivery.channel === 'email' ? 'partial_email' : 'partial_webhook', payload: partial };
  });
}

export const PARTIAL_NOTE = 'This visitor started the form but has not finished it. If they finish, the complete lead follows.';

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

export type LeadWebhookSet = { websiteId: number; dealershipId: number; url: string; secret: string };

/**
 * Points a dealership's lead webhook at `url` (`npm run leads:webhook`): made, or replaced and
 * enabled, always with a new signing secret, which is answered this once for the dealer's receiver
 * (it checks X-Lead-Signature with it). https, or http to a receiver on this machine; and, as the
 * delivery will insist (leads.delivery.ts), a public address unless LEAD_WEBHOOK_ALLOW_PRIVATE=1:
 * a loopback or private literal, or a name resolving to one, is refused here already. A name that
 * does not resolve yet is accepted (each delivery checks it again). Null: no such dealership.
 */
export async function setLeadWebhook(dealershipSlug: string, url: string, options: { resolve?: Resolver } = {}): Promise<LeadWebhookSet | null> {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const local = parsed?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (!parsed || !(parsed.protocol === 'https:' || local) || parsed.username || parsed.password) {
    throw new ValidationError({ url: 'must be an https address without credentials (or http on this machine)' });
  }
  try {
    await checkedAddresses(parsed, { allowPrivate: env().leadWebhookAllowPrivate, resolve: options.resolve });
  } catch (error) {
    if (error instanceof RefusedAddressError) throw new ValidationError({ url: error.message });
  }
  const db = await getDb();
  const [dealership] = await db.select({ id: dealerships.id, websiteId: dealerships.websiteId }).from(dealerships).where(eq(dealerships.slug, dealershipSlug)).limit(1);
  if (!dealership) return null;
  const hook = { websiteId: dealership.websiteId, dealershipId: dealership.id, url: parsed.href, secret: randomBytes(32).toString('base64url') };
  await db
    .insert(leadWebhooks)
    .values(hook)
    .onConflictDoUpdate({ target: leadWebhooks.dealershipId, set: { websiteId: hook.websiteId, url: hook.url, secret: hook.secret, enabled: true } });
  return hook;
}
