import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { env } from '@/lib/env';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as cardRoute from '@/app/api/checkout/reservations/[reservationId]/sandbox/card/route';
import * as deliveryRoute from '@/app/api/checkout/delivery/route';
import * as leadsRoute from '@/app/api/leads/route';
import * as visitorRoute from '@/app/api/leads/[leadId]/route';
import * as valuationsRoute from '@/app/api/valuations/route';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { runDeliveryBatch, signWebhook } from '@/modules/leads/leads.delivery';
import { leadDeliveries, leads, leadWebhooks } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { reservations } from '@/modules/checkout/checkout.schema';
import { seedCheckoutWorld, startBody, SUCCESS_CARD, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * Issue 16, the online purchase (/checkout-journey): the buyer's choices saved step by step as a
 * partial lead through the lead API, the reservation naming that lead, and its completion turning
 * the partial lead into the reservation's lead — one lead for the dealer, carrying the choices —
 * delivered by email and webhook once, the webhook really sent over HTTP and signed.
 */

let db: Db;
let w: CheckoutWorld;
let ip = 0;

const nextIp = () => {
  ip += 1;
  return `10.7.${(ip >> 8) & 255}.${ip & 255}`;
};

type Json = Record<string, unknown> & { fields?: Record<string, string>; error?: string };

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

async function call<P>(handler: Handler<P>, host: string, options: { method?: string; body?: unknown; headers?: Record<string, string>; params?: P } = {}) {
  const response = await callLeadRoute<P>(handler, { host, method: options.method, body: options.body, params: options.params, headers: { 'x-dealer-client-address': nextIp(), ...options.headers } });
  return { status: response.status, body: (await response.json()) as Json };
}

const PARTIAL = { lead_status: 'Incomplete', form_completed: false };

/** The journey's first three steps as the page sends them: the partial lead, the trade-in's valuation, the pick-up location. */
async function journeySteps(host: string, carId: number, locationId: number) {
  const created = await call(leadsRoute.POST, host, {
    body: { lead: { ...PARTIAL, step_number: 1, category: 'Reservation', subcategory: 'Online Purchase', car_id: carId, payment_method: 'finance', finance_estimate: 'from $190/week ($823/month), comparison rate 10.25% p.a.' } },
  });
  expect(created.status).toBe(201);
  const lead = { id: String(created.body.id), token: String(created.body.token) };
  const editToken = { 'x-edit-token': lead.token };
  const valuation = await call(valuationsRoute.POST, host, {
    headers: editToken,
    body: { valuation: { lead_id: lead.id, car_id: carId, rego: 'ABC123', state: 'NSW', make: 'Toyota', model: 'Corolla', year: 2018, km: 80000 } },
  });
  expect(valuation.status).toBe(201);
  const valuationId = String(valuation.body.id);
  for (const [step, fields] of [
    [2, { trade_in: 'yes', valuation_id: valuationId, trade_in_vehicle: '2018 Toyota Corolla (rego ABC123 NSW)' }],
    [3, { fulfilment: 'Pick up', pickup_location_id: locationId, pickup_location: 'Sales' }],
  ] as const) {
    const saved = await call(visitorRoute.PUT, host, { method: 'PUT', headers: editToken, params: { leadId: lead.id }, body: { lead: { ...PARTIAL, step_number: step, lead_id: lead.id, ...fields } } });
    expect(saved.status).toBe(200);
  }
  return { lead, valuationId };
}

function purchase(carId: number, choices: Record<string, unknown>) {
  return startBody(carId, { kind: 'buy_online', choices });
}

async function pay(host: string, id: string, token: string) {
  return call(cardRoute.POST, host, { body: { card: SUCCESS_CARD }, headers: { 'x-reservation-token': token }, params: { reservationId: id } });
}

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
  // Website A sells online (the store); B only reserves.
  await db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{enableStore}', 'true'::jsonb)` }).where(eq(websites.id, w.a.websiteId));
});

beforeEach(async () => {
  await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
  await db.execute(sql`update cars set reserved = false`);
  await db.execute(sql`delete from rate_limits`);
});

describe('the online purchase journey', () => {
  it('saves each choice on one partial lead, and the paid deposit completes that lead: one lead for the dealer, with the choices', async () => {
    const { lead, valuationId } = await journeySteps(w.hostA, w.carA, w.a.salesLocationId);
    const [partial] = await db.select().from(leads).where(eq(leads.id, lead.id));
    expect(partial).toMatchObject({ leadStatus: 'Incomplete', formCompleted: false, category: 'Reservation', stepNumber: 3 });
    expect(partial.attributes).toMatchObject({ payment_method: 'finance', trade_in: 'yes', valuation_id: valuationId, pickup_location_id: w.a.salesLocationId });
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, lead.id))).toEqual([]);

    const choices = { lead_id: lead.id, payment_method: 'finance', trade_in: true, valuation_id: valuationId, pickup_location_id: w.a.salesLocationId };
    const started = await call(startRoute.POST, w.hostA, { body: purchase(w.carA, choices), headers: { 'x-edit-token': lead.token } });
    expect(started.status).toBe(201);
    const reservation = started.body.reservation as { id: string };
    const paid = await pay(w.hostA, reservation.id, String(started.body.token));
    expect(paid.status).toBe(200);
    expect((paid.body.reservation as { status: string }).status).toBe('completed');

    const [row] = await db.select().from(reservations).where(eq(reservations.id, reservation.id));
    expect(row.leadId).toBe(lead.id);
    const carLeads = await db.select().from(leads).where(and(eq(leads.websiteId, w.a.websiteId), eq(leads.carId, w.carA), eq(leads.category, 'Reservation')));
    expect(carLeads.map((l) => l.id)).toEqual([lead.id]);
    const [completed] = carLeads;
    expect(completed).toMatchObject({ leadStatus: 'Complete', formCompleted: true, subcategory: 'Online Purchase', name: 'Jane', email: expect.stringMatching(/@example\.com$/) });
    expect(completed.attributes).toMatchObject({
      reservation_id: reservation.id,
      payment_method: 'finance',
      finance_estimate: expect.stringContaining('/week'),
      trade_in: true,
      valuation_id: valuationId,
      trade_in_vehicle: '2018 Toyota Corolla (rego ABC123 NSW)',
      pickup_location_id: w.a.salesLocationId,
      fulfilment: 'Pick up',
    });
    expect(completed.attributes).not.toHaveProperty('lead_id');
    const deliveries = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, lead.id));
    expect(deliveries.map((d) => d.channel).sort()).toEqual(['email', 'visitor_email', 'webhook']);
    const email = deliveries.find((d) => d.channel === 'email')!.payload as { text: string };
    expect(email.text).toContain('payment_method: finance');
    expect(email.text).toContain(`valuation_id: ${valuationId}`);
  });

  it('checks the delivery postcode against the postcode data, with the postcode messages', async () => {
    const check = callDelivery;
    expect((await check('2000')).status).toBe(200);
    expect(await check('9999')).toMatchObject({ status: 422, body: { fields: { postcode: 'Invalid postcode' } } });
    expect(await check('20o0')).toMatchObject({ status: 422, body: { fields: { postcode: 'Invalid postcode. Please enter a 4-digit number.' } } });
    expect(await check('<script>alert(1)</script>'.repeat(20))).toMatchObject({ status: 422 });
  });

  it('refuses choices that are not the visitor’s or not this website’s, before anything is held (422 naming the field)', async () => {
    const { lead, valuationId } = await journeySteps(w.hostA, w.carA, w.a.salesLocationId);
    const other = await journeySteps(w.hostA, w.carA, w.a.salesLocationId);
    const onB = await call(leadsRoute.POST, w.hostB, { body: { lead: { ...PARTIAL, category: 'Reservation', car_id: w.carB } } });
    expect(onB.status).toBe(201);
    const [bLocation] = await db.execute(sql`select id from locations where website_id = ${w.b.websiteId} limit 1`).then((r) => (Array.isArray(r) ? r : (r as { rows: { id: number }[] }).rows) as { id: number }[]);

    const cases: [Record<string, unknown>, string | null, string, string][] = [
      [{ lead_id: lead.id }, 'not-the-token-of-this-lead-000000000000', 'choices.lead_id', 'is not a lead of this website'],
      [{ lead_id: lead.id }, null, 'choices.lead_id', 'is not a lead of this website'],
      [{ lead_id: String(onB.body.id) }, String(onB.body.token), 'choices.lead_id', 'is not a lead of this website'],
      [{ lead_id: lead.id, valuation_id: other.valuationId }, lead.token, 'choices.valuation_id', 'is not a valuation of this lead'],
      [{ valuation_id: valuationId }, null, 'choices.valuation_id', 'is not a valuation of this lead'],
      [{ lead_id: lead.id, pickup_location_id: bLocation.id }, lead.token, 'choices.pickup_location_id', 'is not a location of this website'],
      [{ lead_id: lead.id, delivery_postcode: '9999' }, lead.token, 'choices.delivery_postcode', 'Invalid postcode'],
      [{ lead_id: lead.id, delivery_postcode: '20o0' }, lead.token, 'choices.delivery_postcode', 'Invalid postcode. Please enter a 4-digit number.'],
    ];
    for (const [choices, token, field, message] of cases) {
      const answer = await call(startRoute.POST, w.hostA, { body: purchase(w.carA, choices), headers: token ? { 'x-edit-token': token } : {} });
      expect(answer, JSON.stringify(choices)).toMatchObject({ status: 422, body: { fields: { [field]: message } } });
    }
    // B's website cannot use A's lead either (the lead is looked up on the website of the host).
    const crossSite = await call(startRoute.POST, w.hostB, { body: startBody(w.carB, { choices: { lead_id: lead.id } }), headers: { 'x-edit-token': lead.token } });
    expect(crossSite).toMatchObject({ status: 422, body: { fields: { 'choices.lead_id': 'is not a lead of this website' } } });
    // Hostile shapes: 4xx, never 5xx.
    for (const choices of [{ lead_id: 'x'.repeat(500) }, { pickup_location_id: -1 }, { delivery_postcode: 2000 }, { valuation_id: { $ne: null } }]) {
      expect((await call(startRoute.POST, w.hostA, { body: purchase(w.carA, choices) })).status).toBe(422);
    }
    const held = await db.select().from(reservations).where(and(eq(reservations.carId, w.carA), eq(reservations.status, 'pending_payment')));
    expect(held).toEqual([]);
    expect((await db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, w.carA)))[0].reserved).toBe(false);

    // A lead already sent is not reused.
    const done = await call(visitorRoute.PUT, w.hostA, { method: 'PUT', headers: { 'x-edit-token': lead.token }, params: { leadId: lead.id }, body: { lead: { lead_id: lead.id, name: 'Jane', email: 'jane.sent@example.com' } } });
    expect(done.status).toBe(200);
    const reused = await call(startRoute.POST, w.hostA, { body: purchase(w.carA, { lead_id: lead.id }), headers: { 'x-edit-token': lead.token } });
    expect(reused).toMatchObject({ status: 422, body: { fields: { 'choices.lead_id': 'has already been sent' } } });
  });
});

describe("the dealer's webhook", () => {
  let server: Server;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    // The receiver is on 127.0.0.1: allowed only as LEAD_WEBHOOK_ALLOW_PRIVATE=1 allows it (leads.delivery.ts).
    env().leadWebhookAllowPrivate = true;
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.method === 'POST') received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await db.update(leadWebhooks).set({ url: `http://127.0.0.1:${port}/dealer/leads` }).where(eq(leadWebhooks.dealershipId, w.a.dealershipId));
  });

  afterAll(async () => {
    env().leadWebhookAllowPrivate = false;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('receives the reservation once, signed, and the outbox sends its email once', async () => {
    // Earlier tests' deliveries out of the way (their webhook went to the old address).
    await db.execute(sql`update lead_deliveries set status = 'delivered' where status = 'pending'`);
    const { lead, valuationId } = await journeySteps(w.hostA, w.corollaA, w.a.salesLocationId);
    const choices = { lead_id: lead.id, payment_method: 'cash', trade_in: true, valuation_id: valuationId, pickup_location_id: w.a.salesLocationId };
    const started = await call(startRoute.POST, w.hostA, { body: purchase(w.corollaA, choices), headers: { 'x-edit-token': lead.token } });
    expect(started.status).toBe(201);
    const reservationId = (started.body.reservation as { id: string }).id;
    expect((await pay(w.hostA, reservationId, String(started.body.token))).status).toBe(200);

    // The outbox worker's own batch, with the real transports: HTTP to the dealer's address.
    for (let i = 0; i < 3; i += 1) await runDeliveryBatch({ worker: 'journey-test' });

    expect(received).toHaveLength(1);
    const [hook] = received;
    const body = JSON.parse(hook.body) as { lead: { id: string; category: string; attributes: Record<string, unknown> }; reservation: { id: string; status: string; kind: string } };
    expect(body.reservation).toMatchObject({ id: reservationId, status: 'completed', kind: 'buy_online' });
    expect(body.lead).toMatchObject({ id: lead.id, category: 'Reservation', attributes: { payment_method: 'cash', valuation_id: valuationId } });
    expect(hook.headers['idempotency-key']).toBe(`lead-${lead.id}`);
    const signature = String(hook.headers['x-lead-signature']);
    const timestamp = Number(/^t=(\d+),/.exec(signature)?.[1]);
    expect(signature).toBe(signWebhook(hook.body, 'hook-secret', timestamp));
    expect(Math.abs(Date.now() / 1000 - timestamp)).toBeLessThan(60);

    const deliveries = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, lead.id));
    expect(deliveries.map((d) => `${d.channel}:${d.status}`).sort()).toEqual(['email:delivered', 'visitor_email:delivered', 'webhook:delivered']);
  });
});

async function callDelivery(postcode: string) {
  const request = new Request(`http://${w.hostA}/api/checkout/delivery?postcode=${encodeURIComponent(postcode)}`, { headers: { host: w.hostA, 'x-dealer-client-address': nextIp() } });
  const response = await deliveryRoute.GET(request, { params: Promise.resolve({}) });
  return { status: response.status, body: (await response.json()) as Json };
}
