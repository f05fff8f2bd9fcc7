import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as statusRoute from '@/app/api/checkout/reservations/[reservationId]/route';
import * as returnRoute from '@/app/api/checkout/reservations/[reservationId]/return/route';
import * as notificationsRoute from '@/app/api/checkout/notifications/[provider]/route';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { cars } from '@/modules/stock/stock.schema';
import { websiteDomains, websites } from '@/modules/tenancy/tenancy.schema';
import { setProviderOverride } from '@/modules/checkout/adapters';
import { ipgNotificationHash, stGeorgeProvider } from '@/modules/checkout/adapters/stgeorge';
import { tillProvider, tillSignature } from '@/modules/checkout/adapters/till';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { paymentProviderEvents, reservations } from '@/modules/checkout/checkout.schema';
import { CHECKOUT_MESSAGES } from '@/modules/checkout/checkout.validation';
import { seedCheckoutWorld, startBody, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * Decision 041: the browser's payment step for the hosted-page providers, through the routes.
 * Website A takes reservations with Till, website B with St George; both adapters talk to local
 * doubles (no network). The visitor's return from the hosted page, the provider's signed
 * notification, and what the browser is given (never a secret) are checked end to end.
 */

const TILL = { url: 'https://till.example', apiKey: 'till-api-key', sharedSecret: 'till-shared-secret', username: 'till-user', password: 'till-password' };
const IPG = { url: 'https://ipg.example/gateway/v2', connectUrl: 'https://ipg.example/connect/gateway/processing', storeId: '1234567', apiKey: 'ipg-api-key', apiSecret: 'ipg-api-secret', sharedSecret: 'ipg-shared-secret' };
const SECRETS = [TILL.apiKey, TILL.sharedSecret, TILL.username, TILL.password, IPG.apiKey, IPG.apiSecret, IPG.sharedSecret];

type Step = { kind: string; url?: string; fields?: Record<string, string> };
type StartAnswer = { reservation: { id: string; status: string; message: string | null }; token: string; payment: Step; error?: string };

let db: Db;
let w: CheckoutWorld;
let ip = 0;

/** Till's gateway as the adapter sees it: preauthorize answers its hosted page; status and capture as the callback left them. */
const till = {
  requests: [] as { path: string; body: Record<string, unknown> }[],
  redirectUrl: (n: number): unknown => `https://till.example/redirect/${n}`,
  statuses: new Map<string, string>(),
  fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    till.requests.push({ path, body });
    const json = (value: unknown) => new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
    if (path.endsWith('/preauthorize')) {
      const uuid = `till-uuid-${till.requests.length}`;
      till.statuses.set(uuid, 'PENDING');
      return json({ success: true, uuid, purchaseId: `p-${uuid}`, returnType: 'REDIRECT', redirectUrl: till.redirectUrl(till.requests.length), paymentMethod: 'Creditcard' });
    }
    if (path.includes('/getByUuid/')) return json({ success: true, transactionType: 'PREAUTHORIZE', transactionStatus: till.statuses.get(decodeURIComponent(path.split('/').pop()!)) });
    return json({ success: true, uuid: `follow-${till.requests.length}`, returnType: 'FINISHED' });
  }) as typeof fetch,
};

const ipgCalls: string[] = [];
/** The secondary transactions asked of IPG (PostAuth = capture), by order. */
const ipgSecondary: { path: string; requestType: unknown }[] = [];
const ipgFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  ipgCalls.push(new URL(String(input)).pathname);
  if (init?.method === 'POST' && typeof init.body === 'string') ipgSecondary.push({ path: new URL(String(input)).pathname, requestType: (JSON.parse(init.body) as { requestType?: unknown }).requestType });
  return new Response(JSON.stringify({ transactionStatus: 'APPROVED', ipgTransactionId: '84538652787' }), { headers: { 'content-type': 'application/json' } });
}) as typeof fetch;

/** Starts a reservation of the car; with an Idempotency-Key, the body is the same for every start with that key. */
const bodiesByKey = new Map<string, Record<string, unknown>>();
async function start(host: string, carId: number, headers: Record<string, string> = {}) {
  ip += 1;
  const key = headers['idempotency-key'];
  const body = key ? (bodiesByKey.get(key) ?? bodiesByKey.set(key, startBody(carId)).get(key)!) : startBody(carId);
  const response = await callLeadRoute(startRoute.POST, { host, body, headers: { 'x-dealer-client-address': `10.41.0.${ip}`, ...headers } });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as StartAnswer, text };
}

async function status(host: string, id: string, token: string) {
  const response = await callLeadRoute(statusRoute.GET, { host, method: 'GET', headers: { 'x-reservation-token': token }, params: { reservationId: id } });
  return { status: response.status, body: (await response.json()) as StartAnswer };
}

function visitorReturns(method: 'GET' | 'POST', url: string, body?: string) {
  const request = new Request(url, { method, body, headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {} });
  const id = new URL(url).pathname.split('/')[4];
  return returnRoute[method](request, { params: Promise.resolve({ reservationId: id }) });
}

// The callbacks below are signed with the adapters' own tillSignature and ipgNotificationHash: they
// must carry the current date (a callback older than 15 minutes is refused), so no fixed vector can
// sign them; both functions are pinned to the providers' reference vectors in adapters.test.ts.
function tillCallback(payload: Record<string, unknown>, secret = TILL.sharedSecret) {
  const body = JSON.stringify(payload);
  const date = new Date().toUTCString();
  const contentType = 'application/json; charset=utf-8';
  const signature = tillSignature(secret, 'POST', body, contentType, date, '/api/checkout/notifications/till');
  const request = new Request('http://platform.example/api/checkout/notifications/till', { method: 'POST', headers: { 'content-type': contentType, date, 'x-signature': signature }, body });
  return notificationsRoute.POST(request, { params: Promise.resolve({ provider: 'till' }) });
}

function ipgNotification(fields: Record<string, string>, secret = IPG.sharedSecret) {
  const signed = { ...fields, notification_hash: ipgNotificationHash(fields, secret) };
  const request = new Request('http://platform.example/api/checkout/notifications/stgeorge', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(signed).toString(),
  });
  return notificationsRoute.POST(request, { params: Promise.resolve({ provider: 'stgeorge' }) });
}

const row = async (id: string) => (await db.select().from(reservations).where(eq(reservations.id, id)))[0];
const carReserved = async (carId: number) => (await db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, carId)))[0].reserved;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
  // Configuration, not code: A takes reservations with Till, B with St George.
  for (const [websiteId, provider] of [
    [w.a.websiteId, 'Till'],
    [w.b.websiteId, 'St George'],
  ] as const) {
    await db
      .update(websites)
      .set({ config: sql`jsonb_set(${websites.config}, '{checkout,paymentProvider}', ${JSON.stringify(provider)}::jsonb)` })
      .where(eq(websites.id, websiteId));
  }
  setProviderOverride('till', tillProvider({ ...TILL, fetch: till.fetch }));
  setProviderOverride('stgeorge', stGeorgeProvider({ ...IPG, fetch: ipgFetch }));
});

afterAll(() => {
  setProviderOverride('till', null);
  setProviderOverride('stgeorge', null);
});

beforeEach(async () => {
  await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
  await db.execute(sql`update cars set reserved = false`);
  await db.execute(sql`delete from rate_limits`);
  till.redirectUrl = (n) => `https://till.example/redirect/${n}`;
});

describe('Till (a redirect to the hosted payment page)', () => {
  it('sends the browser to Till’s page, back to its own host, and holds the car only when the signed callback says so', async () => {
    const started = await start(w.hostA, w.carA);
    expect(started.status).toBe(201);
    const id = started.body.reservation.id;
    expect(started.body.payment).toEqual({ kind: 'redirect', url: expect.stringMatching(/^https:\/\/till\.example\/redirect\/\d+$/) });
    for (const secret of SECRETS) expect(started.text).not.toContain(secret);

    const preauthorize = till.requests.findLast((r) => r.path.endsWith('/preauthorize'))!;
    const back = `http://${w.hostA}/api/checkout/reservations/${id}/return`;
    expect(preauthorize.body).toMatchObject({ successUrl: `${back}?outcome=success`, cancelUrl: `${back}?outcome=cancel`, errorUrl: `${back}?outcome=error`, callbackUrl: `http://${w.hostA}/api/checkout/notifications/till` });

    // Back from Till's page before the callback: /checkout, still waiting; nothing decided by the address.
    const returned = await visitorReturns('GET', `${preauthorize.body.successUrl as string}&uuid=forged&result=OK`);
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(`/checkout?reservation=${id}&outcome=success`);
    expect((await status(w.hostA, id, started.body.token)).body.reservation.status).toBe('pending_payment');
    expect(await carReserved(w.carA)).toBe(false);

    // Till's callback, signed: authorised → held → captured → completed.
    const ref = (await row(id)).providerRef!;
    const callback = await tillCallback({ result: 'OK', uuid: ref, merchantTransactionId: `${id}-create`, transactionType: 'PREAUTHORIZE', amount: '500.00', currency: 'AUD' });
    expect(callback.status).toBe(200);
    expect(await callback.text()).toBe('OK');
    expect((await status(w.hostA, id, started.body.token)).body.reservation.status).toBe('completed');
    expect(await carReserved(w.carA)).toBe(true);
    expect(till.requests.some((r) => r.path.endsWith('/capture') && r.body.referenceUuid === ref && r.body.merchantTransactionId === `${id}-capture`)).toBe(true);
  });

  it('builds the return URLs from the website’s own domain, never from the Host: junk in it is 400, its port and case are not carried', async () => {
    const preauthorizes = () => till.requests.filter((r) => r.path.endsWith('/preauthorize')).length;
    const before = preauthorizes();
    // The URL a server builds from such a Host cannot be a Request's (it has credentials): only the header carries it.
    const evil = new Request('http://server.invalid/api/checkout/reservations', {
      method: 'POST',
      headers: { host: `${w.hostA}:80@evil.example`, 'content-type': 'application/json', 'x-dealer-client-address': '10.41.9.1' },
      body: JSON.stringify(startBody(w.carA)),
    });
    expect((await startRoute.POST(evil, { params: Promise.resolve({}) })).status).toBe(400);
    expect(preauthorizes()).toBe(before);

    await db.insert(websiteDomains).values({ websiteId: w.a.websiteId, host: 'alpha.example' });
    try {
      const started = await start('ALPHA.example:8443', w.carA);
      expect(started.status).toBe(201);
      const back = `http://alpha.example/api/checkout/reservations/${started.body.reservation.id}/return`;
      expect(till.requests.findLast((r) => r.path.endsWith('/preauthorize'))!.body).toMatchObject({ successUrl: `${back}?outcome=success`, cancelUrl: `${back}?outcome=cancel`, errorUrl: `${back}?outcome=error` });
    } finally {
      await db.delete(websiteDomains).where(eq(websiteDomains.host, 'alpha.example'));
    }
  });

  it('a cancel on Till’s page: back to /checkout with that word; the callback’s error fails the reservation and frees the car', async () => {
    const started = await start(w.hostA, w.carA);
    const id = started.body.reservation.id;
    const returned = await visitorReturns('GET', `http://${w.hostA}/api/checkout/reservations/${id}/return?outcome=cancel`);
    expect(returned.headers.get('location')).toBe(`/checkout?reservation=${id}&outcome=cancel`);
    const ref = (await row(id)).providerRef!;
    expect((await tillCallback({ result: 'ERROR', uuid: ref, transactionType: 'PREAUTHORIZE', message: 'Cancelled by the customer' })).status).toBe(200);
    const after = (await status(w.hostA, id, started.body.token)).body.reservation;
    expect(after).toMatchObject({ status: 'failed', message: 'Cancelled by the customer' });
    expect(await carReserved(w.carA)).toBe(false);
    // The car can be reserved again at once.
    expect((await start(w.hostA, w.carA)).status).toBe(201);
  });

  it('each callback delivered 3 times and out of order is processed once: one capture, one lead', async () => {
    const started = await start(w.hostA, w.carA);
    const id = started.body.reservation.id;
    const ref = (await row(id)).providerRef!;
    const preauthorized = { result: 'OK', uuid: ref, merchantTransactionId: `${id}-create`, transactionType: 'PREAUTHORIZE', amount: '500.00', currency: 'AUD' };
    const captured = { result: 'OK', uuid: `capture-of-${ref}`, referenceUuid: ref, merchantTransactionId: `${id}-capture`, transactionType: 'CAPTURE', amount: '500.00', currency: 'AUD' };
    const answers = await Promise.all([tillCallback(preauthorized), tillCallback(preauthorized), tillCallback(preauthorized)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const payload of [captured, preauthorized, captured, captured]) expect((await tillCallback(payload)).status).toBe(200);
    const after = await row(id);
    expect(after.status).toBe('completed');
    expect(till.requests.filter((r) => r.path.endsWith('/capture') && r.body.referenceUuid === ref)).toHaveLength(1);
    expect(await db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.reservationId, id))).toHaveLength(2);
    expect((await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, after.leadId!))).map((d) => d.channel).sort()).toEqual(['email', 'visitor_email', 'webhook']);
  });

  it('a callback with a bad signature is 400 and changes nothing', async () => {
    const started = await start(w.hostA, w.carA);
    const ref = (await row(started.body.reservation.id)).providerRef!;
    expect((await tillCallback({ result: 'OK', uuid: ref, transactionType: 'PREAUTHORIZE' }, 'someone-else')).status).toBe(400);
    expect((await row(started.body.reservation.id)).status).toBe('pending_payment');
  });

  it('a hostile payment page address from the provider is never handed to the browser: 502, the hold released', async () => {
    till.redirectUrl = () => 'javascript:alert(document.cookie)';
    const started = await start(w.hostA, w.carA);
    expect(started.status).toBe(502);
    expect(started.body.error).toBe(CHECKOUT_MESSAGES.providerFailed);
    expect(started.text).not.toContain('javascript:');
    expect(await db.select().from(reservations).where(sql`car_id = ${w.carA} and status in ('pending_payment', 'held')`)).toHaveLength(0);
  });

  it('another website cannot read the reservation (404)', async () => {
    const started = await start(w.hostA, w.carA);
    expect((await status(w.hostB, started.body.reservation.id, started.body.token)).status).toBe(404);
  });
});

describe('St George IPG Connect (a signed form posted to the hosted page)', () => {
  it('gives the browser the form to post, returns by POST to its own host, and the notification decides', async () => {
    const started = await start(w.hostB, w.carB);
    expect(started.status).toBe(201);
    const id = started.body.reservation.id;
    const step = started.body.payment;
    expect(step.kind).toBe('form-post');
    expect(step.url).toBe(IPG.connectUrl);
    const fields = step.fields!;
    expect(fields).toMatchObject({ txntype: 'preauth', storename: IPG.storeId, chargetotal: '500.00', oid: (await row(id)).providerRef });
    expect(fields.responseSuccessURL).toBe(`http://${w.hostB}/api/checkout/reservations/${id}/return?outcome=success`);
    expect(fields.responseFailURL).toBe(`http://${w.hostB}/api/checkout/reservations/${id}/return?outcome=error`);
    expect(fields.hashExtended).toMatch(/^[A-Za-z0-9+/]+=*$/);
    for (const secret of SECRETS) expect(started.text).not.toContain(secret);

    // IPG posts the visitor back with its result fields: a 303 to /checkout, the fields ignored.
    const returned = await visitorReturns('POST', fields.responseFailURL, new URLSearchParams({ status: 'APPROVED', approval_code: 'Y:forged', oid: fields.oid }).toString());
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(`/checkout?reservation=${id}&outcome=error`);
    expect((await row(id)).status).toBe('pending_payment');

    const notified = await ipgNotification({ chargetotal: '500.00', currency: '036', txndatetime: fields.txndatetime, storename: IPG.storeId, approval_code: 'Y:123456:0123456789:PPX :1234', oid: fields.oid, status: 'APPROVED', txntype: 'preauth', ipgTransactionId: '84538652787' });
    expect(notified.status).toBe(200);
    expect((await status(w.hostB, id, started.body.token)).body.reservation.status).toBe('completed');
    expect(ipgCalls).toContain(`/gateway/v2/payments/${encodeURIComponent(fields.oid)}`);
  });

  it('a notification delivered 3 times and out of order is processed once: one PostAuth', async () => {
    const started = await start(w.hostB, w.carB);
    const id = started.body.reservation.id;
    const fields = started.body.payment.fields!;
    const approved = { chargetotal: '500.00', currency: '036', txndatetime: fields.txndatetime, storename: IPG.storeId, approval_code: 'Y:654321:0123456789:PPX :1234', oid: fields.oid, status: 'APPROVED', txntype: 'preauth', ipgTransactionId: '84538652790' };
    const declinedLate = { ...approved, approval_code: 'N:05:Do not honour', status: 'DECLINED', fail_reason: 'Do not honour' };
    const answers = await Promise.all([ipgNotification(approved), ipgNotification(approved), ipgNotification(approved)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const payload of [declinedLate, approved]) expect((await ipgNotification(payload)).status).toBe(200);
    expect((await row(id)).status).toBe('completed');
    expect(ipgSecondary.filter((c) => c.path.endsWith(`/payments/${encodeURIComponent(fields.oid)}`) && c.requestType === 'PostAuthSecondaryTransaction')).toHaveLength(1);
    expect(await db.select().from(paymentProviderEvents).where(eq(paymentProviderEvents.reservationId, id))).toHaveLength(2);
  });

  it('a forged notification (wrong hash) is 400 and changes nothing', async () => {
    const started = await start(w.hostB, w.carB);
    const oid = (await row(started.body.reservation.id)).providerRef!;
    const forged = await ipgNotification({ chargetotal: '500.00', currency: '036', txndatetime: '2026:11:25-10:00:00', storename: IPG.storeId, approval_code: 'Y:1', oid, status: 'APPROVED' }, 'not-the-secret');
    expect(forged.status).toBe(400);
    expect((await row(started.body.reservation.id)).status).toBe('pending_payment');
  });
});

describe('a start repeated with the same Idempotency-Key', () => {
  it('answers the same hosted page (Till) or form (St George) from the reservation, without asking the provider again', async () => {
    const preauthorizes = () => till.requests.filter((r) => r.path.endsWith('/preauthorize')).length;
    for (const [host, carId, kind] of [
      [w.hostA, w.carA, 'redirect'],
      [w.hostB, w.carB, 'form-post'],
    ] as const) {
      const key = { 'idempotency-key': `repeat-${kind}` };
      const first = await start(host, carId, key);
      expect(first.status).toBe(201);
      expect(first.body.payment.kind).toBe(kind);
      const asked = { till: preauthorizes(), ipg: ipgCalls.length };
      // A second apart: a form rebuilt now would carry another txndatetime.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const again = await start(host, carId, key);
      expect(again.status).toBe(200);
      expect(again.body.reservation.id).toBe(first.body.reservation.id);
      expect(again.body.payment).toEqual(first.body.payment);
      expect({ till: preauthorizes(), ipg: ipgCalls.length }).toEqual(asked);
      for (const secret of SECRETS) expect(again.text).not.toContain(secret);
    }
  });

  it('answers no payment step once the payment is no longer pending (the step is not kept)', async () => {
    const key = { 'idempotency-key': 'repeat-after-callback' };
    const first = await start(w.hostA, w.carA, key);
    const id = first.body.reservation.id;
    expect((await tillCallback({ result: 'ERROR', uuid: (await row(id)).providerRef, transactionType: 'PREAUTHORIZE', message: 'Declined' })).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'failed', paymentStep: null });
    const again = await start(w.hostA, w.carA, key);
    expect(again).toMatchObject({ status: 200, body: { reservation: { id, status: 'failed' }, payment: null } });
  });
});

describe('the return endpoint', () => {
  it('answers only a reservation id, and passes on one known word of outcome', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const base = `http://${w.hostA}/api/checkout/reservations/${id}/return`;
    expect((await visitorReturns('GET', `${base}?outcome=%3Cscript%3E`)).headers.get('location')).toBe(`/checkout?reservation=${id}&outcome=success`);
    expect((await visitorReturns('GET', `${base}?redirect_status=failed&payment_intent=pi_1`)).headers.get('location')).toBe(`/checkout?reservation=${id}&outcome=error`);
    for (const bad of ['not-a-uuid', '..%2F..%2Fadmin', 'https:%2F%2Fevil.example']) {
      const response = await returnRoute.GET(new Request(`http://${w.hostA}/api/checkout/reservations/${bad}/return`), { params: Promise.resolve({ reservationId: bad }) });
      expect(response.status, bad).toBe(404);
    }
  });
});
