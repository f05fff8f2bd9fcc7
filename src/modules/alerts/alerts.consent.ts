import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { customers } from '@/modules/identity/identity.schema';
import { platformSecret } from '@/modules/identity/server';
import { alertItems, alertSubscriptions, type AlertChannel } from './alerts.schema';

/**
 * A visitor's consent to alerts (decision 066): given with the exact wording shown beside the box
 * and its time, ended by an unsubscribe that needs no sign-in (a link signed with the platform's
 * secret). Nothing is found or sent for a visitor without a live consent.
 */

/** The unsubscribe page (GET shows, its button posts); the API path takes the one-click POST of RFC 8058. */
export const UNSUBSCRIBE_PATH = '/alerts/unsubscribe';
export const UNSUBSCRIBE_API_PATH = '/api/alerts/unsubscribe';

export const ALERT_MESSAGES = {
  consentRequired: 'Tick the box to agree to receive alerts.',
  email: 'Enter a valid email address.',
  unsubscribed: 'You will get no more alerts from this website.',
  badLink: 'This unsubscribe link is not valid for this website.',
} as const;

/** What the visitor agrees to, word for word as the garage's form shows it and as it is recorded with the channel chosen. */
export function consentWording(tenant: Pick<Tenant, 'name'>): string {
  return `I agree to receive alerts from ${tenant.name}, by the email or SMS I chose, about the cars and searches I save: new matching stock, price drops, and cars sold, reserved or back in stock. At most one message a day, unless I choose price drops as they happen. I can unsubscribe at any time with the link in every message.`;
}

export type AlertSettings = {
  on: boolean;
  channel: AlertChannel | null;
  address: string | null;
  instant_price_drops: boolean;
  consented_at: string | null;
  consent_text: string | null;
};

export async function alertSettings(tenant: Tenant, customerId: string): Promise<AlertSettings> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(alertSubscriptions)
    .where(and(eq(alertSubscriptions.customerId, customerId), eq(alertSubscriptions.websiteId, tenant.id)));
  const on = Boolean(row && !row.unsubscribedAt);
  return {
    on,
    channel: on ? row!.channel : null,
    address: on ? row!.address : null,
    instant_price_drops: on ? row!.instantPriceDrops : false,
    consented_at: on ? row!.consentedAt.toISOString() : null,
    consent_text: on ? row!.consentText : null,
  };
}

export type AlertChoice = { channel: AlertChannel; email?: string; instantPriceDrops: boolean; consent: boolean; origin: string };

export class AlertRefusal extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Turns alerts on (or changes how they come) with the consent given now; the wording recorded is
 * the one shown for the channel chosen. SMS go to the phone the visitor signed in with.
 */
export async function turnAlertsOn(tenant: Tenant, customerId: string, choice: AlertChoice, now = new Date()): Promise<AlertSettings> {
  if (!choice.consent) throw new AlertRefusal('consent', ALERT_MESSAGES.consentRequired);
  const db = await getDb();
  const [customer] = await db
    .select({ phone: customers.phone, email: customers.email })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.websiteId, tenant.id)));
  if (!customer) throw new AlertRefusal('customer', 'is not signed in on this website');
  const address = choice.channel === 'sms' ? customer.phone : (choice.email ?? customer.email ?? '').trim();
  if (choice.channel === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) throw new AlertRefusal('email', ALERT_MESSAGES.email);
  const values = {
    websiteId: tenant.id,
    channel: choice.channel,
    address,
    instantPriceDrops: choice.instantPriceDrops,
    consentText: consentWording(tenant),
    consentedAt: now,
    origin: choice.origin,
    unsubscribedAt: null,
  };
  // The website's first subscriber: its changes are read from now on, not from its whole history.
  await startProgress(tenant.id);
  // New stock is told from the sweep's progress now: alerts turned on (again) hear only of what comes after.
  const progress = sql`(select generation from alert_progress where website_id = ${tenant.id})`;
  await db
    .insert(alertSubscriptions)
    .values({ customerId, ...values, newStockThrough: progress })
    .onConflictDoUpdate({
      target: alertSubscriptions.customerId,
      set: { ...values, newStockThrough: sql`case when ${alertSubscriptions.unsubscribedAt} is null then ${alertSubscriptions.newStockThrough} else ${progress} end` },
    });
  return alertSettings(tenant, customerId);
}

/** Where the sweep starts reading a website's changes: its car generation now. */
export async function startProgress(websiteId: number): Promise<void> {
  const db = await getDb();
  await db.execute(sql`insert into alert_progress (website_id, generation, swept_at)
    select ${websiteId}, coalesce((select generation from car_generations where website_id = ${websiteId}), 0), now()
    on conflict (website_id) do nothing`);
}

/** Ends alerts for this visitor of this website, and drops what was found for them and not yet sent; true when they were on. */
export async function turnAlertsOff(websiteId: number, customerId: string, now = new Date()): Promise<boolean> {
  const db = await getDb();
  const ended = await db
    .update(alertSubscriptions)
    .set({ unsubscribedAt: now })
    .where(and(eq(alertSubscriptions.customerId, customerId), eq(alertSubscriptions.websiteId, websiteId), isNull(alertSubscriptions.unsubscribedAt)))
    .returning({ customerId: alertSubscriptions.customerId });
  // Turned on again later, the visitor hears only of what happens after.
  if (ended.length > 0) await db.delete(alertItems).where(and(eq(alertItems.customerId, customerId), isNull(alertItems.deliveryId)));
  return ended.length > 0;
}

// ---- the unsubscribe link ----

async function unsubscribeMac(websiteId: number, customerId: string): Promise<Buffer> {
  return createHmac('sha256', await platformSecret()).update(`alerts-unsubscribe:${websiteId}:${customerId}`).digest();
}

/** The token of a visitor's unsubscribe link: their id and a MAC binding it to the website. */
export async function unsubscribeToken(websiteId: number, customerId: string): Promise<string> {
  return `${customerId}.${(await unsubscribeMac(websiteId, customerId)).toString('base64url')}`;
}

const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/;

/** The customer a link's token names, if this website signed it; null for anything else. */
export async function readUnsubscribeToken(websiteId: number, token: string): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const expected = await unsubscribeMac(websiteId, match[1]);
  const given = Buffer.from(match[2], 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
}

/** A visitor's unsubscribe links, on the website's address they used: the page, and the one-click POST target. */
export async function unsubscribeUrls(origin: string, websiteId: number, customerId: string): Promise<{ page: string; oneClick: string }> {
  const token = await unsubscribeToken(websiteId, customerId);
  return { page: new URL(`${UNSUBSCRIBE_PATH}/${token}`, origin).toString(), oneClick: new URL(`${UNSUBSCRIBE_API_PATH}/${token}`, origin).toString() };
}
