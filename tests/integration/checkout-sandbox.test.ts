import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { logger } from '@/lib/logger';
import { resetCheckoutEnv } from '@/modules/checkout/checkout.env';
import { sandboxPayments } from '@/modules/checkout/checkout.schema';
import { platformSecrets } from '@/modules/identity/identity.schema';
import { resetSandboxSecret, sandboxProvider, sandboxSecret, setSandboxNotifier, type SandboxNotification } from '@/modules/checkout/adapters/sandbox';
import { PaymentProviderError, SignatureError } from '@/modules/checkout/adapters/types';
import { seedCheckoutWorld, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * The sandbox provider on its own (decision 034): its ledger, Stripe's documented test card numbers
 * (4242… succeeds, …0002 is declined, …9995 has insufficient funds, 4000 0025 0000 3155 asks for a
 * confirmation step), idempotent capture, void and refund, and notifications signed
 * `X-Sandbox-Signature: t=…,v1=HMAC-SHA256("t.body")`, retried with back-off.
 */

const SECRET = 'test-sandbox-secret-of-at-least-32-characters';
const CARDS = { success: '4242424242424242', declined: '4000000000000002', insufficientFunds: '4000000000009995', authenticationRequired: '4000002500003155' };
const card = (number: string) => ({ number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' });
const AUD = (minor: number) => ({ minor, currency: 'AUD' });

let db: Db;
let w: CheckoutWorld;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
});

beforeEach(() => {
  w.notifications.length = 0;
});

/** A payment of $500 (50,000 cents) in the ledger, waiting for a card. */
async function payment(notifyUrl = 'http://127.0.0.1:9/api/checkout/notifications/sandbox'): Promise<{ ref: string; reservationId: string }> {
  const reservationId = randomUUID();
  const { ref } = await sandboxProvider.createPayment({
    reservationId,
    websiteId: w.a.websiteId,
    amountMinor: 50_000,
    currency: 'AUD',
    description: 'Deposit',
    email: 'ava@example.com',
    idempotencyKey: `${reservationId}-create`,
    notifyUrl,
    returnUrl: 'http://a.localhost/return',
    publishableKey: null,
  });
  return { ref, reservationId };
}

const ledger = async (ref: string) => (await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref)))[0];

/** The notifications sent so far, each checked against the signature recipe and read. */
async function notified(count: number): Promise<{ type: string; data: { payment_id: string; state: string; message: string | null } }[]> {
  // Sent after the call returns, as a provider does: a slow database (PostgreSQL under CI load) can take seconds.
  for (let i = 0; i < 500 && w.notifications.length < count; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  return w.notifications.map((n) => {
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(n.signature) ?? [];
    expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${n.body}`).digest('hex'));
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
    return JSON.parse(n.body) as { type: string; data: { payment_id: string; state: string; message: string | null } };
  });
}

describe('a payment in the sandbox ledger', () => {
  it('is created once per idempotency key, for the amount and currency, with the card form of its reservation', async () => {
    const reservationId = randomUUID();
    const input = { reservationId, websiteId: w.a.websiteId, amountMinor: 50_000, currency: 'AUD', description: 'Deposit', email: 'a@example.com', idempotencyKey: `${reservationId}-create`, notifyUrl: 'http://127.0.0.1:9/n', returnUrl: 'http://a.localhost/r', publishableKey: null };
    const first = await sandboxProvider.createPayment(input);
    const again = await sandboxProvider.createPayment({ ...input, amountMinor: 1 });
    expect(again.ref).toBe(first.ref);
    expect(first.ref).toMatch(/^sbx_pi_[0-9a-f]{24}$/);
    expect(first.step).toEqual({ kind: 'card-form', card_url: `/api/checkout/reservations/${reservationId}/sandbox/card`, authenticate_url: `/api/checkout/reservations/${reservationId}/sandbox/authenticate` });
    expect(await ledger(first.ref)).toMatchObject({ websiteId: w.a.websiteId, reservationId, amountMinor: 50_000, currency: 'AUD', status: 'requires_payment_method', refundedMinor: 0 });
    expect(await sandboxProvider.retrieve(first.ref)).toEqual({ ref: first.ref, state: 'requires_payment', message: null });
    await expect(sandboxProvider.retrieve('sbx_pi_none')).rejects.toThrow(new PaymentProviderError('No such payment'));
  });

  it('4242… is authorised and notified payment.authorized; a second card is refused', async () => {
    const { ref } = await payment();
    expect(await sandboxProvider.confirmCard(ref, card(CARDS.success))).toEqual({ ref, state: 'authorised', message: null, actionToken: null });
    expect(await ledger(ref)).toMatchObject({ status: 'requires_capture', last4: '4242', declineMessage: null });
    await expect(sandboxProvider.confirmCard(ref, card(CARDS.success))).rejects.toThrow(PaymentProviderError);
    expect((await notified(1)).map((n) => [n.type, n.data])).toEqual([['payment.authorized', { payment_id: ref, state: 'authorised', message: null }]]);
  });

  it('…0002 and …9995 fail with their decline messages, notified payment.failed', async () => {
    const declined = await payment();
    const poor = await payment();
    const a = await sandboxProvider.confirmCard(declined.ref, card(CARDS.declined));
    const b = await sandboxProvider.confirmCard(poor.ref, card(CARDS.insufficientFunds));
    expect([a.state, b.state]).toEqual(['failed', 'failed']);
    // Stripe's own messages for these numbers.
    expect(a.message).toBe('Your card was declined.');
    expect(b.message).toBe('Your card has insufficient funds.');
    expect(await ledger(declined.ref)).toMatchObject({ status: 'failed', last4: '0002', declineMessage: a.message });
    expect(await ledger(poor.ref)).toMatchObject({ status: 'failed', last4: '9995', declineMessage: b.message });
    const sent = await notified(2);
    expect(sent.map((n) => n.type)).toEqual(['payment.failed', 'payment.failed']);
    expect(sent.map((n) => n.data.message).sort()).toEqual([a.message, b.message].sort());
  });

  it('4000 0025 0000 3155 asks for the confirmation step, which its one-time token approves or refuses', async () => {
    const approved = await payment();
    const step = await sandboxProvider.confirmCard(approved.ref, card(CARDS.authenticationRequired));
    expect(step).toMatchObject({ state: 'requires_action', message: null });
    expect(step.actionToken).toMatch(/^[\w-]{32}$/);
    expect(await ledger(approved.ref)).toMatchObject({ status: 'requires_action', last4: '3155' });
    await expect(sandboxProvider.authenticate(approved.ref, 'not-the-token', true)).rejects.toThrow(PaymentProviderError);
    expect(await sandboxProvider.authenticate(approved.ref, step.actionToken!, true)).toEqual({ ref: approved.ref, state: 'authorised', message: null, actionToken: null });
    // Used once.
    await expect(sandboxProvider.authenticate(approved.ref, step.actionToken!, true)).rejects.toThrow(PaymentProviderError);
    expect((await ledger(approved.ref)).actionTokenHash).toBeNull();

    const refused = await payment();
    const second = await sandboxProvider.confirmCard(refused.ref, card(CARDS.authenticationRequired));
    const outcome = await sandboxProvider.authenticate(refused.ref, second.actionToken!, false);
    expect(outcome.state).toBe('failed');
    expect(outcome.message).toBe('We are unable to authenticate your payment method. Please choose a different payment method and try again.');
    expect(await ledger(refused.ref)).toMatchObject({ status: 'failed', actionTokenHash: null, declineMessage: outcome.message });
    const sent = await notified(4);
    expect(sent.map((n) => [n.type, n.data.payment_id, n.data.state])).toEqual([
      ['payment.requires_action', approved.ref, 'requires_action'],
      ['payment.authorized', approved.ref, 'authorised'],
      ['payment.requires_action', refused.ref, 'requires_action'],
      ['payment.failed', refused.ref, 'failed'],
    ]);
  });
});

describe('capture, void and refund', () => {
  async function authorised(): Promise<string> {
    const { ref } = await payment();
    await sandboxProvider.confirmCard(ref, card(CARDS.success));
    return ref;
  }

  it('captures an authorised payment once per key; a repeated key answers as it is; another key or another status is refused', async () => {
    const ref = await authorised();
    expect(await sandboxProvider.capture(ref, AUD(50_000), 'r1-capture')).toEqual({ ref, state: 'captured', message: null });
    expect(await sandboxProvider.capture(ref, AUD(50_000), 'r1-capture')).toEqual({ ref, state: 'captured', message: null });
    await expect(sandboxProvider.capture(ref, AUD(50_000), 'r1-capture-again')).rejects.toThrow(new PaymentProviderError('This payment is not authorised and cannot be captured.'));
    expect((await ledger(ref)).idempotency).toEqual({ 'r1-capture': 'succeeded' });
    const waiting = await payment();
    await expect(sandboxProvider.capture(waiting.ref, AUD(50_000), 'w-capture')).rejects.toThrow(PaymentProviderError);
    expect((await ledger(waiting.ref)).status).toBe('requires_payment_method');
    const sent = await notified(2);
    // (A repeated capture tells the platform again; the state machine takes it once.)
    expect(sent.slice(0, 2).map((n) => [n.type, n.data.state])).toEqual([['payment.authorized', 'authorised'], ['payment.captured', 'captured']]);
    expect(sent.slice(2).every((n) => n.type === 'payment.captured' && n.data.payment_id === ref)).toBe(true);
  });

  it('voids a payment waiting for a card, for its confirmation or authorised; never a captured one', async () => {
    const waiting = await payment();
    const confirming = await payment();
    await sandboxProvider.confirmCard(confirming.ref, card(CARDS.authenticationRequired));
    const held = await authorised();
    for (const ref of [waiting.ref, confirming.ref, held]) {
      expect(await sandboxProvider.void(ref, `${ref}-void`)).toEqual({ ref, state: 'canceled', message: null });
      expect((await ledger(ref)).status).toBe('canceled');
    }
    const captured = await authorised();
    await sandboxProvider.capture(captured, AUD(50_000), 'c-capture');
    await expect(sandboxProvider.void(captured, 'c-void')).rejects.toThrow(new PaymentProviderError('This payment cannot be cancelled.'));
    expect(await sandboxProvider.retrieve(captured)).toMatchObject({ state: 'captured' });
    const sent = await notified(7);
    expect(sent.filter((n) => n.type === 'payment.canceled').map((n) => [n.data.payment_id, n.data.state])).toEqual([[waiting.ref, 'canceled'], [confirming.ref, 'canceled'], [held, 'canceled']]);
  });

  it('refunds only a captured payment, in parts, never more than was paid, once per key', async () => {
    const held = await authorised();
    await expect(sandboxProvider.refund(held, AUD(10_000), 'h-refund')).rejects.toThrow(new PaymentProviderError('Only a captured payment can be refunded.'));
    await sandboxProvider.capture(held, AUD(50_000), 'h-capture');
    expect(await sandboxProvider.refund(held, AUD(20_000), 'h-refund-1')).toEqual({ ref: held, state: 'refunded', message: null });
    expect((await ledger(held)).refundedMinor).toBe(20_000);
    await sandboxProvider.refund(held, AUD(20_000), 'h-refund-1');
    expect((await ledger(held)).refundedMinor).toBe(20_000);
    await sandboxProvider.refund(held, AUD(20_000), 'h-refund-2');
    expect((await ledger(held)).refundedMinor).toBe(40_000);
    await sandboxProvider.refund(held, AUD(20_000), 'h-refund-3');
    expect((await ledger(held)).refundedMinor).toBe(50_000);
    expect((await ledger(held)).idempotency).toMatchObject({ 'h-refund-1': 'refund', 'h-refund-2': 'refund', 'h-refund-3': 'refund' });
    // Authorised, captured, then a refunded notification per call, the repeated key's included.
    const sent = await notified(6);
    expect(sent.filter((n) => n.type === 'payment.refunded' && n.data.payment_id === held).map((n) => n.data.state)).toEqual(['refunded', 'refunded', 'refunded', 'refunded']);
  });
});

describe('notifications', () => {
  afterAll(() => {
    setSandboxNotifier(async (n) => {
      w.notifications.push(n);
    }, 1);
  });

  it('each event has an id of its own and the second it was made', async () => {
    const { ref } = await payment();
    await sandboxProvider.confirmCard(ref, card(CARDS.success));
    await sandboxProvider.capture(ref, AUD(50_000), `${ref}-capture`);
    // This payment's own events: one of the previous test's may still arrive after the reset.
    const own = () => w.notifications.map((n) => JSON.parse(n.body) as { id: string; created: number; data: { payment_id: string } }).filter((event) => event.data.payment_id === ref);
    await expect.poll(() => own().length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    const events = own();
    expect(events).toHaveLength(2);
    expect(events[0].id).toMatch(/^sbx_evt_\w+$/);
    expect(events[1].id).not.toBe(events[0].id);
    for (const event of events) expect(Math.abs(event.created - Date.now() / 1000)).toBeLessThan(60);
  });

  it('over HTTP: a signed JSON POST to the notification address, a redirect not followed and counted as refused', async () => {
    const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        if (request.url === '/moved') response.writeHead(302, { location: '/elsewhere' }).end();
        else if (request.url === '/down') response.writeHead(503).end('down');
        else response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      setSandboxNotifier(null, 10);
      const accepted = await payment(`${base}/notify`);
      await sandboxProvider.confirmCard(accepted.ref, card(CARDS.success));
      const moved = await payment(`${base}/moved`);
      await sandboxProvider.confirmCard(moved.ref, card(CARDS.success));
      const down = await payment(`${base}/down`);
      await sandboxProvider.confirmCard(down.ref, card(CARDS.success));
      // 10 ms, then 20, 40, 80, 160: the refused ones are sent 5 times within about a third of a second.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const to = (path: string) => seen.filter((r) => r.url === path);
      expect([to('/notify').length, to('/moved').length, to('/down').length, to('/elsewhere').length]).toEqual([1, 5, 5, 0]);
      const [first] = to('/notify');
      expect(first.method).toBe('POST');
      expect(first.headers['content-type']).toBe('application/json');
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(first.headers['x-sandbox-signature'])) ?? [];
      expect(v1).toBe(createHmac('sha256', SECRET).update(`${t}.${first.body}`).digest('hex'));
      expect(JSON.parse(first.body)).toMatchObject({ type: 'payment.authorized', data: { payment_id: accepted.ref, state: 'authorised' } });
    } finally {
      setSandboxNotifier(async (n) => {
        w.notifications.push(n);
      }, 1);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('none for a payment without a notification address', async () => {
    const { ref } = await payment('');
    await sandboxProvider.confirmCard(ref, card(CARDS.success));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(w.notifications).toEqual([]);
  });

  it('a refused notification is sent again with back-off, 5 times in all, then given up', async () => {
    const calls: { at: number; notification: SandboxNotification }[] = [];
    let accept = false;
    setSandboxNotifier(async (notification) => {
      calls.push({ at: Date.now(), notification });
      if (!accept) throw new Error('notification answered 503');
    }, 20);
    const { ref } = await payment();
    const started = Date.now();
    await sandboxProvider.confirmCard(ref, card(CARDS.success));
    // Sent after 20 ms, then again after 40, 80, 160 and 320 ms (20 × 2^attempt): 5 sends by about 620 ms.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(calls).toHaveLength(5);
    const gaps = calls.map((c, i) => c.at - (i === 0 ? started : calls[i - 1].at));
    for (const [i, minimum] of [20, 40, 80, 160, 320].entries()) expect(gaps[i], `gap ${i}`).toBeGreaterThanOrEqual(minimum - 5);
    expect(new Set(calls.map((c) => c.notification.body)).size).toBe(1);

    // Accepted at the third send: no more after it.
    calls.length = 0;
    setSandboxNotifier(async (notification) => {
      calls.push({ at: Date.now(), notification });
      if (calls.length < 3) throw new Error('notification answered 500');
    }, 20);
    accept = true;
    const second = await payment();
    await sandboxProvider.confirmCard(second.ref, card(CARDS.success));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(calls).toHaveLength(3);
  });
});

describe('reading a notification', () => {
  const sign = (body: string, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
  const read = (body: string, signature = sign(body)) => sandboxProvider.parseNotification(body, new Headers({ 'x-sandbox-signature': signature }), 'http://127.0.0.1/api/checkout/notifications/sandbox');

  it('reads the event id, type, payment, state and message of a signed event', async () => {
    const body = JSON.stringify({ id: 'sbx_evt_1', type: 'payment.captured', created: 1, data: { payment_id: 'sbx_pi_1', state: 'captured', message: 'ok' } });
    expect(await read(body)).toEqual({ eventId: 'sbx_evt_1', type: 'payment.captured', ref: 'sbx_pi_1', state: 'captured', message: 'ok' });
    for (const state of ['requires_payment', 'requires_action', 'authorised', 'captured', 'canceled', 'failed', 'refunded']) {
      const event = JSON.stringify({ id: 'e', type: 't', data: { payment_id: 'p', state } });
      expect(await read(event)).toEqual({ eventId: 'e', type: 't', ref: 'p', state, message: null });
    }
  });

  it('an unknown state or a message that is not text is read as none; an event without id, type or payment is ignored', async () => {
    expect(await read(JSON.stringify({ id: 'e', type: 't', data: { payment_id: 'p', state: 'succeeded', message: 5 } }))).toEqual({ eventId: 'e', type: 't', ref: 'p', state: null, message: null });
    expect(await read(JSON.stringify({ id: 'e', type: 't', data: { payment_id: 'p', state: 7 } }))).toMatchObject({ state: null });
    for (const event of [{ type: 't', data: { payment_id: 'p' } }, { id: 1, type: 't', data: { payment_id: 'p' } }, { id: 'e', data: { payment_id: 'p' } }, { id: 'e', type: 't' }, { id: 'e', type: 't', data: { payment_id: 9 } }]) {
      expect(await read(JSON.stringify(event)), JSON.stringify(event)).toBeNull();
    }
  });

  it('a signed body that is not JSON, a bad signature or one outside 300 s is refused', async () => {
    await expect(read('not json')).rejects.toThrow(new SignatureError('body is not JSON'));
    const body = JSON.stringify({ id: 'e', type: 't', data: { payment_id: 'p' } });
    const now = Math.floor(Date.now() / 1000);
    await expect(read(body, sign(body, now - 301))).rejects.toThrow(SignatureError);
    await expect(read(body, sign(body, now + 301))).rejects.toThrow(SignatureError);
    expect(await read(body, sign(body, now - 300))).not.toBeNull();
    expect(await read(body, sign(body, now + 300))).not.toBeNull();
    // v1 must be exactly 64 hex digits: one more, or anything before them, is refused.
    const good = sign(body);
    await expect(read(body, `${good}0`)).rejects.toThrow(SignatureError);
    await expect(read(body, good.replace('v1=', 'v1=x'))).rejects.toThrow(SignatureError);
    await expect(read(body, good.replace(/v1=.*/, 'v1='))).rejects.toThrow(SignatureError);
    await expect(read(body, sign(`${body} `))).rejects.toThrow(SignatureError);
    await expect(read(body, '')).rejects.toThrow(SignatureError);
  });
});

describe('the signing key', () => {
  afterAll(() => {
    process.env.CHECKOUT_SANDBOX_SECRET = SECRET;
    resetCheckoutEnv();
    resetSandboxSecret();
  });

  it('is CHECKOUT_SANDBOX_SECRET, or else one made once and kept in platform_secrets (the same after a restart)', async () => {
    expect(await sandboxSecret()).toBe(SECRET);
    delete process.env.CHECKOUT_SANDBOX_SECRET;
    resetCheckoutEnv();
    resetSandboxSecret();
    const made = await sandboxSecret();
    expect(made).toMatch(/^[\w-]{43}$/);
    expect(await sandboxSecret()).toBe(made);
    const [kept] = await db.select().from(platformSecrets).where(eq(platformSecrets.name, 'checkout-sandbox-signing'));
    expect(kept.value).toBe(made);
    resetSandboxSecret();
    expect(await sandboxSecret()).toBe(made);
  });
});

describe('what the sandbox says and logs (issue 36: the mutation run left these unchecked)', () => {
  const sign = (body: string, t: number) => `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
  const read = (body: string, signature: string) => sandboxProvider.parseNotification(body, new Headers({ 'x-sandbox-signature': signature }), 'http://127.0.0.1/api/checkout/notifications/sandbox');

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a card or a confirmation refused says why: the reservation answers the visitor with it (409)', async () => {
    const { ref } = await payment();
    await sandboxProvider.confirmCard(ref, card(CARDS.success));
    await expect(sandboxProvider.confirmCard(ref, card(CARDS.success))).rejects.toThrow(new PaymentProviderError('This payment cannot take a card now.'));
    const confirming = await payment();
    await sandboxProvider.confirmCard(confirming.ref, card(CARDS.authenticationRequired));
    await expect(sandboxProvider.authenticate(confirming.ref, 'not-the-token', true)).rejects.toThrow(new PaymentProviderError('This confirmation is not valid any more.'));
  });

  it('a refused notification signature says why (the notification route answers it in fields.signature)', async () => {
    const body = JSON.stringify({ id: 'e', type: 't', data: { payment_id: 'p' } });
    const now = Math.floor(Date.now() / 1000);
    const v1 = sign(body, now).split('v1=')[1];
    for (const header of [`v1=${v1}`, `t=${now}`, `t=${now},v1=${v1}0`, `t=${now},v1=x${v1}`, `t=soon,v1=${v1}`]) {
      await expect(read(body, header), header).rejects.toThrow(new SignatureError('missing or malformed signature'));
    }
    await expect(read(body, sign(body, now - 301))).rejects.toThrow(new SignatureError('signature timestamp outside the tolerance'));
  });

  it('a capture of another amount than authorised is logged as a warning; a capture of the amount is not', async () => {
    const warnings = vi.spyOn(logger, 'warn');
    const same = await payment();
    await sandboxProvider.confirmCard(same.ref, card(CARDS.success));
    await sandboxProvider.capture(same.ref, AUD(50_000), `${same.ref}-capture`);
    expect(warnings).not.toHaveBeenCalled();
    const other = await payment();
    await sandboxProvider.confirmCard(other.ref, card(CARDS.success));
    await sandboxProvider.capture(other.ref, AUD(40_000), `${other.ref}-capture`);
    expect(warnings.mock.calls).toEqual([[{ ref: other.ref, amount: AUD(40_000) }, 'sandbox capture of another amount than authorised']]);
  });

  it('a notification refused at every try is logged as given up, with the payment and the event type', async () => {
    const warnings = vi.spyOn(logger, 'warn');
    const refusal = new Error('notification answered 503');
    setSandboxNotifier(async () => {
      throw refusal;
    }, 1);
    try {
      const { ref } = await payment();
      await sandboxProvider.confirmCard(ref, card(CARDS.success));
      // 1 ms, then 2, 4, 8 and 16 between the five tries.
      // (Only this payment's: an earlier test's notification may still be on its way.)
      const own = () => warnings.mock.calls.filter(([fields]) => (fields as { payment?: string }).payment === ref);
      await expect.poll(() => own().length, { timeout: 5000 }).toBe(1);
      expect(own()[0]).toEqual([{ err: refusal, payment: ref, type: 'payment.authorized' }, 'sandbox notification not accepted; the reconciliation will find the payment']);
    } finally {
      setSandboxNotifier(async (n) => {
        w.notifications.push(n);
      }, 1);
    }
  });

  it('a key that could not be read or made is tried again on the next call, not kept as failed', async () => {
    delete process.env.CHECKOUT_SANDBOX_SECRET;
    resetCheckoutEnv();
    resetSandboxSecret();
    try {
      await db.execute(sql`alter table platform_secrets rename to platform_secrets_away`);
      try {
        await expect(sandboxSecret()).rejects.toThrow();
      } finally {
        await db.execute(sql`alter table platform_secrets_away rename to platform_secrets`);
      }
      expect(await sandboxSecret()).toMatch(/^[\w-]{43}$/);
    } finally {
      process.env.CHECKOUT_SANDBOX_SECRET = SECRET;
      resetCheckoutEnv();
      resetSandboxSecret();
    }
  });
});

describe('the HTTP notifier’s answers (issue 36: what the scored run of the notifier left)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a 204 (no body) is accepted; a 300 is refused like any answer outside 2xx, and given up with its status', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        seen.push(request.url ?? '');
        response.writeHead(request.url === '/empty' ? 204 : 300).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const warnings = vi.spyOn(logger, 'warn');
    try {
      setSandboxNotifier(null, 1);
      const empty = await payment(`${base}/empty`);
      await sandboxProvider.confirmCard(empty.ref, card(CARDS.success));
      const multiple = await payment(`${base}/multiple`);
      await sandboxProvider.confirmCard(multiple.ref, card(CARDS.success));
      const givenUp = () => warnings.mock.calls.filter(([fields]) => (fields as { payment?: string }).payment === multiple.ref);
      await expect.poll(() => givenUp().length, { timeout: 5000 }).toBe(1);
      expect((givenUp()[0][0] as { err: Error }).err.message).toBe('notification answered 300');
      expect([seen.filter((url) => url === '/empty').length, seen.filter((url) => url === '/multiple').length]).toEqual([1, 5]);
      expect(warnings.mock.calls.filter(([fields]) => (fields as { payment?: string }).payment === empty.ref)).toEqual([]);
    } finally {
      setSandboxNotifier(async (n) => {
        w.notifications.push(n);
      }, 1);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
