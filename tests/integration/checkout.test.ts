import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as statusRoute from '@/app/api/checkout/reservations/[reservationId]/route';
import * as cardRoute from '@/app/api/checkout/reservations/[reservationId]/sandbox/card/route';
import * as authenticateRoute from '@/app/api/checkout/reservations/[reservationId]/sandbox/authenticate/route';
import * as notificationsRoute from '@/app/api/checkout/notifications/[provider]/route';
import * as quoteRoute from '@/app/api/checkout/quote/route';
import * as listRoute from '@/app/(dashboard)/dealerships/[id]/reservations.json/route';
import * as refundRoute from '@/app/(dashboard)/dealerships/[id]/reservations/[reservationId]/refund/route';
import { callRoute } from '@/modules/dashboard/dashboard.test-support';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { leadDeliveries, leads } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';
import { canReserve } from '@/modules/stock/car-page.rules';
import { getCarBySlug } from '@/modules/stock/stock.queries';
import { reconcileReservations } from '@/modules/checkout/checkout.commands';
import { paymentProviderEvents, reservationEvents, reservations, sandboxPayments } from '@/modules/checkout/checkout.schema';
import { sandboxProvider, signSandbox } from '@/modules/checkout/adapters/sandbox';
import { CARD_MESSAGES, CHECKOUT_MESSAGES } from '@/modules/checkout/checkout.validation';
import { seedCheckoutWorld, startBody, SUCCESS_CARD, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/** Issue 16: reservations with the sandbox provider, end to end through the routes. */

type StartAnswer = { reservation: { id: string; status: string; amount: number; currency: string; message: string | null }; token: string; payment: Record<string, unknown>; error?: string; similar_cars?: unknown[]; fields?: Record<string, string> };

let db: Db;
let w: CheckoutWorld;
let ip = 0;

const nextIp = () => {
  ip += 1;
  return `10.9.${(ip >> 8) & 255}.${ip & 255}`;
};

async function start(host: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await callLeadRoute(startRoute.POST, { host, body, headers: { 'x-dealer-client-address': nextIp(), ...headers } });
  return { status: response.status, body: (await response.json()) as StartAnswer };
}

async function pay(host: string, id: string, token: string, card: unknown = SUCCESS_CARD) {
  const response = await callLeadRoute(cardRoute.POST, { host, body: { card }, headers: { 'x-reservation-token': token, 'x-dealer-client-address': nextIp() }, params: { reservationId: id } });
  return { status: response.status, body: (await response.json()) as StartAnswer & { next_action: { action_token: string } | null } };
}

async function status(host: string, id: string, token: string) {
  const response = await callLeadRoute(statusRoute.GET, { host, method: 'GET', headers: { 'x-reservation-token': token }, params: { reservationId: id } });
  return { status: response.status, body: (await response.json()) as StartAnswer };
}

async function notify(provider: string, body: string, headers: Record<string, string>) {
  const request = new Request(`http://platform.example/api/checkout/notifications/${provider}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return notificationsRoute.POST(request, { params: Promise.resolve({ provider }) });
}

const carReserved = async (carId: number) => (await db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, carId)))[0].reserved;
const reservationRow = async (id: string) => (await db.select().from(reservations).where(eq(reservations.id, id)))[0];

/** Each test starts with A's cars free: earlier tests' active reservations ended, the cars back on sale. */
async function freeCars() {
  await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
  await db.execute(sql`update cars set reserved = false`);
  await db.execute(sql`delete from rate_limits`);
  w.notifications.length = 0;
}

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
});

beforeEach(freeCars);

describe('reserving with the sandbox provider', () => {
  it('holds, captures, marks the car reserved and tells the dealer and the visitor once', async () => {
    const quote = await callLeadRoute(quoteRoute.GET, { host: w.hostA, method: 'GET' });
    expect(quote.status).toBe(422);
    const started = await start(w.hostA, startBody(w.carA));
    expect(started.status).toBe(201);
    expect(started.body.reservation).toMatchObject({ status: 'pending_payment', amount: 500, currency: 'AUD' });
    expect(started.body.payment).toEqual({ kind: 'card-form', card_url: `/api/checkout/reservations/${started.body.reservation.id}/sandbox/card`, authenticate_url: `/api/checkout/reservations/${started.body.reservation.id}/sandbox/authenticate` });
    expect(JSON.stringify(started.body)).not.toMatch(/sk_|whsec_/);

    const paid = await pay(w.hostA, started.body.reservation.id, started.body.token);
    expect(paid.status).toBe(200);
    expect(paid.body.reservation.status).toBe('completed');
    expect(await carReserved(w.carA)).toBe(true);
    const car = await getCarBySlug(w.tenantA, 'a-camry-1');
    expect(canReserve(car!, w.tenantA.config)).toBe(false);

    const row = await reservationRow(started.body.reservation.id);
    const deliveries = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, row.leadId!));
    expect(deliveries.map((d) => d.channel).sort()).toEqual(['email', 'visitor_email', 'webhook']);
    const email = deliveries.find((d) => d.channel === 'email')!.payload as { adf: string; to: string };
    expect(email.to).toBe('sales@alpha.example');
    expect(email.adf).toContain('Reservation');
    const visitorEmail = deliveries.find((d) => d.channel === 'visitor_email')!.payload as { text: string; to: string; adf: string };
    expect(visitorEmail.adf).toBe('');
    expect(visitorEmail.text).toMatch(/What happens next/);
    expect(visitorEmail.text).toMatch(/Refund terms/);
    const [lead] = await db.select().from(leads).where(eq(leads.id, row.leadId!));
    expect(lead.category).toBe('Reservation');
    const audit = await db.select().from(reservationEvents).where(eq(reservationEvents.reservationId, row.id)).orderBy(reservationEvents.id);
    expect(audit.map((e) => e.toStatus)).toEqual(['pending_payment', 'held', 'completed']);

    // The car is now reserved: a second visitor is refused, with similar cars.
    const again = await start(w.hostA, startBody(w.carA));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(CHECKOUT_MESSAGES.notEligible);
    expect(Array.isArray(again.body.similar_cars)).toBe(true);
  });

  it('a declined card shows the provider message, fails the reservation and leaves the car available', async () => {
    for (const [number, message] of [
      ['4000 0000 0000 0002', CARD_MESSAGES.declined],
      ['4000000000009995', CARD_MESSAGES.insufficientFunds],
    ]) {
      const started = await start(w.hostA, startBody(w.carA));
      expect(started.status).toBe(201);
      const paid = await pay(w.hostA, started.body.reservation.id, started.body.token, { ...SUCCESS_CARD, number });
      expect(paid.status).toBe(402);
      expect(paid.body.error).toBe(message);
      expect(paid.body.reservation.status).toBe('failed');
      expect(await carReserved(w.carA)).toBe(false);
    }
    const next = await start(w.hostA, startBody(w.carA));
    expect(next.status).toBe(201);
  });

  it('the authentication test card asks for the confirmation step', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const paid = await pay(w.hostA, started.body.reservation.id, started.body.token, { ...SUCCESS_CARD, number: '4000002500003155' });
    expect(paid.status).toBe(200);
    expect(paid.body.reservation.status).toBe('pending_payment');
    expect(paid.body.next_action).toMatchObject({ type: 'sandbox_authentication' });
    const wrong = await callLeadRoute(authenticateRoute.POST, { host: w.hostA, body: { action_token: 'x'.repeat(30), outcome: 'approve' }, headers: { 'x-reservation-token': started.body.token }, params: { reservationId: started.body.reservation.id } });
    expect(wrong.status).toBe(409);
    const confirmed = await callLeadRoute(authenticateRoute.POST, {
      host: w.hostA,
      body: { action_token: paid.body.next_action!.action_token, outcome: 'approve' },
      headers: { 'x-reservation-token': started.body.token },
      params: { reservationId: started.body.reservation.id },
    });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as StartAnswer).reservation.status).toBe('completed');
  });

  it('bad cards are refused with the field and the reason', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const bad = await pay(w.hostA, started.body.reservation.id, started.body.token, { number: '4242424242424241', exp_month: 1, exp_year: 2020, cvc: '12' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields).toMatchObject({ 'card.number': CARD_MESSAGES.number, 'card.cvc': CARD_MESSAGES.cvc });
    const expired = await pay(w.hostA, started.body.reservation.id, started.body.token, { ...SUCCESS_CARD, exp_month: 1, exp_year: 2020 });
    expect(expired.body.fields).toMatchObject({ 'card.exp_month': CARD_MESSAGES.expired });
    expect((await reservationRow(started.body.reservation.id)).status).toBe('pending_payment');
  });

  it('the visitor details use the lead form messages and the terms must be accepted', async () => {
    const refused = await start(w.hostA, { car_id: w.carA, visitor: { name: '', email: 'nope', phone: '12', postcode: '' }, terms_accepted: false });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toMatchObject({ 'visitor.name': '*This is a required field.', terms_accepted: CHECKOUT_MESSAGES.termsRequired });
    expect(Object.keys(refused.body.fields!)).toEqual(expect.arrayContaining(['visitor.email', 'visitor.phone', 'visitor.postcode']));
  });

  it('buying online needs a website that sells online (enableStore); the quote says what a page may offer', async () => {
    const refused = await start(w.hostA, startBody(w.carA, { kind: 'buy_online' }));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(CHECKOUT_MESSAGES.notEligible);
    const quote = await callLeadRoute(quoteRoute.GET, { host: w.hostA, method: 'GET' });
    expect(quote.status).toBe(422);
    const request = new Request(`http://${w.hostA}/api/checkout/quote?car_id=${w.carA}`, { headers: { host: w.hostA } });
    const answer = (await (await quoteRoute.GET(request, { params: Promise.resolve({}) })).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ eligible: true, amount: 500, currency: 'AUD', provider: 'sandbox', hold_minutes: 15 });
  });

  it('a repeated Idempotency-Key answers the same request of the same visitor with the same reservation and token, and refuses any other request with 422', async () => {
    const body = startBody(w.carA);
    const key = { 'idempotency-key': 'reserve-once' };
    const first = await start(w.hostA, body, key);
    const second = await start(w.hostA, body, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    const id = first.body.reservation.id;
    expect(second.body.reservation.id).toBe(id);
    expect(second.body.token).toBe(first.body.token);
    expect(first.body.payment).toMatchObject({ kind: 'card-form', card_url: `/api/checkout/reservations/${id}/sandbox/card` });
    expect(second.body.payment).toEqual(first.body.payment);
    // The repeat voided nothing: the first answer's token still opens the reservation.
    expect((await status(w.hostA, id, first.body.token)).status).toBe(200);

    // The key with any other request: another visitor, another car, another lead token. 422, and nothing of the reservation.
    const refusals: [string, unknown, Record<string, string>][] = [
      ['another visitor', startBody(w.carA), key],
      ['another car', { ...body, car_id: w.corollaA }, key],
      ['another kind', { ...body, kind: 'buy_online' }, key],
      ['another lead token', body, { ...key, 'x-edit-token': 'someone-elses-lead-token' }],
    ];
    for (const [what, other, headers] of refusals) {
      const answer = await start(w.hostA, other, headers);
      expect(answer.status, what).toBe(422);
      expect(answer.body, what).toEqual({ error: 'Please check the highlighted fields.', fields: { 'Idempotency-Key': 'was used for another request: a new request needs a new key' } });
    }
    expect(await carReserved(w.corollaA)).toBe(false);
    expect((await status(w.hostA, id, first.body.token)).status).toBe(200);

    // Paid: the step is not kept, and a repeat has nothing to pay.
    expect((await pay(w.hostA, id, first.body.token)).body.reservation.status).toBe('completed');
    expect((await reservationRow(id)).paymentStep).toBeNull();
    const third = await start(w.hostA, body, key);
    expect(third).toMatchObject({ status: 200, body: { reservation: { id, status: 'completed' }, payment: null, token: first.body.token } });
  });

  it('50 concurrent starts with one Idempotency-Key, from two visitors: one reservation, answered only to the request that made it', async () => {
    const bodies = [startBody(w.carA), startBody(w.carA)];
    const key = { 'idempotency-key': 'reserve-concurrently' };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => start(w.hostA, bodies[i % 2], key)));
    const given = answers.map((a, i) => ({ ...a, visitor: i % 2 })).filter((a) => a.status === 200 || a.status === 201);
    expect(given.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(given.map((a) => a.body.reservation.id)).size).toBe(1);
    expect(new Set(given.map((a) => a.body.token)).size).toBe(1);
    expect(new Set(given.map((a) => a.visitor)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 200 && a.status !== 201)) {
      expect([409, 422]).toContain(answer.status);
      expect(answer.body.reservation).toBeUndefined();
      expect(answer.body.token).toBeUndefined();
    }
  });
});

describe('one car, many buyers', () => {
  it('50 concurrent reservations of one car: exactly one held, 49 refused clearly, none charged', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => start(w.hostA, startBody(w.corollaA))));
    const won = answers.filter((a) => a.status === 201);
    const lost = answers.filter((a) => a.status !== 201);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    expect(lost.every((a) => a.status === 409 && a.body.error === CHECKOUT_MESSAGES.carTaken)).toBe(true);
    const paid = await pay(w.hostA, won[0].body.reservation.id, won[0].body.token);
    expect(paid.body.reservation.status).toBe('completed');
    const payments = await db.select().from(sandboxPayments).innerJoin(reservations, eq(reservations.id, sandboxPayments.reservationId)).where(eq(reservations.carId, w.corollaA));
    // One payment was ever created for the car's 50 attempts, and only it was charged.
    expect(payments).toHaveLength(1);
    expect(payments[0].sandbox_payments.status).toBe('succeeded');
    expect(payments.filter((p) => p.reservations.status === 'pending_payment' || p.reservations.status === 'held')).toHaveLength(0);
    const active = await db.execute(sql`select count(*)::int as n from reservations where car_id = ${w.corollaA} and status in ('pending_payment', 'held', 'completed')`);
    expect((Array.isArray(active) ? active : (active as { rows: { n: number }[] }).rows)[0]).toMatchObject({ n: 1 });
  }, 120_000);

  it('the database refuses a second active reservation of a car whatever the code does', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const row = await reservationRow(started.body.reservation.id);
    await expect(
      db.insert(reservations).values({ ...row, id: crypto.randomUUID(), idempotencyKey: null, providerRef: null }),
    ).rejects.toThrow();
  });
});

describe('holds and notifications', () => {
  it('an unpaid hold expires and the car is available again; a late payment for a taken car is voided', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    await db.update(reservations).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(reservations.id, id));
    const seen = await status(w.hostA, id, started.body.token);
    expect(seen.body.reservation.status).toBe('expired');
    expect(seen.body.reservation.message).toBe(CHECKOUT_MESSAGES.expired);
    expect((await reservationRow(id)).paymentStep).toBeNull();
    const next = await start(w.hostA, startBody(w.carA));
    expect(next.status).toBe(201);
    await pay(w.hostA, next.body.reservation.id, next.body.token);
    // The first visitor's card goes through at the provider after all (the void was not yet seen).
    const ref = (await reservationRow(id)).providerRef!;
    // (Its void at expiry never reached the provider.)
    await db.update(sandboxPayments).set({ status: 'requires_payment_method', idempotency: {} }).where(eq(sandboxPayments.id, ref));
    await sandboxProvider.confirmCard(ref, { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' });
    await reconcileReservations({ olderThanMs: 0 });
    const late = await reservationRow(id);
    expect(late.status).toBe('failed');
    expect(late.failureMessage).toBe(CHECKOUT_MESSAGES.takenWhilePaying);
    expect((await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref)))[0].status).toBe('canceled');
  });

  it('the provider succeeded and the server died before the commit: the notifications complete it, 3 times each and out of order, once', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    const ref = (await reservationRow(id)).providerRef!;
    // The provider authorises; the platform never hears of it from the browser (the process died).
    await sandboxProvider.confirmCard(ref, { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' });
    await new Promise((r) => setTimeout(r, 50));
    const ofThisPayment = () => w.notifications.filter((n) => n.body.includes(ref));
    expect(ofThisPayment()).toHaveLength(1);
    expect((await reservationRow(id)).status).toBe('pending_payment');
    const authorised = ofThisPayment()[0];
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await notify('sandbox', authorised.body, { 'x-sandbox-signature': authorised.signature }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await new Promise((r) => setTimeout(r, 50));
    const captured = ofThisPayment().find((n) => n.body.includes('payment.captured'))!;
    // The capture's notification, 3 times, and the authorisation again after it (out of order).
    for (const n of [captured, captured, authorised, captured]) expect((await notify('sandbox', n.body, { 'x-sandbox-signature': n.signature })).status).toBe(200);
    const row = await reservationRow(id);
    expect(row.status).toBe('completed');
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, row.leadId!))).toHaveLength(3);
    expect(await db.select().from(leads).where(and(eq(leads.websiteId, w.a.websiteId), eq(leads.idempotencyKey, `reservation-${id}`)))).toHaveLength(1);
    const audit = await db.select().from(reservationEvents).where(eq(reservationEvents.reservationId, id));
    expect(audit.map((e) => e.toStatus).sort()).toEqual(['completed', 'held', 'pending_payment']);
    expect((await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref)))[0].status).toBe('succeeded');
    expect(await db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.reservationId, id))).toHaveLength(2);
  });

  it('or the reconciliation completes it, and a later notification changes nothing', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    await sandboxProvider.confirmCard((await reservationRow(id)).providerRef!, { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' });
    await reconcileReservations({ olderThanMs: 0 });
    const row = await reservationRow(id);
    expect(row.status).toBe('completed');
    await new Promise((r) => setTimeout(r, 50));
    for (const n of [...w.notifications]) expect((await notify('sandbox', n.body, { 'x-sandbox-signature': n.signature })).status).toBe(200);
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, row.leadId!))).toHaveLength(3);
    expect(await reconcileReservations({ olderThanMs: 0 })).toMatchObject({ expired: 0 });
    expect((await reservationRow(id)).status).toBe('completed');
  });

  it('the server died after the capture and before its commit: the reconciliation completes it once, and the capture notification changes nothing', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    const ref = (await reservationRow(id)).providerRef!;
    await sandboxProvider.confirmCard(ref, { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' });
    // The hold committed (authorised, car reserved), the provider captured, the process died before 'completed'.
    await db.update(reservations).set({ status: 'held', heldAt: new Date() }).where(eq(reservations.id, id));
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    await sandboxProvider.capture(ref, { minor: 50_000, currency: 'AUD' }, `${id}-capture`);
    await new Promise((r) => setTimeout(r, 50));
    expect((await reservationRow(id)).status).toBe('held');

    await reconcileReservations({ olderThanMs: 0 });
    const row = await reservationRow(id);
    expect(row.status).toBe('completed');
    for (const n of w.notifications.filter((x) => x.body.includes(ref))) expect((await notify('sandbox', n.body, { 'x-sandbox-signature': n.signature })).status).toBe(200);
    await reconcileReservations({ olderThanMs: 0 });
    expect(await reservationRow(id)).toMatchObject({ status: 'completed', leadId: row.leadId });
    expect(await db.select().from(leads).where(and(eq(leads.websiteId, w.a.websiteId), eq(leads.idempotencyKey, `reservation-${id}`)))).toHaveLength(1);
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, row.leadId!))).toHaveLength(3);
    expect(await carReserved(w.carA)).toBe(true);
  });

  it('a notification with a bad signature is refused with 400 and changes nothing', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    const ref = (await reservationRow(id)).providerRef!;
    const body = JSON.stringify({ id: 'sbx_evt_forged', type: 'payment.captured', data: { payment_id: ref, state: 'captured' } });
    const now = Math.floor(Date.now() / 1000);
    for (const signature of [signSandbox(body, 'wrong-secret-wrong-secret-wrong-secret', now), '', 't=1,v1=00', signSandbox(body, 'test-sandbox-secret-of-at-least-32-characters', now - 3600)]) {
      const answer = await notify('sandbox', body, { 'x-sandbox-signature': signature });
      expect(answer.status).toBe(400);
    }
    expect((await notify('sandbox', 'not json at all', {})).status).toBe(400);
    expect((await notify('nope', body, {})).status).toBe(404);
    expect((await reservationRow(id)).status).toBe('pending_payment');
    expect(await carReserved(w.carA)).toBe(false);
    expect(await db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.eventId, 'sbx_evt_forged'))).toHaveLength(0);
  });
});

describe('the dealer', () => {
  it('lists reservations and refunds a deposit; the car goes back in stock', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    await pay(w.hostA, id, started.body.token);
    const list = await callRoute(listRoute.GET, { id: String(w.a.dealershipId) }, { key: w.a.key });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { reservations: { id: string; status: string; events: unknown[] }[] };
    expect(listed.reservations.find((r) => r.id === id)).toMatchObject({ status: 'completed' });

    const refunded = await callRoute(refundRoute.POST, { id: String(w.a.dealershipId), reservationId: id }, { method: 'POST', key: w.a.key });
    expect(refunded.status).toBe(200);
    expect(((await refunded.json()) as { reservation: { status: string } }).reservation.status).toBe('refunded');
    expect(await carReserved(w.carA)).toBe(false);
    const again = await callRoute(refundRoute.POST, { id: String(w.a.dealershipId), reservationId: id }, { method: 'POST', key: w.a.key });
    expect(again.status).toBe(200);
    const ledger = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, (await reservationRow(id)).providerRef!));
    expect(ledger[0].refundedMinor).toBe(50_000);
  });

  it('cancelling a held reservation voids the authorisation and frees the car', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    const ref = (await reservationRow(id)).providerRef!;
    // Held but not yet captured (the capture is what the dealer's cancel overtakes).
    await sandboxProvider.confirmCard(ref, { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' });
    await db.transaction(async (tx) => {
      await tx.update(reservations).set({ status: 'held' }).where(eq(reservations.id, id));
      await tx.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    });
    const cancelled = await callRoute(refundRoute.POST, { id: String(w.a.dealershipId), reservationId: id }, { method: 'POST', key: w.a.key });
    expect(((await cancelled.json()) as { reservation: { status: string } }).reservation.status).toBe('cancelled');
    expect(await carReserved(w.carA)).toBe(false);
    expect((await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref)))[0].status).toBe('canceled');
  });
});

describe('tenancy and hostile input', () => {
  it('every endpoint refuses another website’s reservation', async () => {
    const started = await start(w.hostA, startBody(w.carA));
    const id = started.body.reservation.id;
    const token = started.body.token;
    expect((await start(w.hostB, startBody(w.carA))).body.fields).toMatchObject({ car_id: 'is not a car of this website' });
    expect((await status(w.hostB, id, token)).status).toBe(404);
    expect((await pay(w.hostB, id, token)).status).toBe(404);
    const auth = await callLeadRoute(authenticateRoute.POST, { host: w.hostB, body: { action_token: 'y'.repeat(30), outcome: 'approve' }, headers: { 'x-reservation-token': token }, params: { reservationId: id } });
    expect(auth.status).toBe(404);
    // The quote of A's car asked on B's host: not a car of B (a missing car_id would be 422, not this).
    const quote = await quoteRoute.GET(new Request(`http://${w.hostB}/api/checkout/quote?car_id=${w.carA}`, { headers: { host: w.hostB } }), { params: Promise.resolve({}) });
    expect(quote.status).toBe(404);
    const ownQuote = await quoteRoute.GET(new Request(`http://${w.hostA}/api/checkout/quote?car_id=${w.carA}`, { headers: { host: w.hostA } }), { params: Promise.resolve({}) });
    expect(ownQuote.status).toBe(200);
    // Dashboard: B's key on A's dealership, and A's reservation through B's dealership.
    expect((await callRoute(listRoute.GET, { id: String(w.a.dealershipId) }, { key: w.b.key })).status).toBe(404);
    expect((await callRoute(refundRoute.POST, { id: String(w.a.dealershipId), reservationId: id }, { method: 'POST', key: w.b.key })).status).toBe(404);
    expect((await callRoute(refundRoute.POST, { id: String(w.b.dealershipId), reservationId: id }, { method: 'POST', key: w.b.key })).status).toBe(404);
    const listB = (await (await callRoute(listRoute.GET, { id: String(w.b.dealershipId) }, { key: w.b.key })).json()) as { reservations: unknown[] };
    expect(listB.reservations).toHaveLength(0);
    expect((await callRoute(listRoute.GET, { id: String(w.a.dealershipId) }, { key: null })).status).toBe(401);
    expect((await reservationRow(id)).status).toBe('pending_payment');
  });

  it('malformed and hostile payloads get 4xx with the field and the reason, never 5xx', async () => {
    const bodies: unknown[] = [
      null, [], 'text', 42, {}, { car_id: 'abc' }, { car_id: -1 }, { car_id: 1e12 }, { car_id: '1; drop table cars' },
      { car_id: w.carA, visitor: 'x', terms_accepted: true }, { car_id: w.carA, visitor: { name: 'A'.repeat(5000), email: 'a@b.co', phone: '0412345678', postcode: '2000' }, terms_accepted: true },
      { car_id: w.carA, visitor: { name: 'Ann', email: 'a@b.co', phone: '0412345678', postcode: '2000' }, terms_accepted: 'yes' },
      { car_id: w.carA, visitor: { name: 'Ann', email: 'a@b.co', phone: '0412345678', postcode: '2000' }, terms_accepted: true, choices: { evil: '<script>' } },
      { __proto__: { car_id: 1 }, constructor: { prototype: {} } },
      { car_id: 2147483648, visitor: {}, terms_accepted: true },
    ];
    for (const body of bodies) {
      const answer = await start(w.hostA, body);
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expect(answer.body.error).toBeTruthy();
      expect(Object.keys(answer.body.fields ?? {}), `the field and the reason: ${JSON.stringify(body)}`).not.toHaveLength(0);
    }
    const raw = await callLeadRoute(startRoute.POST, { host: w.hostA, rawBody: '{"car_id": 1,', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    const plain = await callLeadRoute(startRoute.POST, { host: w.hostA, rawBody: 'car_id=1', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    const crossSite = await callLeadRoute(startRoute.POST, { host: w.hostA, body: startBody(w.carA), headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);

    const started = await start(w.hostA, startBody(w.carA));
    for (const card of [null, 'x', {}, { number: 4242424242424242 }, { number: '4'.repeat(400), exp_month: 13, exp_year: 'soon', cvc: 12345 }, [1, 2]]) {
      const answer = await pay(w.hostA, started.body.reservation.id, started.body.token, card);
      expect(answer.status, JSON.stringify(card)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(card)).toBeLessThan(500);
      expect(Object.keys(answer.body.fields ?? {}), `the field and the reason: ${JSON.stringify(card)}`).not.toHaveLength(0);
    }
    for (const id of ['not-a-uuid', '../../etc', '%00']) {
      const answer = await callLeadRoute(statusRoute.GET, { host: w.hostA, method: 'GET', headers: { 'x-reservation-token': started.body.token }, params: { reservationId: id } });
      expect(answer.status).toBe(404);
    }
    for (const body of ['', '{}', '[]', '{"id": 1, "type": {}, "data": null}', 'x'.repeat(300_000)]) {
      const answer = await notify('sandbox', body, { 'x-sandbox-signature': 't=abc,v1=zz' });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    for (const provider of ['stripe', 'till', 'stgeorge']) {
      // Not configured here: nothing to verify against.
      expect((await notify(provider, '{}', { 'stripe-signature': 't=1,v1=00' })).status).toBe(404);
    }
  });
});
