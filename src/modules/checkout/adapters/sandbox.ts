import 'server-only';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { logger } from '@/lib/logger';
import { platformSecrets } from '../../identity/identity.schema';
import { checkoutEnv } from '../checkout.env';
import { sandboxPayments, type SandboxPaymentStatus } from '../checkout.schema';
import { CARD_MESSAGES, SANDBOX_TEST_CARDS, type CardInput } from '../checkout.validation';
import { PaymentProviderError, SignatureError, type PaymentProvider, type PaymentSnapshot, type PaymentState } from './types';

/**
 * The sandbox provider: the platform's own stand-in for a card processor, for demo mode and tests
 * (refused elsewhere unless CHECKOUT_SANDBOX=1). It keeps its own ledger (sandbox_payments), checks
 * the card (Luhn, expiry, CVC), declines Stripe's documented test decline numbers, asks for a
 * confirmation step on the 'authentication required' number, and tells the platform about every
 * change the way a real provider does: later, by a signed POST to the notification endpoint
 * (`X-Sandbox-Signature: t={unix},v1={hex HMAC-SHA256 of "t.body"}`).
 */

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
export const SANDBOX_SIGNATURE_TOLERANCE_S = 300;
const SECRET_NAME = 'checkout-sandbox-signing';

let secretPromise: Promise<string> | null = null;

export function sandboxSecret(): Promise<string> {
  secretPromise ??= (async () => {
    const fromEnv = checkoutEnv().sandboxSecret;
    if (fromEnv) return fromEnv;
    const db = await getDb();
    await db.insert(platformSecrets).values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') }).onConflictDoNothing();
    const [row] = await db.select({ value: platformSecrets.value }).from(platformSecrets).where(eq(platformSecrets.name, SECRET_NAME));
    return row.value;
  })();
  secretPromise.catch(() => (secretPromise = null));
  return secretPromise;
}

/** For tests that open a new database: forget the key of the last one. */
export function resetSandboxSecret(): void {
  secretPromise = null;
}

export function signSandbox(body: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function verifySandboxSignature(body: string, header: string | null, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): void {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1 || !/^[0-9a-f]{64}$/.test(parts.v1)) throw new SignatureError('missing or malformed signature');
  if (Math.abs(nowSeconds - timestamp) > SANDBOX_SIGNATURE_TOLERANCE_S) throw new SignatureError('signature timestamp outside the tolerance');
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'))) throw new SignatureError();
}

export type SandboxNotification = { url: string; body: string; signature: string };
/** Sends one notification; throws when the endpoint did not accept it. */
export type SandboxNotifier = (notification: SandboxNotification) => Promise<void>;

const httpNotifier: SandboxNotifier = async ({ url, body, signature }) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel().catch(() => {});
  if (response.status < 200 || response.status >= 300) throw new Error(`notification answered ${response.status}`);
};

const settings = { notifier: httpNotifier, delayMs: 200, attempts: 5 };

/** Tests replace the HTTP call (record, replay, reorder) and the delay. */
export function setSandboxNotifier(notifier: SandboxNotifier | null, delayMs = 200): void {
  settings.notifier = notifier ?? httpNotifier;
  settings.delayMs = delayMs;
}

const STATE_OF: Record<SandboxPaymentStatus, PaymentState> = {
  requires_payment_method: 'requires_payment',
  requires_action: 'requires_action',
  requires_capture: 'authorised',
  succeeded: 'captured',
  canceled: 'canceled',
  failed: 'failed',
};

type Row = typeof sandboxPayments.$inferSelect;

function snapshot(row: Row): PaymentSnapshot {
  const state = row.refundedMinor > 0 ? 'refunded' : STATE_OF[row.status];
  return { ref: row.id, state, message: row.declineMessage };
}

/** Later, like a real provider: signed, retried with back-off, never inside the caller's request. */
function notify(row: Row, type: string): void {
  if (!row.notifyUrl) return;
  const url = row.notifyUrl;
  const snap = snapshot(row);
  const body = JSON.stringify({ id: `sbx_evt_${randomBytes(12).toString('hex')}`, type, created: Math.floor(Date.now() / 1000), data: { payment_id: row.id, state: snap.state, message: snap.message } });
  const send = async (attempt: number): Promise<void> => {
    try {
      await settings.notifier({ url, body, signature: signSandbox(body, await sandboxSecret(), Math.floor(Date.now() / 1000)) });
    } catch (error) {
      if (attempt >= settings.attempts) {
        logger.warn({ err: error, payment: row.id, type }, 'sandbox notification not accepted; the reconciliation will find the payment');
        return;
      }
      setTimeout(() => void send(attempt + 1), settings.delayMs * 2 ** attempt).unref();
    }
  };
  setTimeout(() => void send(1), settings.delayMs).unref();
}

async function load(ref: string): Promise<Row> {
  const db = await getDb();
  const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref));
  if (!row) throw new PaymentProviderError('No such payment');
  return row;
}

/**
 * One change of a payment, applied once per idempotency key (a repeated key answers the row as it
 * is), only from the statuses given; anything else is the provider refusing, as a real one would.
 */
async function change(ref: string, key: string, from: SandboxPaymentStatus[], set: Partial<Row>, refusal: string): Promise<Row> {
  const db = await getDb();
  const [updated] = await db
    .update(sandboxPayments)
    .set({ ...set, updatedAt: new Date(), idempotency: sql`${sandboxPayments.idempotency} || jsonb_build_object(${key}::text, ${set.status ?? 'refund'}::text)` })
    .where(and(eq(sandboxPayments.id, ref), inArray(sandboxPayments.status, from), sql`not jsonb_exists(${sandboxPayments.idempotency}, ${key})`))
    .returning();
  if (updated) return updated;
  const row = await load(ref);
  if (key in row.idempotency) return row;
  throw new PaymentProviderError(refusal);
}

export type CardOutcome = { state: PaymentState; message: string | null; actionToken: string | null };

export const sandboxProvider: PaymentProvider & {
  confirmCard(ref: string, card: CardInput): Promise<CardOutcome>;
  authenticate(ref: string, actionToken: string, approve: boolean): Promise<CardOutcome>;
} = {
  name: 'sandbox',

  async createPayment(input) {
    const db = await getDb();
    const id = `sbx_pi_${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 24)}`;
    // The id comes from the idempotency key: a repeated create answers the first payment.
    await db
      .insert(sandboxPayments)
      .values({ id, websiteId: input.websiteId, reservationId: input.reservationId, amountMinor: input.amountMinor, currency: input.currency, status: 'requires_payment_method', notifyUrl: input.notifyUrl })
      .onConflictDoNothing();
    const base = `/api/checkout/reservations/${input.reservationId}/sandbox`;
    return { ref: id, step: { kind: 'card-form', card_url: `${base}/card`, authenticate_url: `${base}/authenticate` } };
  },

  async retrieve(ref) {
    return snapshot(await load(ref));
  },

  async confirmCard(ref, card) {
    const last4 = card.number.slice(-4);
    let set: Partial<Row>;
    let actionToken: string | null = null;
    if (card.number === SANDBOX_TEST_CARDS.declined) set = { status: 'failed', declineMessage: CARD_MESSAGES.declined, last4 };
    else if (card.number === SANDBOX_TEST_CARDS.insufficientFunds) set = { status: 'failed', declineMessage: CARD_MESSAGES.insufficientFunds, last4 };
    else if (card.number === SANDBOX_TEST_CARDS.authenticationRequired) {
      actionToken = randomBytes(24).toString('base64url');
      set = { status: 'requires_action', last4, actionTokenHash: createHash('sha256').update(actionToken).digest('hex'), declineMessage: null };
    } else set = { status: 'requires_capture', last4, declineMessage: null };
    const db = await getDb();
    const [row] = await db
      .update(sandboxPayments)
      .set({ ...set, updatedAt: new Date() })
      .where(sql`${sandboxPayments.id} = ${ref} and ${sandboxPayments.status} = 'requires_payment_method'`)
      .returning();
    if (!row) throw new PaymentProviderError('This payment cannot take a card now.');
    notify(row, row.status === 'requires_capture' ? 'payment.authorized' : row.status === 'failed' ? 'payment.failed' : 'payment.requires_action');
    return { ...snapshot(row), actionToken };
  },

  async authenticate(ref, actionToken, approve) {
    const db = await getDb();
    const hash = createHash('sha256').update(actionToken).digest('hex');
    const [row] = await db
      .update(sandboxPayments)
      .set(approve ? { status: 'requires_capture', actionTokenHash: null, updatedAt: new Date() } : { status: 'failed', actionTokenHash: null, declineMessage: CARD_MESSAGES.authenticationFailed, updatedAt: new Date() })
      .where(sql`${sandboxPayments.id} = ${ref} and ${sandboxPayments.status} = 'requires_action' and ${sandboxPayments.actionTokenHash} = ${hash}`)
      .returning();
    if (!row) throw new PaymentProviderError('This confirmation is not valid any more.');
    notify(row, approve ? 'payment.authorized' : 'payment.failed');
    return { ...snapshot(row), actionToken: null };
  },

  async capture(ref, amount, key) {
    const row = await change(ref, key, ['requires_capture'], { status: 'succeeded' }, 'This payment is not authorised and cannot be captured.');
    if (row.amountMinor !== amount.minor) logger.warn({ ref, amount }, 'sandbox capture of another amount than authorised');
    notify(row, 'payment.captured');
    return snapshot(row);
  },

  async void(ref, key) {
    const row = await change(ref, key, ['requires_payment_method', 'requires_action', 'requires_capture'], { status: 'canceled' }, 'This payment cannot be cancelled.');
    notify(row, 'payment.canceled');
    return snapshot(row);
  },

  async refund(ref, amount, key) {
    const current = await load(ref);
    const row = await change(ref, key, ['succeeded'], { refundedMinor: Math.min(current.amountMinor, current.refundedMinor + amount.minor) }, 'Only a captured payment can be refunded.');
    notify(row, 'payment.refunded');
    return snapshot(row);
  },

  async parseNotification(rawBody, headers) {
    verifySandboxSignature(rawBody, headers.get(SANDBOX_SIGNATURE_HEADER), await sandboxSecret());
    let event: { id?: unknown; type?: unknown; data?: { payment_id?: unknown; state?: unknown; message?: unknown } };
    try {
      event = JSON.parse(rawBody) as typeof event;
    } catch {
      throw new SignatureError('body is not JSON');
    }
    if (typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.payment_id !== 'string') return null;
    const states = Object.values(STATE_OF).concat('refunded');
    const state = typeof event.data.state === 'string' && (states as string[]).includes(event.data.state) ? (event.data.state as PaymentState) : null;
    return { eventId: event.id, type: event.type, ref: event.data.payment_id, state, message: typeof event.data.message === 'string' ? event.data.message : null };
  },
};
