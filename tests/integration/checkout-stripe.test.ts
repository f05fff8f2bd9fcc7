import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as statusRoute from '@/app/api/checkout/reservations/[reservationId]/route';
import * as notificationsRoute from '@/app/api/checkout/notifications/[provider]/route';
import * as refundRoute from '@/app/(dashboard)/dealerships/[id]/reservations/[reservationId]/refund/route';
import { callRoute } from '@/modules/dashboard/dashboard.test-support';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';
import { setProviderOverride } from '@/modules/checkout/adapters';
import { fakeStripe } from '@/modules/checkout/adapters/fake-stripe';
import { stripeProvider } from '@/modules/checkout/adapters/stripe';
import { paymentProviderEvents, reservations } from '@/modules/checkout/checkout.schema';
import { seedCheckoutWorld, startBody, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/** Issue 16: Stripe through stripe-node against a local double; webhooks signed with stripe-node's own test helper. */

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_checkout_tests';
const stripeHelpers = new Stripe('sk_test_helpers');

let db: Db;
let w: CheckoutWorld;
const stripe = fakeStripe();

function event(id: string, type: string, intent: object, created = Math.floor(Date.now() / 1000)) {
  return JSON.stringify({ id, object: 'event', api_version: '2025-01-01', created, type, livemode: false, pending_webhooks: 1, request: null, data: { object: intent } });
}

async function webhook(payload: string, signature = stripeHelpers.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) {
  const request = new Request('http://platform.example/api/checkout/notifications/stripe', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  return notificationsRoute.POST(request, { params: Promise.resolve({ provider: 'stripe' }) });
}

/** Starts a reservation of the car; with an Idempotency-Key, the body is the same for every start with that key. */
const bodiesByKey = new Map<string, Record<string, unknown>>();
async function start(carId: number, headers: Record<string, string> = {}) {
  const key = headers['idempotency-key'];
  const body = key ? (bodiesByKey.get(key) ?? bodiesByKey.set(key, startBody(carId)).get(key)!) : startBody(carId);
  const response = await callLeadRoute(startRoute.POST, { host: w.hostA, body, headers: { 'x-dealer-client-address': `10.7.0.${Math.floor(Math.random() * 250)}`, ...headers } });
  return { status: response.status, body: (await response.json()) as { reservation: { id: string; status: string }; token: string; payment: { kind: string; publishable_key: string; client_secret: string; return_url: string } } };
}

const row = async (id: string) => (await db.select().from(reservations).where(eq(reservations.id, id)))[0];

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
  setProviderOverride('stripe', stripeProvider({ secretKey: 'sk_test_checkout', webhookSecret: WEBHOOK_SECRET, fetch: stripe.fetch }));
});

afterAll(() => setProviderOverride('stripe', null));

describe('Stripe', () => {
  it('creates a manual-capture PaymentIntent with an idempotency key and gives the browser only the publishable key and client secret', async () => {
    const started = await start(w.carA);
    expect(started.status).toBe(201);
    expect(started.body.payment).toEqual({
      kind: 'stripe',
      publishable_key: 'pk_test_alpha',
      client_secret: expect.stringMatching(/^pi_test_\d+_secret_/),
      // Stripe.js's redirect (3-D Secure) comes back to the website's own host, where the visitor started.
      return_url: `http://${w.hostA}/api/checkout/reservations/${started.body.reservation.id}/return?outcome=success`,
    });
    const create = stripe.calls.find((c) => c.method === 'POST' && c.path === '/v1/payment_intents')!;
    expect(create.idempotencyKey).toBe(`${started.body.reservation.id}-create`);
    expect(create.body.get('capture_method')).toBe('manual');
    expect(create.body.get('amount')).toBe('50000');
    expect(create.body.get('currency')).toBe('aud');
    expect(create.body.get('metadata[reservation_id]')).toBe(started.body.reservation.id);
    expect(JSON.stringify(started.body)).not.toContain('sk_test_checkout');
  });

  it('each webhook event is processed once however often it arrives; the capture carries its idempotency key', async () => {
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    await db.update(cars).set({ reserved: false });
    const started = await start(w.corollaA);
    const id = started.body.reservation.id;
    const ref = (await row(id)).providerRef!;
    const authorised = event('evt_auth_1', 'payment_intent.amount_capturable_updated', stripe.confirm(ref, 'authorised'));
    const answers = await Promise.all([webhook(authorised), webhook(authorised), webhook(authorised)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { status: string }[];
    expect(bodies.filter((b) => b.status === 'processed')).toHaveLength(1);
    expect((await row(id)).status).toBe('completed');
    const captures = stripe.calls.filter((c) => c.path === `/v1/payment_intents/${ref}/capture`);
    expect(captures).toHaveLength(1);
    expect(captures[0].idempotencyKey).toBe(`${id}-capture`);
    // succeeded arrives after (and again): nothing more happens.
    const succeeded = event('evt_succeeded_1', 'payment_intent.succeeded', stripe.intents.get(ref)!);
    for (const payload of [succeeded, authorised, succeeded]) expect((await webhook(payload)).status).toBe(200);
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, (await row(id)).leadId!))).toHaveLength(3);
    expect(await db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.reservationId, id))).toHaveLength(2);

    // The dealer refunds through Stripe, with its own idempotency key.
    const refunded = await callRoute(refundRoute.POST, { id: String(w.a.dealershipId), reservationId: id }, { method: 'POST', key: w.a.key });
    expect(refunded.status).toBe(200);
    const refund = stripe.calls.find((c) => c.path === '/v1/refunds')!;
    expect(refund.idempotencyKey).toBe(`${id}-refund`);
    expect(refund.body.get('payment_intent')).toBe(ref);
  });

  it('a start repeated with the same Idempotency-Key answers the same client secret without asking Stripe again; it is not kept once authorised', async () => {
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    await db.update(cars).set({ reserved: false });
    const key = { 'idempotency-key': 'stripe-start-once' };
    const first = await start(w.carA, key);
    expect(first.status).toBe(201);
    const creates = () => stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/payment_intents').length;
    const created = creates();
    const again = await start(w.carA, key);
    expect(again.status).toBe(200);
    expect(again.body.reservation.id).toBe(first.body.reservation.id);
    expect(again.body.payment).toEqual(first.body.payment);
    expect(again.body.payment.client_secret).toMatch(/^pi_test_\d+_secret_/);
    expect(creates()).toBe(created);
    const id = first.body.reservation.id;
    const ref = (await row(id)).providerRef!;
    expect((await webhook(event('evt_repeat_auth', 'payment_intent.amount_capturable_updated', stripe.confirm(ref, 'authorised')))).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'completed', paymentStep: null });
    const late = await start(w.carA, key);
    expect(late.body).toMatchObject({ reservation: { id, status: 'completed' }, payment: null });
  });

  it('payment_failed fails the reservation with Stripe’s message and frees the car; canceled cancels', async () => {
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    await db.update(cars).set({ reserved: false });
    const started = await start(w.carA);
    const ref = (await row(started.body.reservation.id)).providerRef!;
    expect((await webhook(event('evt_failed_1', 'payment_intent.payment_failed', stripe.confirm(ref, 'declined')))).status).toBe(200);
    const failed = await row(started.body.reservation.id);
    expect(failed.status).toBe('failed');
    expect(failed.failureMessage).toBe('Your card was declined.');
    const next = await start(w.carA);
    expect(next.status).toBe(201);
    const nextRef = (await row(next.body.reservation.id)).providerRef!;
    expect((await webhook(event('evt_canceled_1', 'payment_intent.canceled', { ...stripe.intents.get(nextRef)!, status: 'canceled' }))).status).toBe(200);
    expect((await row(next.body.reservation.id)).status).toBe('cancelled');
  });

  it('the status endpoint asks Stripe after the browser confirmed, without waiting for the webhook', async () => {
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    await db.update(cars).set({ reserved: false });
    const started = await start(w.carA);
    stripe.confirm((await row(started.body.reservation.id)).providerRef!, 'authorised');
    const answer = await callLeadRoute(statusRoute.GET, { host: w.hostA, method: 'GET', headers: { 'x-reservation-token': started.body.token }, params: { reservationId: started.body.reservation.id } });
    expect(((await answer.json()) as { reservation: { status: string } }).reservation.status).toBe('completed');
  });

  it('a bad, missing, stale or foreign signature is 400 and changes nothing', async () => {
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    await db.update(cars).set({ reserved: false });
    const started = await start(w.carA);
    const ref = (await row(started.body.reservation.id)).providerRef!;
    const payload = event('evt_forged_1', 'payment_intent.succeeded', { ...stripe.intents.get(ref)!, status: 'succeeded' });
    const stale = stripeHelpers.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const foreign = stripeHelpers.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    for (const signature of [stale, foreign, '', 't=1,v1=abc']) expect((await webhook(payload, signature)).status).toBe(400);
    // Signed for another body.
    expect((await webhook(payload.replace('evt_forged_1', 'evt_forged_2'), foreign)).status).toBe(400);
    expect((await row(started.body.reservation.id)).status).toBe('pending_payment');
    expect(await db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.eventId, 'evt_forged_1'))).toHaveLength(0);
    // Other event types are acknowledged and ignored.
    expect((await webhook(event('evt_other_1', 'customer.created', { id: 'cus_1', object: 'customer' }))).status).toBe(200);
  });
});
