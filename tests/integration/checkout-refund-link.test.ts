import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as cardRoute from '@/app/api/checkout/reservations/[reservationId]/sandbox/card/route';
import * as refundLinkRoute from '@/app/api/checkout/refund-links/route';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';
import { refundLinkState } from '@/modules/checkout/checkout.commands';
import { refundLinkSigner } from '@/modules/checkout/checkout.refund-link';
import { reservations, sandboxPayments } from '@/modules/checkout/checkout.schema';
import { seedCheckoutWorld, startBody, SUCCESS_CARD, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * Issue 31: the dealer's reservation email links to a refund that works from the email: signed,
 * single-use, expiring, a confirmation page first (GET changes nothing), the refund a same-site
 * POST from that page through the Dashboard API's refund command.
 */

let db: Db;
let w: CheckoutWorld;
let ip = 0;
const nextIp = () => `10.31.${(++ip >> 8) & 255}.${ip & 255}`;

type Started = { reservation: { id: string }; token: string };

/** A paid (completed) reservation of A's car, and the refund link of its dealer email. */
async function paidReservation(): Promise<{ id: string; link: string; email: string }> {
  const started = await callLeadRoute(startRoute.POST, { host: w.hostA, body: startBody(w.carA), headers: { 'x-dealer-client-address': nextIp() } });
  const { reservation, token } = (await started.json()) as Started;
  const paid = await callLeadRoute(cardRoute.POST, { host: w.hostA, body: { card: SUCCESS_CARD }, headers: { 'x-reservation-token': token, 'x-dealer-client-address': nextIp() }, params: { reservationId: reservation.id } });
  expect(paid.status).toBe(200);
  const [row] = await db.select().from(reservations).where(eq(reservations.id, reservation.id));
  expect(row.status).toBe('completed');
  const [delivery] = await db.select().from(leadDeliveries).where(sql`${leadDeliveries.leadId} = ${row.leadId} and ${leadDeliveries.channel} = 'email'`);
  const email = (delivery.payload as { text: string }).text;
  const match = /\/reservation-refund\/([\w-]+\.[\w-]+\.[\w-]+)/.exec(email);
  expect(match, email).not.toBeNull();
  return { id: reservation.id, link: match![1], email };
}

async function postLink(host: string, token: string, headers: Record<string, string> = {}) {
  return callLeadRoute(refundLinkRoute.POST, {
    host,
    rawBody: new URLSearchParams({ token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${host}`, 'sec-fetch-site': 'same-origin', ...headers },
  });
}

const outcomeOf = (response: Response) => new URL(response.headers.get('location') ?? '', 'http://x').searchParams.get('outcome');
const statusOf = async (id: string) => (await db.select({ status: reservations.status }).from(reservations).where(eq(reservations.id, id)))[0].status;
const refundedMinor = async (id: string) => {
  const [row] = await db.select({ ref: reservations.providerRef }).from(reservations).where(eq(reservations.id, id));
  return (await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, row.ref!)))[0].refundedMinor;
};

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
});

beforeEach(async () => {
  await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held', 'completed')`);
  await db.execute(sql`update cars set reserved = false`);
  await db.execute(sql`delete from rate_limits`);
});

describe('the refund link of the dealer reservation email', () => {
  it('is a link to a confirmation page on the website, valid 14 days, not an API path', async () => {
    const { email, link } = await paidReservation();
    expect(email).not.toContain('POST /dealerships');
    expect(email).toContain(`/reservation-refund/${link}`);
    expect(email).toMatch(/it works once, for 14 days \(until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m [A-Z]+\)/);
  });

  it('GET never refunds: opening the page only shows the reservation, ready to refund', async () => {
    const { id, link } = await paidReservation();
    for (let i = 0; i < 3; i += 1) expect((await refundLinkState(w.tenantA, link)).kind).toBe('ready');
    expect(await statusOf(id)).toBe('completed');
    expect(await refundedMinor(id)).toBe(0);
    // The refund endpoint has no GET at all.
    expect('GET' in refundLinkRoute).toBe(false);
  });

  it('a valid link refunds once; used again it refunds nothing and says it was used', async () => {
    const { id, link } = await paidReservation();
    const first = await postLink(w.hostA, link);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/reservation-refund/${link}?outcome=refunded`);
    expect(await statusOf(id)).toBe('refunded');
    expect((await db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, w.carA)))[0].reserved).toBe(false);
    expect(await refundedMinor(id)).toBe(50_000);

    const again = await postLink(w.hostA, link);
    expect(outcomeOf(again)).toBe('used');
    expect(await refundedMinor(id)).toBe(50_000);
    expect((await refundLinkState(w.tenantA, link)).kind).toBe('used');
  });

  it('refuses an expired link', async () => {
    const { id } = await paidReservation();
    const [row] = await db.select().from(reservations).where(eq(reservations.id, id));
    const old = await (await refundLinkSigner())({ id, websiteId: row.websiteId, dealershipId: row.dealershipId }, new Date(Date.now() - 15 * 86_400_000));
    const token = old.path.split('/').pop()!;
    expect(await refundLinkState(w.tenantA, token)).toMatchObject({ kind: 'problem', problem: 'expired' });
    expect(outcomeOf(await postLink(w.hostA, token))).toBe('expired');
    expect(await statusOf(id)).toBe('completed');
    // Signed 13 days ago: still good.
    const recent = await (await refundLinkSigner())({ id, websiteId: row.websiteId, dealershipId: row.dealershipId }, new Date(Date.now() - 13 * 86_400_000));
    expect((await refundLinkState(w.tenantA, recent.path.split('/').pop()!)).kind).toBe('ready');
  });

  it('refuses a tampered link: a changed claim (a later expiry), a changed signature, extra characters', async () => {
    const { id, link } = await paidReservation();
    const [header, payload, signature] = link.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: (claims.exp as number) + 86_400 * 365 })).toString('base64url')}.${signature}`;
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const token of [forged, flipped, `${link}x`, 'not-a-link']) {
      const answer = await postLink(w.hostA, token);
      if (token === 'not-a-link') {
        expect(answer.status).toBe(422);
        expect(((await answer.json()) as { fields: Record<string, string> }).fields).toEqual({ token: 'is not a refund link' });
      } else expect(outcomeOf(answer)).toBe('invalid');
    }
    expect(await statusOf(id)).toBe('completed');
    expect(await refundedMinor(id)).toBe(0);
  });

  it("refuses another website's link, and cross-site or non-form posts", async () => {
    const { id, link } = await paidReservation();
    expect(await refundLinkState(w.tenantB, link)).toMatchObject({ kind: 'problem', problem: 'other-website' });
    expect(outcomeOf(await postLink(w.hostB, link))).toBe('other-website');
    expect((await postLink(w.hostA, link, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const json = await callLeadRoute(refundLinkRoute.POST, { host: w.hostA, body: { token: link } });
    expect(json.status).toBe(415);
    const empty = await postLink(w.hostA, '');
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { fields: Record<string, string> }).fields).toEqual({ token: '*This is a required field.' });
    expect(await statusOf(id)).toBe('completed');
    expect(await refundedMinor(id)).toBe(0);
  });
});
