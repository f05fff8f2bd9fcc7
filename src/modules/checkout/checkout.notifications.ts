import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db';
import { rowsOf } from '@/db/rows';
import { formatDate, formatMoney } from '@/lib/format';
import { buildAdf, leadJson } from '@/modules/leads/server';
import { leadDeliveries, leads, type OutboxPayload } from '../leads/leads.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import type { reservations } from './checkout.schema';
import { REFUND_LINK_DAYS, type RefundLinkSigner } from './checkout.refund-link';
import { siteOrigin } from '../tenancy/tenancy.paths';
import { DEFAULT_REFUND_TERMS } from './checkout.validation';

/**
 * What a completed reservation tells people, through the leads module's outbox (decision 010):
 * a 'Reservation' lead, written in the transaction that completes the reservation, with its
 * deliveries — the dealer's email with the ADF/XML lead, the dealership's webhook, and the
 * visitor's confirmation (channel visitor_email). The outbox's unique (lead, channel) and the
 * one transition that makes the lead are what make each happen exactly once.
 */

export const RESERVATION_CATEGORY = 'Reservation';

type Reservation = typeof reservations.$inferSelect;

type Context = {
  year: number;
  make: string;
  model: string;
  stocknum: string;
  vin: string | null;
  carType: string;
  price: number;
  locationId: number | null;
  dealershipName: string;
  dealershipEmail: string;
  dealershipPhone: string;
  locationName: string | null;
  locationPhone: string | null;
  locationEmail: string | null;
  locationAddress: string | null;
  webhookUrl: string | null;
};

async function readContext(tx: Tx, row: Reservation): Promise<Context | null> {
  const [context] = rowsOf<Context>(
    await tx.execute(sql`select c.year, c.make, c.model, c.stocknum, c.vin, c.car_type as "carType", c.price, c.location_id as "locationId",
        d.name as "dealershipName", d.email as "dealershipEmail", d.phone as "dealershipPhone",
        l.name as "locationName", l.phone as "locationPhone", l.lead_email as "locationEmail",
        nullif(concat_ws(', ', nullif(l.street, ''), nullif(l.city, ''), nullif(l.state, ''), nullif(l.postcode, '')), '') as "locationAddress",
        h.url as "webhookUrl"
      from cars c
      join dealerships d on d.website_id = c.website_id and d.id = ${row.dealershipId}
      left join locations l on l.website_id = c.website_id and l.id = c.location_id
      left join lead_webhooks h on h.website_id = c.website_id and h.dealership_id = d.id and h.enabled
      where c.website_id = ${row.websiteId} and c.id = ${row.carId}`),
  );
  return context ?? null;
}

const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').slice(0, 250);

/**
 * The dealer's way to cancel and refund from the email (issue 31): a signed, single-use link to a
 * confirmation page on the website (checkout.refund-link.ts), valid REFUND_LINK_DAYS days; the
 * Dashboard API's refund stays for integrations.
 */
async function refundLinkLines(tenant: Tenant, row: Reservation, signer: RefundLinkSigner, now: Date): Promise<string[]> {
  const link = await signer({ id: row.id, websiteId: row.websiteId, dealershipId: row.dealershipId }, now);
  const url = tenant.url ? new URL(link.path, siteOrigin(tenant, '')).toString() : link.path;
  return [
    'To cancel the reservation and refund the deposit, open this link. It shows the reservation and asks you to confirm before anything is refunded;',
    `it works once, for ${REFUND_LINK_DAYS} days (until ${formatDate(tenant.config, link.expiresAt, 'dateTime')}):`,
    url,
  ];
}

/**
 * The reservation's lead and its deliveries. `partial`: the online purchase's partial lead (locked
 * by the caller), completed as this lead — its steps' answers kept, the reservation's added — so
 * the dealer gets one lead, not the partial one and another.
 */
export async function reservationLeadRows(
  tx: Tx,
  tenant: Tenant,
  row: Reservation,
  leadId: string,
  partial: typeof leads.$inferSelect | null,
  signer: RefundLinkSigner,
): Promise<void> {
  const context = await readContext(tx, row);
  const deposit = formatMoney(tenant.config, row.amountMinor / 100);
  const visitor = row.visitor;
  const fullName = [visitor.name, visitor.last_name].filter(Boolean).join(' ');
  const what = row.kind === 'buy_online' ? 'Online purchase deposit' : 'Reservation deposit';
  const message = `${what} of ${deposit} ${row.currency} paid online for ${row.carName} (reservation ${row.id}). The car is marked reserved on the website.`;
  const now = new Date();
  // The partial lead the choices named is this lead itself (below): its id is not a choice to tell.
  const { lead_id: _partialLead, ...choices } = row.choices;
  const lead: typeof leads.$inferSelect = {
    id: leadId,
    websiteId: row.websiteId,
    dealershipId: row.dealershipId,
    locationId: context?.locationId ?? null,
    carId: row.carId,
    category: RESERVATION_CATEGORY,
    subcategory: row.kind === 'buy_online' ? 'Online Purchase' : null,
    name: visitor.name,
    firstName: visitor.name,
    lastName: visitor.last_name,
    middleName: null,
    email: visitor.email,
    phone: visitor.phone,
    postcode: visitor.postcode,
    message,
    source: 'Website',
    url: `/cars/${row.carSlug}/checkout`,
    userAgent: null,
    visitedPages: [],
    linkedQueryParams: {},
    hasFiles: false,
    leadStatus: 'Complete',
    formCompleted: true,
    skippedSteps: [],
    stepNumber: null,
    attributes: { reservation_id: row.id, deposit: row.amountMinor / 100, currency: row.currency, payment_provider: row.provider, payment_reference: row.providerRef, ...choices },
    spam: false,
    spamReasons: [],
    idempotencyKey: `reservation-${row.id}`,
    editTokenHash: null,
    createdAt: now,
    updatedAt: now,
  };
  if (partial) {
    Object.assign(lead, {
      url: partial.url ?? lead.url,
      userAgent: partial.userAgent,
      visitedPages: partial.visitedPages,
      linkedQueryParams: partial.linkedQueryParams,
      skippedSteps: partial.skippedSteps,
      stepNumber: partial.stepNumber,
      attributes: { ...partial.attributes, ...lead.attributes },
      idempotencyKey: partial.idempotencyKey,
      editTokenHash: partial.editTokenHash,
      createdAt: partial.createdAt,
    });
    const { id: _id, websiteId: _websiteId, ...changes } = lead;
    await tx.update(leads).set(changes).where(and(eq(leads.websiteId, row.websiteId), eq(leads.id, partial.id)));
  } else {
    await tx.insert(leads).values(lead);
  }

  const deliveries: { channel: 'email' | 'webhook' | 'visitor_email'; payload: OutboxPayload }[] = [];
  const dealerEmail = context?.locationEmail || context?.dealershipEmail || null;
  if (dealerEmail && context) {
    const car = { year: context.year, make: context.make, model: context.model, stocknum: context.stocknum, vin: context.vin, carType: context.carType, price: context.price };
    const adf = buildAdf({ leadId, createdAt: now, firstName: visitor.name, lastName: visitor.last_name, email: visitor.email, phone: visitor.phone, postcode: visitor.postcode, message, category: RESERVATION_CATEGORY, subcategory: lead.subcategory, dealershipName: context.dealershipName, websiteName: tenant.name, car });
    const text = [
      `${what}: ${deposit} ${row.currency}, paid and captured.`,
      `Vehicle: ${context.year} ${context.make} ${context.model} (stock ${context.stocknum || '-'}${context.vin ? `, VIN ${context.vin}` : ''})`,
      `Name: ${fullName}`,
      `Email: ${visitor.email}`,
      `Phone: ${visitor.phone}`,
      `Postcode: ${visitor.postcode}`,
      ...Object.entries(choices).map(([key, value]) => `${key}: ${String(value)}`),
      `Payment: ${row.provider} ${row.providerRef ?? ''}`.trim(),
      `Reservation id: ${row.id}`,
      `Website: ${tenant.name}`,
      '',
      'The car is now shown as reserved.',
      ...(await refundLinkLines(tenant, row, signer, now)),
    ].join('\n');
    deliveries.push({ channel: 'email', payload: { kind: 'email', to: dealerEmail, subject: oneLine(`Reservation: ${deposit} deposit for the ${context.year} ${context.make} ${context.model} from ${fullName} (${tenant.name})`), text, adf, attachmentIds: [] } });
  }
  if (context?.webhookUrl) {
    const body = JSON.stringify({
      lead: leadJson(lead, tenant),
      reservation: { id: row.id, status: row.status, kind: row.kind, car_id: row.carId, amount: row.amountMinor / 100, currency: row.currency, provider: row.provider, payment_reference: row.providerRef, held_at: row.heldAt?.toISOString() ?? null, captured_at: row.capturedAt?.toISOString() ?? null },
    });
    deliveries.push({ channel: 'webhook', payload: { kind: 'webhook', url: context.webhookUrl, body } });
  }
  const dealerName = context?.dealershipName ?? tenant.name;
  const contact = [
    `${dealerName}${context?.locationName ? `, ${context.locationName}` : ''}`,
    context?.locationAddress,
    (context?.locationPhone || context?.dealershipPhone || tenant.phone) && `Phone: ${context?.locationPhone || context?.dealershipPhone || tenant.phone}`,
    (context?.locationEmail || context?.dealershipEmail) && `Email: ${context?.locationEmail || context?.dealershipEmail}`,
  ].filter(Boolean);
  const visitorText = [
    `Hi ${visitor.name},`,
    '',
    `Thank you: your deposit of ${deposit} has been paid and the ${row.carName} is now reserved for you.`,
    '',
    'What happens next',
    `- ${dealerName} will contact you within one business day to arrange a time for you to see and drive the car.`,
    '- Bring your driver licence. If you are trading in a car, bring it and its papers too.',
    '- The deposit counts towards the price when you buy the car.',
    '',
    'Refund terms',
    tenant.config.checkout.refundTerms ?? DEFAULT_REFUND_TERMS,
    '',
    'Your dealer',
    ...contact,
    '',
    `Reservation reference: ${row.id}`,
  ].join('\n');
  deliveries.push({
    channel: 'visitor_email',
    payload: { kind: 'email', to: visitor.email, subject: oneLine(`Your reservation of the ${row.carName} at ${dealerName}`), text: visitorText, adf: '', attachmentIds: [] },
  });
  await tx
    .insert(leadDeliveries)
    .values(deliveries.map((d) => ({ websiteId: row.websiteId, leadId, channel: d.channel, payload: d.payload })))
    .onConflictDoNothing({ target: [leadDeliveries.leadId, leadDeliveries.channel] });
}
