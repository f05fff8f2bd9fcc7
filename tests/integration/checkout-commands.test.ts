import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db';
import { logger } from '@/lib/logger';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as statusRoute from '@/app/api/checkout/reservations/[reservationId]/route';
import * as cardRoute from '@/app/api/checkout/reservations/[reservationId]/sandbox/card/route';
import * as authenticateRoute from '@/app/api/checkout/reservations/[reservationId]/sandbox/authenticate/route';
import * as notificationsRoute from '@/app/api/checkout/notifications/[provider]/route';
import * as quoteRoute from '@/app/api/checkout/quote/route';
import * as leadsRoute from '@/app/api/leads/route';
import * as refundRoute from '@/app/(dashboard)/dealerships/[id]/reservations/[reservationId]/refund/route';
import { callRoute } from '@/modules/dashboard/dashboard.test-support';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { leads } from '@/modules/leads/leads.schema';
import { carPaymentProcessors, cars } from '@/modules/stock/stock.schema';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { applyPaymentState, notifyUrl, reconcileReservations, redeemRefundLink, refundLinkState, similarCarsTo } from '@/modules/checkout/checkout.commands';
import { resetCheckoutEnv } from '@/modules/checkout/checkout.env';
import { refundLinkSigner } from '@/modules/checkout/checkout.refund-link';
import { reservationEvents, reservations, sandboxPayments } from '@/modules/checkout/checkout.schema';
import { setProviderOverride, type PaymentState } from '@/modules/checkout/adapters';
import { sandboxProvider, signSandbox, verifySandboxSignature } from '@/modules/checkout/adapters/sandbox';
import { PaymentProviderError, type CreatePaymentInput, type Money, type PaymentProvider, type PaymentSnapshot } from '@/modules/checkout/adapters/types';
import { seedCheckoutWorld, startBody, SUCCESS_CARD, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * Issue 36: the rules of checkout.commands.ts that the mutation run showed untested, each with the
 * value decision 034 gives (the state machine, the idempotency keys `{reservation}-{create|capture|
 * void|refund}`, 10 starts per address an hour, 20 card steps per address and 5 per reservation,
 * the 15-minute hold, the processor of the website's provider first) or SPEC §5/§9.
 *
 * The sandbox stands in for the website's provider, wrapped so that the test sees each call the
 * commands make (and can make one refuse, or answer as a provider would) without a real provider.
 */

const MSG = {
  notEligible: 'Sorry, this car can no longer be reserved online. Please contact the dealer.',
  takenWhilePaying: 'Sorry, this car was reserved by someone else while you were paying. Your card has not been charged.',
  unavailable: 'Online reservations are not available on this website just now. Please contact the dealer.',
  providerFailed: 'We could not reach the payment provider. Your card has not been charged. Please try again in a minute.',
  notPending: 'This reservation is no longer waiting for a payment.',
  cannotRefund: 'This reservation has no deposit to refund or hold to cancel.',
  declined: 'Your card was declined.',
  authenticationFailed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

type Call = { op: 'create' | 'retrieve' | 'capture' | 'void' | 'refund'; ref?: string; key?: string; money?: Money; input?: CreatePaymentInput };

const calls: Call[] = [];
/** Calls that refuse (PaymentProviderError), and answers given instead of the sandbox's. */
const refuse = new Set<Call['op']>();
const answers: Partial<Record<'retrieve' | 'capture' | 'void' | 'refund', PaymentState>> = {};

const answered = (op: keyof typeof answers, ref: string, real: () => Promise<PaymentSnapshot>): Promise<PaymentSnapshot> => {
  if (refuse.has(op)) return Promise.reject(new PaymentProviderError(`${op} refused by the test provider`));
  const state = answers[op];
  return state ? Promise.resolve({ ref, state, message: null }) : real();
};

const recording: PaymentProvider = {
  ...sandboxProvider,
  async createPayment(input) {
    calls.push({ op: 'create', input });
    if (refuse.has('create')) throw new PaymentProviderError('create refused by the test provider');
    return sandboxProvider.createPayment(input);
  },
  retrieve(ref) {
    calls.push({ op: 'retrieve', ref });
    return answered('retrieve', ref, () => sandboxProvider.retrieve(ref));
  },
  capture(ref, money, key) {
    calls.push({ op: 'capture', ref, money, key });
    return answered('capture', ref, () => sandboxProvider.capture(ref, money, key));
  },
  void(ref, key) {
    calls.push({ op: 'void', ref, key });
    return answered('void', ref, () => sandboxProvider.void(ref, key));
  },
  refund(ref, money, key) {
    calls.push({ op: 'refund', ref, money, key });
    return answered('refund', ref, () => sandboxProvider.refund(ref, money, key));
  },
};

const moneyCalls = () => calls.filter((c) => c.op === 'capture' || c.op === 'void' || c.op === 'refund').map((c) => ({ op: c.op, ref: c.ref, key: c.key, ...(c.money ? { money: c.money } : {}) }));

let db: Db;
let w: CheckoutWorld;
let ip = 0;
const nextIp = () => {
  ip += 1;
  return `10.37.${(ip >> 8) & 255}.${ip & 255}`;
};

type Answer = {
  reservation: Record<string, unknown> & { id: string; status: string };
  token: string;
  error?: string;
  similar_cars?: { id: number; slug: string; name: string; price: number }[];
  fields?: Record<string, string>;
};

async function start(body: unknown, headers: Record<string, string> = {}, host = w.hostA) {
  const response = await callLeadRoute(startRoute.POST, { host, body, headers: { 'x-dealer-client-address': nextIp(), ...headers } });
  return { status: response.status, body: (await response.json()) as Answer };
}

async function card(id: string, token: string, number = SUCCESS_CARD.number, address = nextIp()) {
  const response = await callLeadRoute(cardRoute.POST, { host: w.hostA, body: { card: { ...SUCCESS_CARD, number } }, headers: { 'x-reservation-token': token, 'x-dealer-client-address': address }, params: { reservationId: id } });
  return { status: response.status, body: (await response.json()) as Answer & { next_action: { type: string; action_token: string; url: string } | null } };
}

async function authenticate(id: string, token: string, body: unknown, address = nextIp()) {
  const response = await callLeadRoute(authenticateRoute.POST, { host: w.hostA, body, headers: { 'x-reservation-token': token, 'x-dealer-client-address': address }, params: { reservationId: id } });
  return { status: response.status, body: (await response.json()) as Answer };
}

async function dealerRefund(id: string) {
  const response = await callRoute(refundRoute.POST, { id: String(w.a.dealershipId), reservationId: id }, { method: 'POST', key: w.a.key });
  return { status: response.status, body: (await response.json()) as { reservation?: { status: string }; error?: string } };
}

async function quote(carId: number, expected = 200) {
  const request = new Request(`http://${w.hostA}/api/checkout/quote?car_id=${carId}`, { headers: { host: w.hostA } });
  const response = await quoteRoute.GET(request, { params: Promise.resolve({}) });
  expect(response.status).toBe(expected);
  return (await response.json()) as Record<string, unknown>;
}

const row = async (id: string) => (await db.select().from(reservations).where(eq(reservations.id, id)))[0];
const carReserved = async (carId: number) => (await db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, carId)))[0].reserved;
const events = async (id: string) => db.select().from(reservationEvents).where(eq(reservationEvents.reservationId, id)).orderBy(asc(reservationEvents.id));
/** The audit trail of decision 034: from, to, actor, and a reason on every row. */
async function trail(id: string) {
  const rows = await events(id);
  for (const e of rows) expect(e.reason, `${e.fromStatus} → ${e.toStatus}`).not.toBe('');
  return rows.map((e) => [e.fromStatus, e.toStatus, e.actor]);
}
const setCheckout = (checkout: Record<string, unknown>) =>
  db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{checkout}', ${JSON.stringify(checkout)}::jsonb)` }).where(eq(websites.id, w.a.websiteId));

/** Waits for what a command does after its answer (the void of a lapsed hold is not awaited). */
async function eventually(check: () => boolean | Promise<boolean>, what: string) {
  const until = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within 5 s: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A pending reservation of A's Camry, started through the API. */
async function started(overrides: Record<string, unknown> = {}) {
  const answer = await start(startBody(w.carA, overrides));
  expect(answer.status).toBe(201);
  return { id: answer.body.reservation.id, token: answer.body.token, answer: answer.body };
}

/** Everything ends active, the cars free, the limits and the provider's record empty. */
async function reset() {
  await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
  await db.execute(sql`update cars set reserved = false`);
  await db.update(cars).set({ status: 'in_stock', soldDate: null }).where(eq(cars.id, w.carA));
  await db.execute(sql`delete from rate_limits`);
  await setCheckout({ enabled: true, paymentProvider: 'Stripe' });
  calls.length = 0;
  refuse.clear();
  for (const key of Object.keys(answers)) delete answers[key as keyof typeof answers];
}

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
  setProviderOverride('sandbox', recording);
});

afterAll(() => {
  setProviderOverride('sandbox', null);
});

beforeEach(reset);

describe('starting a reservation', () => {
  it('answers the car, the deposit in the website’s currency and the 15-minute hold, and keeps the visitor’s details', async () => {
    const { id, answer } = await started();
    const [camry] = await db.select().from(cars).where(eq(cars.id, w.carA));
    expect(answer.reservation).toMatchObject({
      id,
      status: 'pending_payment',
      kind: 'reserve',
      car: { id: w.carA, slug: 'a-camry-1', name: camry.name },
      amount: 500,
      amount_minor: 50_000,
      currency: 'AUD',
      amount_display: '$500',
      provider: 'sandbox',
      message: null,
    });
    const created = Date.parse(answer.reservation.created_at as string);
    expect(Date.parse(answer.reservation.hold_expires_at as string) - created).toBe(15 * 60_000);
    const stored = await row(id);
    expect(stored.visitor).toMatchObject({ name: 'Jane', last_name: 'Citizen', postcode: '2000' });
    expect(stored.visitor.email).toMatch(/^jane\.reserve\.\d+@example\.com$/);
    expect(stored.visitor.phone).toMatch(/\d{8}$/);
    const [first] = await events(id);
    expect(first).toMatchObject({ fromStatus: null, toStatus: 'pending_payment', actor: 'visitor' });
    expect(first.reason).toContain('15 minutes');

    // Without a last name: kept as none.
    await reset();
    const body = startBody(w.carA);
    delete (body.visitor as Record<string, unknown>).last_name;
    const withoutLastName = await start(body);
    expect(withoutLastName.status).toBe(201);
    expect((await row(withoutLastName.body.reservation.id)).visitor.last_name).toBeNull();
  });

  it('asks the provider once for the deposit, with the create key, the notification and return addresses, and a description naming the car and the website', async () => {
    const { id } = await started();
    const creates = calls.filter((c) => c.op === 'create');
    expect(creates).toHaveLength(1);
    const input = creates[0].input!;
    const [camry] = await db.select().from(cars).where(eq(cars.id, w.carA));
    expect(input).toMatchObject({ reservationId: id, websiteId: w.a.websiteId, amountMinor: 50_000, currency: 'AUD', idempotencyKey: `${id}-create`, publishableKey: 'pk_test_alpha' });
    expect(input.returnUrl).toBe(`http://${w.hostA}/api/checkout/reservations/${id}/return`);
    expect(input.notifyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/checkout\/notifications\/sandbox$/);
    expect(input.description).toContain(camry.name);
    expect(input.description).toContain(w.tenantA.name);
    expect(input.email).toMatch(/@example\.com$/);
  });

  it('hands the dealership’s own publishable key to the provider before the processor’s', async () => {
    await db.update(dealerships).set({ stripePublishableKey: 'pk_test_dealership' }).where(eq(dealerships.id, w.a.dealershipId));
    try {
      await started();
      expect(calls.find((c) => c.op === 'create')!.input!.publishableKey).toBe('pk_test_dealership');
    } finally {
      await db.update(dealerships).set({ stripePublishableKey: null }).where(eq(dealerships.id, w.a.dealershipId));
    }
  });

  it('takes the deposit of the processor of the website’s provider when the car has several (decision 034)', async () => {
    const ofCamry = and(eq(carPaymentProcessors.websiteId, w.a.websiteId), eq(carPaymentProcessors.carId, w.carA));
    await db.delete(carPaymentProcessors).where(ofCamry);
    // Till's first (the lower id), Stripe's second: the website takes Stripe.
    await db.insert(carPaymentProcessors).values({ websiteId: w.a.websiteId, carId: w.carA, authorizationType: 'Till', authorizationKey: 'till_key', depositAmount: 300 });
    await db.insert(carPaymentProcessors).values({ websiteId: w.a.websiteId, carId: w.carA, authorizationType: 'Stripe', authorizationKey: 'pk_test_alpha', depositAmount: 500 });
    try {
      expect(await quote(w.carA)).toMatchObject({ eligible: true, amount: 500 });
      const { answer } = await started();
      expect(answer.reservation).toMatchObject({ amount: 500, amount_minor: 50_000 });
      await reset();
      await setCheckout({ enabled: true, paymentProvider: 'Till' });
      expect(await quote(w.carA)).toMatchObject({ eligible: true, amount: 300 });
    } finally {
      await db.delete(carPaymentProcessors).where(ofCamry);
      await db.insert(carPaymentProcessors).values({ websiteId: w.a.websiteId, carId: w.carA, authorizationType: 'Stripe', authorizationKey: 'pk_test_alpha', depositAmount: 500 });
    }
  });

  it('answers the website’s own refund terms when it has them', async () => {
    const terms = 'Refundable within 48 hours of the reservation, in full.';
    await setCheckout({ enabled: true, paymentProvider: 'Stripe', refundTerms: terms });
    const { answer } = await started();
    expect(answer.reservation.refund_terms).toBe(terms);
    expect(await quote(w.corollaA)).toMatchObject({ refund_terms: terms });
  });

  it('a refused car is answered with up to three other cars of the website that can be looked at: in stock, free, priced', async () => {
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    const refused = await start(startBody(w.carA));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(MSG.notEligible);
    const similar = refused.body.similar_cars!;
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.length).toBeLessThanOrEqual(3);
    for (const s of similar) {
      const [car] = await db.select().from(cars).where(eq(cars.id, s.id));
      expect(car).toMatchObject({ websiteId: w.a.websiteId, slug: s.slug, name: s.name, status: 'in_stock', reserved: false });
      expect(car.price).toBeGreaterThan(0);
      expect(s.id).not.toBe(w.carA);
    }
    const [camry] = await db.select().from(cars).where(eq(cars.id, w.carA));
    const looked = await similarCarsTo(w.tenantA, { id: camry.id, make: camry.make, price: camry.price });
    expect(looked.map((c) => c.id)).toEqual(similar.map((c) => c.id));
  });

  it('a website whose provider has no keys here, with no sandbox allowed, refuses with 503 and holds nothing', async () => {
    setProviderOverride('sandbox', null);
    process.env.CHECKOUT_SANDBOX = '0';
    resetCheckoutEnv();
    try {
      const before = (await db.select().from(reservations).where(eq(reservations.carId, w.carA))).length;
      const refused = await start(startBody(w.carA));
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe(MSG.unavailable);
      // No car of the website can be reserved now: none to suggest.
      expect(refused.body.similar_cars).toEqual([]);
      expect((await db.select().from(reservations).where(eq(reservations.carId, w.carA))).length).toBe(before);
      expect(await quote(w.carA)).toMatchObject({ eligible: false, amount: null, amount_display: null, provider: null, publishable_key: null });
    } finally {
      process.env.CHECKOUT_SANDBOX = '1';
      resetCheckoutEnv();
      setProviderOverride('sandbox', recording);
    }
  });

  it('the provider refusing to create the payment: 502, the reservation failed with the message, the car free again', async () => {
    refuse.add('create');
    const answer = await start(startBody(w.carA));
    expect(answer.status).toBe(502);
    expect(answer.body.error).toBe(MSG.providerFailed);
    const [failed] = await db.select().from(reservations).where(eq(reservations.carId, w.carA)).orderBy(sql`${reservations.createdAt} desc`).limit(1);
    expect(failed).toMatchObject({ status: 'failed', failureMessage: MSG.providerFailed });
    const audit = await events(failed.id);
    expect(audit.map((e) => [e.fromStatus, e.toStatus, e.actor])).toEqual([
      [null, 'pending_payment', 'visitor'],
      ['pending_payment', 'failed', 'system'],
    ]);
    expect(audit[1].reason).not.toBe('');
    refuse.clear();
    expect((await start(startBody(w.carA))).status).toBe(201);
  });

  it('10 starts an hour from one address (decision 034); the 11th is refused with 429, another address is not', async () => {
    const address = '10.37.250.1';
    for (let i = 0; i < 10; i += 1) {
      await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
      expect((await start(startBody(w.carA), { 'x-dealer-client-address': address })).status, `start ${i + 1}`).toBe(201);
    }
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    const refused = await start(startBody(w.carA), { 'x-dealer-client-address': address });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many reservations from your connection\. Please try again in .+, or call us\.$/);
    expect((await start(startBody(w.carA), { 'x-dealer-client-address': '10.37.250.2' })).status).toBe(201);
    // Without a known client address (decision 024: garbage is no address) a start is still taken.
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    const unknown = await callLeadRoute(startRoute.POST, { host: w.hostA, body: startBody(w.carA) });
    expect(unknown.status).toBe(201);
  });

  it('a start on a car expires that car’s lapsed hold, and voids its payment with the void key; another car’s lapsed hold is left to its own read', async () => {
    const first = await started();
    const corolla = await start(startBody(w.corollaA));
    expect(corolla.status).toBe(201);
    await db.update(reservations).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(sql`${reservations.id} in (${first.id}, ${corolla.body.reservation.id})`);
    const ref = (await row(first.id)).providerRef!;
    calls.length = 0;
    expect((await start(startBody(w.carA))).status).toBe(201);
    expect(await row(first.id)).toMatchObject({ status: 'expired', failureMessage: 'Your reservation time ran out before the payment was completed. The car has been released; you can start again if it is still available.' });
    expect((await row(corolla.body.reservation.id)).status).toBe('pending_payment');
    await eventually(() => calls.some((c) => c.op === 'void'), 'the lapsed payment voided');
    expect(moneyCalls()).toEqual([{ op: 'void', ref, key: `${first.id}-void` }]);
    await eventually(async () => (await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref)))[0].status === 'canceled', 'the sandbox payment cancelled');
    const audit = await events(first.id);
    expect(audit.at(-1)).toMatchObject({ fromStatus: 'pending_payment', toStatus: 'expired', actor: 'system' });

    // The Corolla's own read expires it (and only it).
    const status = await callLeadRoute(statusRoute.GET, { host: w.hostA, method: 'GET', headers: { 'x-reservation-token': corolla.body.token }, params: { reservationId: corolla.body.reservation.id } });
    expect(((await status.json()) as Answer).reservation.status).toBe('expired');
  });

  it('a read of one reservation expires that reservation only', async () => {
    const camry = await started();
    const corolla = await start(startBody(w.corollaA));
    await db.update(reservations).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(sql`${reservations.id} in (${camry.id}, ${corolla.body.reservation.id})`);
    const status = await callLeadRoute(statusRoute.GET, { host: w.hostA, method: 'GET', headers: { 'x-reservation-token': camry.token }, params: { reservationId: camry.id } });
    expect(((await status.json()) as Answer).reservation.status).toBe('expired');
    expect((await row(corolla.body.reservation.id)).status).toBe('pending_payment');
  });

  it('an online purchase naming the visitor’s partial lead, with its edit token: repeated with its key and token, the same reservation; paid, that lead is the reservation’s', async () => {
    await db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{enableStore}', 'true'::jsonb)` }).where(eq(websites.id, w.a.websiteId));
    try {
      const created = await callLeadRoute(leadsRoute.POST, {
        host: w.hostA,
        body: { lead: { lead_status: 'Incomplete', form_completed: false, step_number: 1, category: 'Reservation', subcategory: 'Online Purchase', car_id: w.carA, payment_method: 'cash' } },
        headers: { 'x-dealer-client-address': nextIp() },
      });
      expect(created.status).toBe(201);
      const lead = (await created.json()) as { id: string; token: string };
      const body = startBody(w.carA, { kind: 'buy_online', choices: { lead_id: lead.id, payment_method: 'cash' } });
      const headers = { 'x-edit-token': lead.token, 'idempotency-key': `purchase-${lead.id}` };
      const first = await start(body, headers);
      expect(first.status).toBe(201);
      const again = await start(body, headers);
      expect(again.status).toBe(200);
      expect(again.body.token).toBe(first.body.token);
      expect((await card(first.body.reservation.id, first.body.token)).body.reservation.status).toBe('completed');
      expect((await row(first.body.reservation.id)).leadId).toBe(lead.id);
    } finally {
      await db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{enableStore}', 'false'::jsonb)` }).where(eq(websites.id, w.a.websiteId));
    }
  });

  it('the same request repeated with its Idempotency-Key gives the same token whatever the order of its fields', async () => {
    const body = startBody(w.carA, { choices: { payment_method: 'cash', trade_in: false } });
    const visitor = body.visitor as Record<string, unknown>;
    const reordered = { choices: { trade_in: false, payment_method: 'cash' }, terms_accepted: true, visitor: Object.fromEntries(Object.entries(visitor).reverse()), car_id: w.carA };
    const key = { 'idempotency-key': `order-${Date.now()}` };
    const first = await start(body, key);
    expect(first.status).toBe(201);
    const again = await start(reordered, key);
    expect(again.status).toBe(200);
    expect(again.body.token).toBe(first.body.token);
    const other = await start({ ...body, choices: { payment_method: 'finance', trade_in: false } }, key);
    expect(other.status).toBe(422);
  });

  it('one Idempotency-Key sent for two cars at once: one reservation holds the key, the other request is refused with 422 and learns nothing of it', async () => {
    const key = `race-${Date.now()}`;
    const answers = await Promise.all([start(startBody(w.carA), { 'idempotency-key': key }), start(startBody(w.corollaA), { 'idempotency-key': key })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    const made = answers.find((a) => a.status === 201)!;
    const refused = answers.find((a) => a.status === 422)!;
    expect(refused.body).toEqual({ error: 'Please check the highlighted fields.', fields: { 'Idempotency-Key': 'was used for another request: a new request needs a new key' } });
    const holders = await db.select().from(reservations).where(and(eq(reservations.websiteId, w.a.websiteId), eq(reservations.idempotencyKey, key)));
    expect(holders.map((r) => r.id)).toEqual([made.body.reservation.id]);
    // The refused request's car has no reservation of it, and only one payment was asked for.
    const otherCar = (made.body.reservation.car as { id: number }).id === w.carA ? w.corollaA : w.carA;
    expect(await db.select().from(reservations).where(and(eq(reservations.carId, otherCar), eq(reservations.status, 'pending_payment')))).toEqual([]);
    expect(calls.filter((c) => c.op === 'create')).toHaveLength(1);
  });

  it('starts without a known client address are not counted against one shared budget: the 11th is taken too', async () => {
    // The per-address limit counts known addresses only, as the lead and phone-code limits do (decision 024: garbage is no address).
    for (let i = 0; i < 11; i += 1) {
      await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
      const unknown = await callLeadRoute(startRoute.POST, { host: w.hostA, body: startBody(w.carA) });
      expect(unknown.status, `start ${i + 1}`).toBe(201);
    }
  });

  it('a provider refusing to create the payment is logged as a warning naming the reservation, the provider and its error', async () => {
    const warnings = vi.spyOn(logger, 'warn');
    try {
      refuse.add('create');
      expect((await start(startBody(w.carA))).status).toBe(502);
      const [failed] = await db.select().from(reservations).where(eq(reservations.carId, w.carA)).orderBy(sql`${reservations.createdAt} desc`).limit(1);
      const logged = warnings.mock.calls.filter(([fields]) => (fields as { reservation?: string }).reservation === failed.id);
      expect(logged).toHaveLength(1);
      const [fields, message] = logged[0];
      expect(fields).toEqual({ err: expect.any(PaymentProviderError), reservation: failed.id, provider: 'sandbox' });
      expect((fields as { err: Error }).err.message).toBe('create refused by the test provider');
      expect(message).toMatch(/refused/);
    } finally {
      warnings.mockRestore();
    }
  });

  it('a lapsed hold’s payment the provider refuses to void is logged, naming the reservation and the error; the start goes on', async () => {
    const first = await started();
    await db.update(reservations).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(reservations.id, first.id));
    const infos = vi.spyOn(logger, 'info');
    try {
      refuse.add('void');
      expect((await start(startBody(w.carA))).status).toBe(201);
      expect((await row(first.id)).status).toBe('expired');
      const own = () => infos.mock.calls.filter(([fields]) => (fields as { reservation?: string }).reservation === first.id);
      await eventually(() => own().length > 0, 'the refused void logged');
      const [fields, message] = own()[0];
      expect(fields).toEqual({ err: expect.any(PaymentProviderError), reservation: first.id });
      expect((fields as { err: Error }).err.message).toBe('void refused by the test provider');
      expect(message).toMatch(/void/);
    } finally {
      infos.mockRestore();
    }
  });
});

describe('the visitor’s status read', () => {
  it('opens only with the reservation’s token, and asks the provider only while the payment is pending', async () => {
    const { id, token } = await started();
    const read = async (t: string) => {
      const response = await callLeadRoute(statusRoute.GET, { host: w.hostA, method: 'GET', headers: { 'x-reservation-token': t }, params: { reservationId: id } });
      return { status: response.status, body: (await response.json()) as Answer };
    };
    expect((await read(`${token}x`)).status).toBe(404);
    expect(calls.filter((c) => c.op === 'retrieve')).toHaveLength(0);
    // The browser is back from the payment step: the provider says authorised, and the read applies it.
    await sandboxProvider.confirmCard((await row(id)).providerRef!, { ...SUCCESS_CARD, number: '4242424242424242' });
    const seen = await read(token);
    expect(seen.body.reservation.status).toBe('completed');
    expect(await trail(id)).toEqual([
      [null, 'pending_payment', 'visitor'],
      ['pending_payment', 'held', 'system'],
      ['held', 'completed', 'system'],
    ]);
    expect(calls.filter((c) => c.op === 'retrieve')).toHaveLength(1);
    calls.length = 0;
    expect((await read(token)).body.reservation.status).toBe('completed');
    expect(calls.filter((c) => c.op === 'retrieve')).toHaveLength(0);
  });
});

describe('where providers send their notifications', () => {
  const saved = { base: process.env.CHECKOUT_NOTIFY_BASE_URL, port: process.env.PORT };
  const restore = () => {
    for (const [name, value] of [['CHECKOUT_NOTIFY_BASE_URL', saved.base], ['PORT', saved.port]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetCheckoutEnv();
  };
  afterAll(restore);

  it('the configured base URL for every provider; without one, the request’s origin, and for the sandbox this server’s loopback address and port', () => {
    delete process.env.CHECKOUT_NOTIFY_BASE_URL;
    delete process.env.PORT;
    resetCheckoutEnv();
    expect(notifyUrl('sandbox', 'https://alpha.example')).toBe('http://127.0.0.1:3000/api/checkout/notifications/sandbox');
    expect(notifyUrl('till', 'https://alpha.example')).toBe('https://alpha.example/api/checkout/notifications/till');
    process.env.PORT = '4123';
    expect(notifyUrl('sandbox', 'https://alpha.example')).toBe('http://127.0.0.1:4123/api/checkout/notifications/sandbox');
    process.env.CHECKOUT_NOTIFY_BASE_URL = 'https://dealers.example/';
    resetCheckoutEnv();
    expect(notifyUrl('sandbox', 'https://alpha.example')).toBe('https://dealers.example/api/checkout/notifications/sandbox');
    expect(notifyUrl('stgeorge', 'https://alpha.example')).toBe('https://dealers.example/api/checkout/notifications/stgeorge');
    restore();
  });
});

describe('the sandbox card steps', () => {
  it('5 card attempts a reservation in an hour, from any addresses; the 6th is refused with 429', async () => {
    const { id, token } = await started();
    // The confirmation-step card leaves the payment waiting; later cards are refused (409) but counted.
    expect((await card(id, token, '4000002500003155')).status).toBe(200);
    for (let i = 2; i <= 5; i += 1) expect((await card(id, token)).status, `attempt ${i}`).toBe(409);
    const refused = await card(id, token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many card attempts\. Please try again in .+, or call us\.$/);
  });

  it('20 card attempts an hour from one address, over any reservations; the 21st is refused with 429', async () => {
    const address = '10.37.251.1';
    let attempts = 0;
    for (let r = 0; r < 5; r += 1) {
      await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
      const { id, token } = await started();
      for (let i = 0; i < 4; i += 1) {
        attempts += 1;
        expect((await card(id, token, '4000002500003155', address)).status, `attempt ${attempts}`).not.toBe(429);
      }
    }
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    const fresh = await started();
    expect((await card(fresh.id, fresh.token, SUCCESS_CARD.number, address)).status).toBe(429);
    expect((await row(fresh.id)).status).toBe('pending_payment');
    expect((await card(fresh.id, fresh.token, SUCCESS_CARD.number, '10.37.251.2')).status).toBe(200);
  });

  it('a reservation no longer pending answers 409 with its own message, or that it no longer waits for a payment', async () => {
    const declined = await started();
    expect(await card(declined.id, declined.token, '4000000000000002')).toMatchObject({ status: 402, body: { error: MSG.declined } });
    const again = await card(declined.id, declined.token);
    expect(again).toMatchObject({ status: 409, body: { error: MSG.declined } });

    await reset();
    const cancelled = await started();
    expect((await dealerRefund(cancelled.id)).body.reservation?.status).toBe('cancelled');
    expect(await card(cancelled.id, cancelled.token)).toMatchObject({ status: 409, body: { error: MSG.notPending } });
  });

  it('the card steps are the sandbox’s own: a reservation with another provider, or where the sandbox is not allowed, is not found', async () => {
    const { id, token } = await started();
    await db.update(reservations).set({ provider: 'till' }).where(eq(reservations.id, id));
    expect((await card(id, token)).status).toBe(404);
    expect((await authenticate(id, token, { action_token: 'a'.repeat(30), outcome: 'approve' })).status).toBe(404);
    await db.update(reservations).set({ provider: 'sandbox' }).where(eq(reservations.id, id));
    process.env.CHECKOUT_SANDBOX = '0';
    resetCheckoutEnv();
    try {
      expect((await card(id, token)).status).toBe(404);
      expect((await authenticate(id, token, { action_token: 'a'.repeat(30), outcome: 'approve' })).status).toBe(404);
    } finally {
      process.env.CHECKOUT_SANDBOX = '1';
      resetCheckoutEnv();
    }
    expect((await row(id)).status).toBe('pending_payment');
  });

  it('the confirmation step: its link and token answered; refused, the reservation fails with the provider’s message', async () => {
    const { id, token } = await started();
    const asked = await card(id, token, '4000002500003155');
    expect(asked.body.next_action).toEqual({ type: 'sandbox_authentication', action_token: expect.stringMatching(/^[\w-]{20,}$/), url: `/api/checkout/reservations/${id}/sandbox/authenticate` });
    expect(asked.body.reservation.status).toBe('pending_payment');
    const failed = await authenticate(id, token, { action_token: asked.body.next_action!.action_token, outcome: 'fail' });
    expect(failed.status).toBe(402);
    expect(failed.body.error).toBe(MSG.authenticationFailed);
    expect(await row(id)).toMatchObject({ status: 'failed', failureMessage: MSG.authenticationFailed });
    expect(await trail(id)).toEqual([
      [null, 'pending_payment', 'visitor'],
      ['pending_payment', 'failed', 'provider'],
    ]);

    // Approved, it completes.
    await reset();
    const approved = await started();
    const step = await card(approved.id, approved.token, '4000002500003155');
    const confirmed = await authenticate(approved.id, approved.token, { action_token: step.body.next_action!.action_token, outcome: 'approve' });
    expect(confirmed).toMatchObject({ status: 200, body: { reservation: { status: 'completed' } } });
    expect(confirmed.body.error).toBeUndefined();
  });

  it('a paid card answers no next step, and captures with the capture key and the deposit', async () => {
    const { id, token } = await started();
    const paid = await card(id, token);
    expect(paid.status).toBe(200);
    expect(paid.body.next_action).toBeNull();
    expect(paid.body.reservation.status).toBe('completed');
    const ref = (await row(id)).providerRef!;
    expect(moneyCalls()).toEqual([{ op: 'capture', ref, key: `${id}-capture`, money: { minor: 50_000, currency: 'AUD' } }]);
    expect(await trail(id)).toEqual([
      [null, 'pending_payment', 'visitor'],
      ['pending_payment', 'held', 'provider'],
      ['held', 'completed', 'system'],
    ]);
  });
});

/**
 * Decision 034's state machine, one provider state applied to a reservation in each status:
 *   pending_payment ──authorised──▶ held ──captured──▶ completed ──refund──▶ refunded
 *        │                            └──cancel (void)──▶ cancelled
 *        ├──hold ran out──▶ expired  (a late authorisation re-holds the car if it is still free, else is voided)
 *        └──declined / car taken──▶ failed
 * Money moves only after the commit that allows it: capture after the hold, void after a refusal,
 * refund of a capture for a car taken meanwhile; a repeated, late or reordered state changes nothing.
 */
describe('what a provider’s state does to a reservation', () => {
  type Case = {
    from: string;
    state: PaymentState;
    message?: string | null;
    /** The car taken meanwhile: reserved for someone else, sold, or another reservation active on it. */
    taken?: 'reserved' | 'sold' | 'another';
    to: string;
    reserved: boolean;
    money: ('capture' | 'void' | 'refund')[];
    failureMessage?: string | null;
  };

  const cases: Case[] = [
    { from: 'pending_payment', state: 'authorised', to: 'completed', reserved: true, money: ['capture'] },
    { from: 'expired', state: 'authorised', to: 'completed', reserved: true, money: ['capture'] },
    // A card declined, then another card of the same payment authorised (Stripe allows it).
    { from: 'failed', state: 'authorised', to: 'completed', reserved: true, money: ['capture'] },
    { from: 'held', state: 'authorised', to: 'completed', reserved: true, money: ['capture'] },
    { from: 'pending_payment', state: 'authorised', taken: 'reserved', to: 'failed', reserved: true, money: ['void'], failureMessage: MSG.takenWhilePaying },
    { from: 'expired', state: 'authorised', taken: 'reserved', to: 'failed', reserved: true, money: ['void'], failureMessage: MSG.takenWhilePaying },
    { from: 'expired', state: 'authorised', taken: 'sold', to: 'failed', reserved: false, money: ['void'], failureMessage: MSG.takenWhilePaying },
    { from: 'expired', state: 'authorised', taken: 'another', to: 'failed', reserved: false, money: ['void'], failureMessage: MSG.takenWhilePaying },
    { from: 'cancelled', state: 'authorised', to: 'cancelled', reserved: false, money: ['void'] },
    { from: 'refunded', state: 'authorised', to: 'refunded', reserved: false, money: ['void'] },
    { from: 'completed', state: 'authorised', to: 'completed', reserved: true, money: [] },
    { from: 'held', state: 'captured', to: 'completed', reserved: true, money: [] },
    { from: 'pending_payment', state: 'captured', to: 'completed', reserved: true, money: [] },
    { from: 'expired', state: 'captured', to: 'completed', reserved: true, money: [] },
    { from: 'failed', state: 'captured', to: 'completed', reserved: true, money: [] },
    { from: 'pending_payment', state: 'captured', taken: 'reserved', to: 'failed', reserved: true, money: ['refund'], failureMessage: MSG.takenWhilePaying },
    { from: 'expired', state: 'captured', taken: 'reserved', to: 'failed', reserved: true, money: ['refund'], failureMessage: MSG.takenWhilePaying },
    { from: 'failed', state: 'captured', taken: 'another', to: 'failed', reserved: false, money: ['refund'], failureMessage: MSG.takenWhilePaying },
    { from: 'cancelled', state: 'captured', to: 'cancelled', reserved: false, money: [] },
    { from: 'completed', state: 'captured', to: 'completed', reserved: true, money: [] },
    { from: 'pending_payment', state: 'failed', message: MSG.declined, to: 'failed', reserved: false, money: [], failureMessage: MSG.declined },
    { from: 'pending_payment', state: 'failed', message: null, to: 'failed', reserved: false, money: [], failureMessage: MSG.providerFailed },
    { from: 'held', state: 'failed', to: 'held', reserved: true, money: [] },
    { from: 'completed', state: 'failed', to: 'completed', reserved: true, money: [] },
    { from: 'pending_payment', state: 'canceled', message: 'Cancelled on the payment page.', to: 'cancelled', reserved: false, money: [], failureMessage: 'Cancelled on the payment page.' },
    { from: 'held', state: 'canceled', to: 'cancelled', reserved: false, money: [] },
    { from: 'completed', state: 'canceled', to: 'completed', reserved: true, money: [] },
    { from: 'expired', state: 'canceled', to: 'expired', reserved: false, money: [] },
    { from: 'completed', state: 'refunded', to: 'refunded', reserved: false, money: [] },
    { from: 'held', state: 'refunded', to: 'refunded', reserved: false, money: [] },
    { from: 'pending_payment', state: 'refunded', to: 'pending_payment', reserved: false, money: [] },
    { from: 'failed', state: 'refunded', to: 'failed', reserved: false, money: [] },
    { from: 'pending_payment', state: 'requires_action', to: 'pending_payment', reserved: false, money: [] },
    { from: 'held', state: 'requires_payment', to: 'held', reserved: true, money: [] },
  ];

  /** A reservation of the Camry in `from`, the car reserved where that status holds it, or taken (reserved for someone else). */
  async function reservationIn(from: string, taken?: Case['taken']) {
    // Another visitor's reservation, started first and active again once ours is set (pending: the car not yet reserved).
    const other = taken === 'another' ? (await started()).id : null;
    if (other) await db.update(reservations).set({ status: 'expired' }).where(eq(reservations.id, other));
    const { id } = await started();
    // An earlier failure's message, which a hold or a completion clears.
    await db.update(reservations).set({ status: from as never, failureMessage: from === 'failed' || from === 'expired' ? 'an earlier failure' : null }).where(eq(reservations.id, id));
    if (other) await db.update(reservations).set({ status: 'pending_payment', holdExpiresAt: new Date(Date.now() + 600_000) }).where(eq(reservations.id, other));
    if (from === 'held' || from === 'completed' || taken === 'reserved') await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    if (taken === 'sold') await db.update(cars).set({ status: 'sold', soldDate: new Date() }).where(eq(cars.id, w.carA));
    calls.length = 0;
    return { id, ref: (await row(id)).providerRef! };
  }

  it.each(cases.map((c) => [`${c.from} + ${c.state}${c.taken ? ' (car taken)' : ''} → ${c.to}`, c] as const))('%s', async (_, c) => {
    // The provider answers each step as done: a capture is captured, a void cancelled, a refund refunded.
    Object.assign(answers, { capture: 'captured', void: 'canceled', refund: 'refunded' });
    const { id, ref } = await reservationIn(c.from, c.taken);
    const before = await row(id);
    const applied = await applyPaymentState(w.a.websiteId, id, c.state, c.message ?? null, 'provider', `test ${c.state}`);
    const after = await row(id);
    expect(applied?.id).toBe(id);
    expect(after.status).toBe(c.to);
    expect(await carReserved(w.carA)).toBe(c.reserved);
    const expectedKeys = c.money.map((op) => ({ op, ref, key: `${id}-${op}`, ...(op === 'void' ? {} : { money: { minor: 50_000, currency: 'AUD' } }) }));
    expect(moneyCalls()).toEqual(expectedKeys);
    if (c.failureMessage !== undefined) expect(after.failureMessage).toBe(c.failureMessage);
    // Unchanged means untouched (a car taken is a transition to failed, even from failed).
    if (c.to === c.from && !c.taken) expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());
    if (c.to === 'refunded' && c.from !== 'refunded') expect(after.refundedAt).not.toBeNull();
    if (c.to === 'completed' && c.from !== 'completed') {
      expect(after.failureMessage).toBeNull();
      expect(after.capturedAt).not.toBeNull();
      expect(after.leadId).not.toBeNull();
      expect(await db.select().from(leads).where(eq(leads.id, after.leadId!))).toHaveLength(1);
    }
    if (c.to !== c.from || c.taken) {
      const audit = await events(id);
      const last = audit.at(-1)!;
      expect(last.toStatus).toBe(c.to);
      expect(last.reason).not.toBe('');
    }
  });

  it('a late authorisation re-holds the car: held by the provider’s event, then completed by the system’s capture', async () => {
    Object.assign(answers, { capture: 'captured' });
    const { id } = await reservationIn('expired');
    await applyPaymentState(w.a.websiteId, id, 'authorised', null, 'provider', 'sandbox payment.authorized');
    const audit = (await events(id)).filter((e) => e.fromStatus !== null);
    expect(audit.slice(-2).map((e) => [e.fromStatus, e.toStatus, e.actor])).toEqual([
      ['expired', 'held', 'provider'],
      ['held', 'completed', 'system'],
    ]);
    expect((await row(id)).heldAt).not.toBeNull();
  });

  it('a capture that is refused or not yet done leaves the reservation held for the reconciliation', async () => {
    refuse.add('capture');
    const refused = await reservationIn('expired');
    await applyPaymentState(w.a.websiteId, refused.id, 'authorised', null, 'provider', 'authorised');
    expect(await row(refused.id)).toMatchObject({ status: 'held', failureMessage: null });
    expect(await carReserved(w.carA)).toBe(true);

    await reset();
    Object.assign(answers, { capture: 'authorised' });
    const pending = await reservationIn('pending_payment');
    await applyPaymentState(w.a.websiteId, pending.id, 'authorised', null, 'provider', 'authorised');
    expect((await row(pending.id)).status).toBe('held');
    expect(moneyCalls().map((c) => c.op)).toEqual(['capture']);
  });

  it('a reservation of another website, or none, is not moved', async () => {
    const { id } = await reservationIn('pending_payment');
    expect(await applyPaymentState(w.b.websiteId, id, 'failed', MSG.declined, 'provider', 'failed')).toBeNull();
    expect((await row(id)).status).toBe('pending_payment');
    expect(await applyPaymentState(w.a.websiteId, crypto.randomUUID(), 'failed', null, 'provider', 'failed')).toBeNull();
  });
});

describe('notifications', () => {
  const secret = 'test-sandbox-secret-of-at-least-32-characters';
  async function notify(event: Record<string, unknown>, signature?: string, provider = 'sandbox') {
    const body = JSON.stringify(event);
    const request = new Request(`http://platform.example/api/checkout/notifications/${provider}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature ?? signSandbox(body, secret, Math.floor(Date.now() / 1000)) },
      body,
    });
    const response = await notificationsRoute.POST(request, { params: Promise.resolve({ provider }) });
    return { status: response.status, body: (await response.json()) as { received?: boolean; status?: string; fields?: Record<string, string> } };
  }

  it('a forged one is refused with 400 and the adapter’s reason, and a provider not configured here is not found; nothing changes', async () => {
    const { id } = await started();
    const ref = (await row(id)).providerRef!;
    const event = { id: `sbx_evt_forged_${id}`, type: 'payment.captured', data: { payment_id: ref, state: 'captured' } };
    const forged = signSandbox(JSON.stringify(event), 'another-secret-of-at-least-32-characters!', Math.floor(Date.now() / 1000));
    let reason = '';
    try {
      verifySandboxSignature(JSON.stringify(event), forged, secret);
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(reason).not.toBe('');
    expect(await notify(event, forged)).toMatchObject({ status: 400, body: { fields: { signature: reason } } });
    expect((await notify(event, undefined, 'till')).status).toBe(404);
    expect(await row(id)).toMatchObject({ status: 'pending_payment' });
    expect(await carReserved(w.carA)).toBe(false);
  });

  it('each event applied once: processed, then duplicate; no payment, no known state or another payment is ignored', async () => {
    const { id } = await started();
    const ref = (await row(id)).providerRef!;
    const failed = { id: `sbx_evt_${id}`, type: 'payment.failed', data: { payment_id: ref, state: 'failed', message: MSG.declined } };
    expect(await notify(failed)).toEqual({ status: 200, body: { received: true, status: 'processed' } });
    expect(await row(id)).toMatchObject({ status: 'failed', failureMessage: MSG.declined });
    const last = (await events(id)).at(-1)!;
    expect(last).toMatchObject({ fromStatus: 'pending_payment', toStatus: 'failed', actor: 'provider' });
    expect(last.reason).toContain('payment.failed');
    expect(await notify(failed)).toEqual({ status: 200, body: { received: true, status: 'duplicate' } });
    expect(await notify({ id: 'sbx_evt_no_state', type: 'payment.odd', data: { payment_id: ref, state: 'lost' } })).toEqual({ status: 200, body: { received: true, status: 'ignored' } });
    expect(await notify({ id: 'sbx_evt_other', type: 'payment.failed', data: { payment_id: 'sbx_pi_nobody', state: 'failed' } })).toEqual({ status: 200, body: { received: true, status: 'ignored' } });
    expect(await notify({ id: 'sbx_evt_no_payment', type: 'payment.failed', data: {} })).toEqual({ status: 200, body: { received: true, status: 'ignored' } });
  });

  it('an event type of any length leaves an audit reason of at most 500 characters, naming the provider and the type', async () => {
    const { id } = await started();
    const ref = (await row(id)).providerRef!;
    const type = `payment.failed.${'x'.repeat(600)}`;
    expect(await notify({ id: `sbx_evt_long_${id}`, type, data: { payment_id: ref, state: 'failed' } })).toEqual({ status: 200, body: { received: true, status: 'processed' } });
    const last = (await events(id)).at(-1)!;
    expect(last).toMatchObject({ fromStatus: 'pending_payment', toStatus: 'failed', actor: 'provider' });
    expect(last.reason.length).toBeLessThanOrEqual(500);
    expect(last.reason.startsWith('sandbox payment.failed.xxx')).toBe(true);
  });
});

describe('the dealer’s refund', () => {
  const money = { minor: 50_000, currency: 'AUD' };

  it('a pending reservation is cancelled and its payment voided with the void key; without a payment nothing is asked', async () => {
    const { id } = await started();
    const ref = (await row(id)).providerRef!;
    calls.length = 0;
    expect(await dealerRefund(id)).toMatchObject({ status: 200, body: { reservation: { status: 'cancelled' } } });
    expect(moneyCalls()).toEqual([{ op: 'void', ref, key: `${id}-void` }]);
    expect((await trail(id)).at(-1)).toEqual(['pending_payment', 'cancelled', 'dealer']);

    await reset();
    const bare = await started();
    await db.update(reservations).set({ providerRef: null }).where(eq(reservations.id, bare.id));
    calls.length = 0;
    expect(await dealerRefund(bare.id)).toMatchObject({ status: 200, body: { reservation: { status: 'cancelled' } } });
    expect(moneyCalls()).toEqual([]);
  });

  it('a completed one is refunded with the refund key and the deposit; a held one voided; the car free again', async () => {
    const paid = await started();
    expect((await card(paid.id, paid.token)).body.reservation.status).toBe('completed');
    const ref = (await row(paid.id)).providerRef!;
    calls.length = 0;
    expect(await dealerRefund(paid.id)).toMatchObject({ status: 200, body: { reservation: { status: 'refunded' } } });
    expect(moneyCalls()).toEqual([{ op: 'refund', ref, key: `${paid.id}-refund`, money }]);
    expect((await row(paid.id)).refundedAt).not.toBeNull();
    expect(await carReserved(w.carA)).toBe(false);
    expect((await trail(paid.id)).at(-1)).toEqual(['completed', 'refunded', 'dealer']);

    await reset();
    Object.assign(answers, { void: 'canceled' });
    const held = await started();
    await db.update(reservations).set({ status: 'held' }).where(eq(reservations.id, held.id));
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    const heldRef = (await row(held.id)).providerRef!;
    calls.length = 0;
    expect(await dealerRefund(held.id)).toMatchObject({ status: 200, body: { reservation: { status: 'cancelled' } } });
    expect(moneyCalls()).toEqual([{ op: 'void', ref: heldRef, key: `${held.id}-void` }]);
    expect(await carReserved(w.carA)).toBe(false);
    expect((await trail(held.id)).at(-1)).toEqual(['held', 'cancelled', 'dealer']);
    expect((await row(held.id)).refundedAt).toBeNull();
  });

  it('a held deposit captured meanwhile is refunded instead of voided', async () => {
    const held = await started();
    await db.update(reservations).set({ status: 'held' }).where(eq(reservations.id, held.id));
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    const ref = (await row(held.id)).providerRef!;
    refuse.add('void');
    Object.assign(answers, { retrieve: 'captured', refund: 'refunded' });
    calls.length = 0;
    expect(await dealerRefund(held.id)).toMatchObject({ status: 200, body: { reservation: { status: 'refunded' } } });
    expect(moneyCalls()).toEqual([
      { op: 'void', ref, key: `${held.id}-void` },
      { op: 'refund', ref, key: `${held.id}-refund`, money },
    ]);
    expect(await carReserved(w.carA)).toBe(false);
    // (Held by hand above, without its event.)
    expect(await trail(held.id)).toEqual([
      [null, 'pending_payment', 'visitor'],
      ['held', 'completed', 'system'],
      ['completed', 'refunded', 'dealer'],
    ]);
  });

  it('a void the provider refuses for a payment not captured is 502 with its reason, and nothing changes', async () => {
    const held = await started();
    await db.update(reservations).set({ status: 'held' }).where(eq(reservations.id, held.id));
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    refuse.add('void');
    Object.assign(answers, { retrieve: 'authorised' });
    const answer = await dealerRefund(held.id);
    expect(answer.status).toBe(502);
    expect(answer.body.error).toBe('The payment provider refused: void refused by the test provider');
    expect((await row(held.id)).status).toBe('held');
    expect(await carReserved(w.carA)).toBe(true);

    refuse.add('refund');
    const paid = await reservationOf('completed');
    const refused = await dealerRefund(paid);
    expect(refused).toMatchObject({ status: 502, body: { error: 'The payment provider refused: refund refused by the test provider' } });
    expect((await row(paid)).status).toBe('completed');
  });

  it('an expired or failed reservation has nothing to refund (409); a refunded or cancelled one is answered as it is, nothing asked', async () => {
    for (const status of ['expired', 'failed'] as const) {
      const id = await reservationOf(status);
      expect(await dealerRefund(id), status).toMatchObject({ status: 409, body: { error: MSG.cannotRefund } });
    }
    for (const status of ['refunded', 'cancelled'] as const) {
      const id = await reservationOf(status);
      calls.length = 0;
      expect(await dealerRefund(id), status).toMatchObject({ status: 200, body: { reservation: { status } } });
      expect(moneyCalls()).toEqual([]);
      expect((await events(id)).filter((e) => e.actor === 'dealer')).toHaveLength(0);
    }
  });

  it('a held deposit the provider answers as refunded is refunded', async () => {
    const id = await reservationOf('held');
    Object.assign(answers, { void: 'refunded' });
    expect(await dealerRefund(id)).toMatchObject({ status: 200, body: { reservation: { status: 'refunded' } } });
    expect((await row(id)).refundedAt).not.toBeNull();
    expect(await carReserved(w.carA)).toBe(false);
  });

  it('a lapsed hold is expired first: nothing to refund, and another reservation’s lapsed hold is left alone', async () => {
    const lapsed = await reservationOf('pending_payment');
    const other = await start(startBody(w.corollaA));
    await db.update(reservations).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(sql`${reservations.id} in (${lapsed}, ${other.body.reservation.id})`);
    expect(await dealerRefund(lapsed)).toMatchObject({ status: 409, body: { error: MSG.cannotRefund } });
    expect((await row(lapsed)).status).toBe('expired');
    expect((await row(other.body.reservation.id)).status).toBe('pending_payment');
    await eventually(() => calls.some((c) => c.op === 'void' && c.key === `${lapsed}-void`), 'the lapsed payment voided');
  });

  it('a reservation whose provider is not configured on this server: 503', async () => {
    const id = await reservationOf('completed');
    await db.update(reservations).set({ provider: 'till' }).where(eq(reservations.id, id));
    const answer = await dealerRefund(id);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatch(/not configured/);
    expect((await row(id)).status).toBe('completed');
  });

  /** A reservation of the Camry set to `status` (and the car reserved when it is held or completed). */
  async function reservationOf(status: string) {
    await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
    await db.execute(sql`update cars set reserved = false`);
    const { id } = await started();
    await db.update(reservations).set({ status: status as never }).where(eq(reservations.id, id));
    if (status === 'held' || status === 'completed') await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    return id;
  }
});

describe('the refund link', () => {
  async function linkFor(id: string) {
    const [r] = await db.select().from(reservations).where(eq(reservations.id, id));
    const { path } = await (await refundLinkSigner())({ id, websiteId: r.websiteId, dealershipId: r.dealershipId });
    return path.split('/').at(-1)!;
  }

  it('shows the visitor by full name; an expired or failed reservation has nothing to refund, a cancelled one is used', async () => {
    const { id } = await started();
    await db.update(reservations).set({ status: 'completed' }).where(eq(reservations.id, id));
    const link = await linkFor(id);
    expect(await refundLinkState(w.tenantA, link)).toMatchObject({ kind: 'ready', reservation: { id, visitorName: 'Jane Citizen', amountMinor: 50_000, currency: 'AUD' } });
    for (const [status, kind] of [['expired', 'nothing'], ['failed', 'nothing'], ['cancelled', 'used'], ['refunded', 'used'], ['completed', 'ready'], ['held', 'ready']] as const) {
      await db.update(reservations).set({ status }).where(eq(reservations.id, id));
      expect((await refundLinkState(w.tenantA, link)).kind, status).toBe(kind);
    }
    for (const [status, outcome] of [['expired', 'nothing'], ['failed', 'nothing'], ['cancelled', 'used']] as const) {
      await db.update(reservations).set({ status }).where(eq(reservations.id, id));
      expect(await redeemRefundLink(w.tenantA, link), status).toBe(outcome);
    }
    await reset();
    const body = startBody(w.carA);
    delete (body.visitor as Record<string, unknown>).last_name;
    const alone = await start(body);
    await db.update(reservations).set({ status: 'completed' }).where(eq(reservations.id, alone.body.reservation.id));
    expect(await refundLinkState(w.tenantA, await linkFor(alone.body.reservation.id))).toMatchObject({ kind: 'ready', reservation: { visitorName: 'Jane' } });
  });

  it('redeeming: refunded once; a provider that refuses is told as the provider’s fault; a reservation gone is not found', async () => {
    const { id } = await started();
    await db.update(reservations).set({ status: 'held' }).where(eq(reservations.id, id));
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    const link = await linkFor(id);
    refuse.add('void');
    Object.assign(answers, { retrieve: 'authorised' });
    expect(await redeemRefundLink(w.tenantA, link)).toBe('provider');
    refuse.clear();
    expect(await redeemRefundLink(w.tenantA, link)).toBe('refunded');
    expect(await redeemRefundLink(w.tenantA, link)).toBe('used');
    const missing = (await (await refundLinkSigner())({ id: crypto.randomUUID(), websiteId: w.a.websiteId, dealershipId: w.a.dealershipId })).path.split('/').at(-1)!;
    expect(await redeemRefundLink(w.tenantA, missing)).toBe('not-found');
    expect((await refundLinkState(w.tenantB, link)).kind).toBe('problem');
  });
});

describe('the reconciliation', () => {
  it('asks the provider about payments left for 30 s (by default) and not yet settled, and about holds expired in the last day only', async () => {
    Object.assign(answers, { retrieve: 'requires_payment' });
    const recent = await started();
    const recentRef = (await row(recent.id)).providerRef;
    await reconcileReservations();
    expect(calls.filter((c) => c.op === 'retrieve').map((c) => c.ref)).not.toContain(recentRef);
    await db.update(reservations).set({ updatedAt: new Date(Date.now() - 31_000) }).where(eq(reservations.id, recent.id));
    const result = await reconcileReservations();
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(calls.filter((c) => c.op === 'retrieve').map((c) => c.ref)).toContain(recentRef);

    await reset();
    Object.assign(answers, { retrieve: 'requires_payment' });
    const old = await started();
    const oldRef = (await row(old.id)).providerRef!;
    await db.update(reservations).set({ status: 'expired', updatedAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(reservations.id, old.id));
    const dayOld = await started();
    const dayRef = (await row(dayOld.id)).providerRef!;
    await db.update(reservations).set({ status: 'expired', updatedAt: new Date(Date.now() - 23 * 3_600_000) }).where(eq(reservations.id, dayOld.id));
    calls.length = 0;
    await reconcileReservations({ olderThanMs: 0 });
    const asked = calls.filter((c) => c.op === 'retrieve').map((c) => c.ref);
    expect(asked).toContain(dayRef);
    expect(asked).not.toContain(oldRef);
  });

  it('counts the holds it expired and the reservations it asked about, at most the limit', async () => {
    const lapsed = await started();
    await db.update(reservations).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(reservations.id, lapsed.id));
    const second = await start(startBody(w.corollaA));
    await db.update(reservations).set({ updatedAt: new Date(Date.now() - 60_000) }).where(eq(reservations.id, second.body.reservation.id));
    Object.assign(answers, { retrieve: 'requires_payment' });
    const result = await reconcileReservations({ olderThanMs: 0, limit: 1 });
    expect(result).toEqual({ expired: 1, checked: 1 });
    expect((await row(lapsed.id)).status).toBe('expired');
    await eventually(() => calls.some((c) => c.op === 'void' && c.key === `${lapsed.id}-void`), 'the lapsed payment voided');
  });

  it('a provider that cannot be reached leaves the reservation as it is', async () => {
    const { id } = await started();
    refuse.add('retrieve');
    await reconcileReservations({ olderThanMs: 0 });
    expect((await row(id)).status).toBe('pending_payment');
  });
});

describe('the quote', () => {
  it('says whether the car can be reserved, the deposit and its display, the provider, the hold; nothing of a deposit when it cannot', async () => {
    expect(await quote(w.carA)).toEqual({
      eligible: true,
      amount: 500,
      currency: 'AUD',
      amount_display: '$500',
      provider: 'sandbox',
      publishable_key: null,
      hold_minutes: 15,
      refund_terms: expect.any(String),
    });
    await db.update(cars).set({ reserved: true }).where(eq(cars.id, w.carA));
    expect(await quote(w.carA)).toMatchObject({ eligible: false, amount: null, amount_display: null, provider: null, publishable_key: null, hold_minutes: 15 });
    // Another website's car is not a car of this one.
    await quote(w.carB, 404);
  });

  it('gives the browser a publishable key for Stripe only: the dealership’s, else the processor’s', async () => {
    setProviderOverride('stripe', { ...recording, name: 'stripe' });
    try {
      expect(await quote(w.corollaA)).toMatchObject({ eligible: true, provider: 'stripe', publishable_key: 'pk_test_alpha' });
      await db.update(dealerships).set({ stripePublishableKey: 'pk_test_dealership' }).where(eq(dealerships.id, w.a.dealershipId));
      expect(await quote(w.corollaA)).toMatchObject({ eligible: true, provider: 'stripe', publishable_key: 'pk_test_dealership' });
    } finally {
      setProviderOverride('stripe', null);
      await db.update(dealerships).set({ stripePublishableKey: null }).where(eq(dealerships.id, w.a.dealershipId));
    }
  });
});
