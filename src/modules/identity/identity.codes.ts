import 'server-only';
import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import { mobilePhoneRule, normalizePhone, parsePhone, phoneError } from '@/lib/phone';
import { consumeLimits, DAY_MS, HOUR_MS, peekLimits, RateLimitedError, throwIfRefused, type RateLimit } from '@/lib/rate-limit';
import { HttpError, NotFoundError } from '@/lib/http';
import { offersInstantFinance } from '@/modules/tenancy/tenancy.config';
import { leadDeliveries } from '../leads/leads.schema';
import { analyticsEvents } from '../widgets/widgets.schema';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import type { Tenant } from '../tenancy/tenancy.types';
import { defaultSmsSender, type SmsSender } from '@/lib/sms';
import { customers, verifications } from './identity.schema';
import { CODE_LENGTH, CODE_MESSAGES } from './identity.validation';

/**
 * One-time phone codes (issue 14), used by sign-in and by the finance form. Careful as a bank's,
 * because every SMS costs money and SMS pumping is a fraud:
 * - only mobile numbers of the website's own country; 6 digits, hashed at rest with the row's id;
 *   valid 10 minutes, used once, 5 wrong tries per code; a new code replaces the previous one; a
 *   resend after 30 s;
 * - limits per phone and per client address, per hour and per day, counting every website of the
 *   platform together (a number or an address is not given a fresh budget by each website), in
 *   PostgreSQL through the shared limiter; the 30 s resend gate is one of those limits too, so
 *   parallel requests cannot pass it together; over any, exactly 'Too many verification attempts.
 *   Please try again later.';
 * - only where the website uses them (sign-in or instant finance); elsewhere every code route is 404;
 * - a successful check gives a one-time verification token (a cookie on the visitor's browser),
 *   which a finance application uses up: a phone verified once is one application, by that browser;
 * - a verification row per send ('sms') and per successful check ('verify') with the contact's
 *   metadata; the message itself is sent at once and recorded in the outbox (channel 'sms'), where
 *   the demo outbox page shows it. A provider failure or timeout gives a clear message and no code.
 */

export const CODE_RULES = {
  validMs: 10 * 60 * 1000,
  resendAfterMs: 30 * 1000,
  maxWrongTries: 5,
  perPhonePerHour: 3,
  perPhonePerDay: 10,
  perIpPerHour: 10,
  perIpPerDay: 30,
} as const;

/** SPEC §9 authentication event ids (35–38), as this platform records them. */
export const AUTH_EVENTS = { codeSent: 35, signedIn: 36, signedOut: 37, codeRejected: 38 } as const;

export async function recordAuthEvent(tenant: Tenant, category: (typeof AUTH_EVENTS)[keyof typeof AUTH_EVENTS], properties: Record<string, unknown> = {}): Promise<void> {
  const db = await getDb();
  await db.insert(analyticsEvents).values({ websiteId: tenant.id, category, eventProperties: properties });
}

export class CodeError extends HttpError {
  constructor(status: number, message: string, field?: string) {
    super(status, message, field ? { [field]: message } : undefined);
  }
}

const rateLimited = (seconds: number) => new RateLimitedError(CODE_MESSAGES.rateLimit, seconds, 'phone');

/** Who a website's SMS come from: its configured sender, else the provider's number, else its name cut to an alphanumeric sender id's 11 characters. */
export function smsFrom(tenant: Tenant): string {
  return tenant.config.sms.senderName ?? env().twilio?.from ?? tenant.name.slice(0, 11);
}

/** A mobile number of the website's own country, in E.164; null for anything else (the SMS-pumping guard). */
export function codePhone(tenant: Tenant, raw: string): string | null {
  const rule = mobilePhoneRule(phoneRuleFor(tenant.config));
  if (phoneError(raw, rule)) return null;
  const parsed = parsePhone(normalizePhone(raw, rule.country), rule.country);
  if (!parsed || parsed.country !== rule.country || !parsed.isValid()) return null;
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return null;
  return parsed.number;
}

/** Why codePhone refused a number: the phone rules' own message ('Must be an Australian mobile number.'). */
export function codePhoneMessage(tenant: Tenant, raw: string): string {
  return phoneError(raw, mobilePhoneRule(phoneRuleFor(tenant.config))) ?? CODE_MESSAGES.phone;
}

function requirePhone(tenant: Tenant, raw: string): string {
  const phone = codePhone(tenant, raw);
  if (!phone) throw new CodeError(422, codePhoneMessage(tenant, raw), 'phone');
  return phone;
}

/** The platform-wide subject of a limit: every website counts against the same number (decision 056). */
const EVERY_WEBSITE = 'platform';

function resendGate(phone: string): RateLimit[] {
  return [{ key: `code-resend:${EVERY_WEBSITE}:${phone}`, max: 1, durationMs: CODE_RULES.resendAfterMs, message: () => CODE_MESSAGES.rateLimit, field: 'phone' }];
}

function codeLimits(phone: string, ip: string | null): RateLimit[] {
  const message = () => CODE_MESSAGES.rateLimit;
  const limits: RateLimit[] = [
    { key: `code-phone-h:${EVERY_WEBSITE}:${phone}`, max: CODE_RULES.perPhonePerHour, durationMs: HOUR_MS, message, field: 'phone' },
    { key: `code-phone-d:${EVERY_WEBSITE}:${phone}`, max: CODE_RULES.perPhonePerDay, durationMs: DAY_MS, message, field: 'phone' },
  ];
  if (ip) {
    limits.push(
      { key: `code-ip-h:${EVERY_WEBSITE}:${ip}`, max: CODE_RULES.perIpPerHour, durationMs: HOUR_MS, message, field: 'phone' },
      { key: `code-ip-d:${EVERY_WEBSITE}:${ip}`, max: CODE_RULES.perIpPerDay, durationMs: DAY_MS, message, field: 'phone' },
    );
  }
  return limits;
}

/** Whether the website uses phone codes at all: for sign-in, or for the instant finance popup. */
export function usesPhoneCodes(tenant: Tenant): boolean {
  return tenant.config.phoneSignIn.enabled || offersInstantFinance(tenant.config);
}

/** Every phone-code route is 404 on a website that uses none (it must not send SMS for anyone). */
function requirePhoneCodes(tenant: Tenant): void {
  if (!usesPhoneCodes(tenant)) throw new NotFoundError();
}

function hashCode(verificationId: string, code: string): string {
  return createHash('sha256').update(`${verificationId}:${code}`).digest('hex');
}

/** POST /api/rate-limit: whether a code may be sent to this phone now (nothing is counted). */
export async function mayCodeBeSent(tenant: Tenant, rawPhone: string, ip: string | null, now = Date.now()): Promise<void> {
  requirePhoneCodes(tenant);
  const phone = requirePhone(tenant, rawPhone);
  const db = await getDb();
  throwIfRefused(await peekLimits(db, resendGate(phone), now));
  throwIfRefused(await peekLimits(db, codeLimits(phone, ip), now));
}

export type SendInput = { phone: string; first_name?: string; last_name?: string; email?: string };

/** Sends a new code; the previous one, if any, no longer counts. */
export async function sendPhoneCode(tenant: Tenant, input: SendInput, ip: string | null, sender: SmsSender = defaultSmsSender(), now = Date.now()): Promise<{ resendAfterSeconds: number }> {
  requirePhoneCodes(tenant);
  const phone = requirePhone(tenant, input.phone);
  const db = await getDb();
  // The resend gate first, on its own: a click within 30 s is refused without using the hour's budget.
  await consumeLimits(db, resendGate(phone), now);
  await consumeLimits(db, codeLimits(phone, ip), now);

  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
  const id = randomUUID();
  const metadata = { first_name: input.first_name ?? null, last_name: input.last_name ?? null, email: input.email ?? null, website: tenant.slug, dealership_slug: tenant.config.sms.dealershipSlug ?? null };
  await db.insert(verifications).values({
    id,
    websiteId: tenant.id,
    phone,
    verificationType: 'sms',
    codeHash: hashCode(id, code),
    expiresAt: new Date(now + CODE_RULES.validMs),
    dealershipSlug: metadata.dealership_slug,
    metadata,
  });
  const message = { to: phone, from: smsFrom(tenant), body: `${code} is your ${tenant.name} code. It expires in 10 minutes. Never share it.` };
  try {
    const detail = await sender(message);
    await db.insert(leadDeliveries).values({ websiteId: tenant.id, leadId: null, channel: 'sms', status: 'delivered', payload: { kind: 'sms', ...message }, attempts: 1, deliveredAt: new Date(), lastError: null });
    logger.info({ websiteId: tenant.id, detail }, 'phone code sent');
    await recordAuthEvent(tenant, AUTH_EVENTS.codeSent);
  } catch (error) {
    // No code may stand that the visitor never received.
    await db.update(verifications).set({ expiresAt: new Date(now) }).where(eq(verifications.id, id));
    await db.insert(leadDeliveries).values({ websiteId: tenant.id, leadId: null, channel: 'sms', status: 'failed', payload: { kind: 'sms', ...message, body: 'code withheld: the send failed' }, attempts: 1, lastError: String((error as Error).message ?? error).slice(0, 500) });
    logger.warn({ err: error, websiteId: tenant.id }, 'phone code not sent');
    throw new CodeError(503, CODE_MESSAGES.sendFailed);
  }
  return { resendAfterSeconds: CODE_RULES.resendAfterMs / 1000 };
}

/**
 * Checks a code: the latest sent to this phone, unexpired, unused, under 5 wrong tries. Records a
 * 'verify' row, which holds the hash of the one-time verification token answered (see
 * spendPhoneVerification).
 */
export async function verifyPhoneCode(tenant: Tenant, input: { phone: string; code: string }, now = Date.now()): Promise<{ phone: string; metadata: Record<string, unknown>; verificationToken: string }> {
  requirePhoneCodes(tenant);
  const phone = requirePhone(tenant, input.phone);
  const verificationToken = randomBytes(24).toString('base64url');
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(verifications)
      .where(and(eq(verifications.websiteId, tenant.id), eq(verifications.phone, phone), eq(verifications.verificationType, 'sms')))
      .orderBy(desc(verifications.createdAt))
      .limit(1)
      .for('update');
    if (!row || !row.codeHash || row.usedAt || !row.expiresAt || row.expiresAt.getTime() <= now) return 'invalid' as const;
    if (row.attempts >= CODE_RULES.maxWrongTries) return 'exhausted' as const;
    const given = Buffer.from(hashCode(row.id, input.code), 'hex');
    if (!timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) {
      await tx.update(verifications).set({ attempts: sql`${verifications.attempts} + 1` }).where(eq(verifications.id, row.id));
      return row.attempts + 1 >= CODE_RULES.maxWrongTries ? ('exhausted' as const) : ('invalid' as const);
    }
    await tx.update(verifications).set({ usedAt: new Date(now) }).where(eq(verifications.id, row.id));
    await tx.insert(verifications).values({ websiteId: tenant.id, phone, verificationType: 'verify', codeHash: hashToken(verificationToken), createdAt: new Date(now), dealershipSlug: row.dealershipSlug, metadata: row.metadata });
    return { metadata: row.metadata };
  });
  if (outcome === 'invalid' || outcome === 'exhausted') await recordAuthEvent(tenant, AUTH_EVENTS.codeRejected, { reason: outcome });
  if (outcome === 'invalid') throw new CodeError(422, CODE_MESSAGES.invalid, 'code');
  if (outcome === 'exhausted') throw rateLimited(Math.ceil(CODE_RULES.validMs / 1000));
  return { phone, metadata: outcome.metadata, verificationToken };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Uses up the verification token a code check answered, for this phone on this website, within 15
 * minutes of the check: true once, false ever after (and for a token of another phone, another
 * website, or none). One statement, so two requests with one token cannot both use it.
 */
export async function spendPhoneVerification(tenant: Tenant, phone: string, token: string | null, now = Date.now()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const db = await getDb();
  const used = await db
    .update(verifications)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(verifications.websiteId, tenant.id),
        eq(verifications.phone, phone),
        eq(verifications.verificationType, 'verify'),
        eq(verifications.codeHash, hashToken(token)),
        isNull(verifications.usedAt),
        gt(verifications.createdAt, new Date(now - VERIFIED_PHONE_WINDOW_MS)),
      ),
    )
    .returning({ id: verifications.id });
  return used.length === 1;
}

/** Whether this phone (E.164) passed a code check on this website within `withinMs` (the finance form's gate). */
export async function phoneVerifiedRecently(tenant: Tenant, phone: string, withinMs: number, now = Date.now()): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(and(eq(verifications.websiteId, tenant.id), eq(verifications.phone, phone), eq(verifications.verificationType, 'verify'), gt(verifications.createdAt, new Date(now - withinMs))))
    .limit(1);
  return row !== undefined;
}

/** A code verification stands for the phone this long (the finance hand-over, SPEC §4). */
export const VERIFIED_PHONE_WINDOW_MS = 15 * 60 * 1000;

/** Whether a phone as a form sent it was verified by a code on this website in the last 15 minutes. */
export async function formPhoneVerified(tenant: Tenant, raw: string | null | undefined, now = Date.now()): Promise<boolean> {
  const phone = raw ? codePhone(tenant, raw) : null;
  return phone ? phoneVerifiedRecently(tenant, phone, VERIFIED_PHONE_WINDOW_MS, now) : false;
}

/** Contact lookups per client address per hour: the answer tells whether a number is a customer. */
export const CONTACT_LOOKUPS_PER_IP_PER_HOUR = 30;

/** GET /api/check-if-contact-exists: whether this website has a customer with this number (no other website counts). */
export async function contactExists(tenant: Tenant, rawPhone: string, ip: string | null): Promise<boolean> {
  const phone = requirePhone(tenant, rawPhone);
  const db = await getDb();
  if (ip) await consumeLimits(db, [{ key: `contact-ip:${tenant.id}:${ip}`, max: CONTACT_LOOKUPS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: () => CODE_MESSAGES.rateLimit }]);
  const [row] = await db.select({ id: customers.id }).from(customers).where(and(eq(customers.websiteId, tenant.id), eq(customers.phone, phone))).limit(1);
  return row !== undefined;
}
