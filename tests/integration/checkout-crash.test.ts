import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { createCrashDatabase, runUntilKilled, type CrashDatabase } from '../support/crash-process';
import * as notificationsRoute from '@/app/api/checkout/notifications/[provider]/route';
import { reconcileReservations } from '@/modules/checkout/checkout.commands';
import { reservationEvents, reservations, sandboxPayments } from '@/modules/checkout/checkout.schema';
import type { SandboxNotification } from '@/modules/checkout/adapters/sandbox';
import { seedCheckoutWorld, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';
import { leadDeliveries, leads } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';

/**
 * Issue 16, Done when: 'the server killed after the provider's success and before the reservation
 * commit → after restart the reservation is completed from the provider's notification (or a
 * reconciliation job), never lost, never doubled'. A real child process (tests/support/
 * checkout-crash-child.ts) runs the reservation code against this file's database and is killed
 * with SIGKILL right after the sandbox provider authorised or captured, before the commit that
 * follows. This process then does what the restarted server does: takes the provider's retried
 * notifications at the notification endpoint, and runs the housekeeping's reconciliation.
 */

let crash: CrashDatabase;
let handle: DatabaseHandle;
let w: CheckoutWorld;

beforeAll(async () => {
  crash = await createCrashDatabase('checkout_crash');
  handle = await crash.open();
  w = await seedCheckoutWorld(handle.db);
});

afterAll(async () => {
  await handle?.close();
  (globalThis as unknown as { __dbHandle?: unknown }).__dbHandle = undefined;
  await crash?.remove();
});

/** Runs the child until it stands at the kill point, kills it, opens the database again here. */
async function killedAfter(step: 'confirmCard' | 'capture', carId: number) {
  if (crash.exclusive) await handle.close();
  const output = await runUntilKilled('tests/support/checkout-crash-child.ts', { ...crash.childEnv, CHECKOUT_CRASH_AFTER: step, CHECKOUT_CRASH_HOST: w.hostA, CHECKOUT_CRASH_CAR: String(carId) }, (o) =>
    o.includes('at-kill-point'),
  );
  if (crash.exclusive) handle = await crash.open();
  const id = /reservation ([0-9a-f-]{36})/.exec(output)![1];
  const notifications = [...output.matchAll(/^notification (.*)$/gm)].map((m) => JSON.parse(m[1]) as SandboxNotification);
  return { id, notifications };
}

/** The provider retrying its notification until the restarted server takes it. */
async function deliver(notifications: SandboxNotification[]) {
  for (const n of notifications) {
    const request = new Request('http://platform.example/api/checkout/notifications/sandbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': n.signature },
      body: n.body,
    });
    expect((await notificationsRoute.POST(request, { params: Promise.resolve({ provider: 'sandbox' }) })).status).toBe(200);
  }
}

const reservationRow = async (id: string) => (await handle.db.select().from(reservations).where(eq(reservations.id, id)))[0];
const paymentOf = async (id: string) => (await handle.db.select().from(sandboxPayments).where(eq(sandboxPayments.reservationId, id)))[0];

/** Completed once: one capture and nothing else at the provider, one lead and its outbox rows, the car reserved by this reservation only. */
async function expectCompletedOnce(id: string, carId: number) {
  const row = await reservationRow(id);
  expect(row.status).toBe('completed');
  const payment = await paymentOf(id);
  expect(payment).toMatchObject({ status: 'succeeded', refundedMinor: 0, amountMinor: 50_000 });
  // The sandbox records each capture, void and refund by its idempotency key: one capture, no void, no refund.
  expect(Object.keys(payment.idempotency)).toEqual([`${id}-capture`]);
  const reservationLeads = await handle.db.select().from(leads).where(and(eq(leads.websiteId, w.a.websiteId), eq(leads.idempotencyKey, `reservation-${id}`)));
  expect(reservationLeads.map((l) => l.id)).toEqual([row.leadId]);
  const outbox = await handle.db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, row.leadId!));
  expect(outbox.map((d) => d.channel).sort()).toEqual(['email', 'visitor_email', 'webhook']);
  const audit = await handle.db.select().from(reservationEvents).where(eq(reservationEvents.reservationId, id));
  expect(audit.map((e) => e.toStatus).sort()).toEqual(['completed', 'held', 'pending_payment']);
  const [car] = await handle.db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, carId));
  expect(car.reserved).toBe(true);
  const holding = await handle.db.select({ id: reservations.id }).from(reservations).where(and(eq(reservations.carId, carId), inArray(reservations.status, ['held', 'completed'])));
  expect(holding.map((r) => r.id)).toEqual([id]);
  return row;
}

describe('a server process killed between the provider and the commit', () => {
  it('after the authorisation, before the hold: the provider notification completes it after the restart, and the sweep finds nothing to do', async () => {
    const { id, notifications } = await killedAfter('confirmCard', w.carA);
    // What the dead process left: the provider authorised, the platform never committed the hold.
    expect((await reservationRow(id)).status).toBe('pending_payment');
    expect(await paymentOf(id)).toMatchObject({ status: 'requires_capture' });
    expect((await handle.db.select({ reserved: cars.reserved }).from(cars).where(eq(cars.id, w.carA)))[0].reserved).toBe(false);
    expect(notifications.map((n) => JSON.parse(n.body).type)).toEqual(['payment.authorized']);

    // The restarted server: the provider's retries (twice), then the housekeeping's sweep.
    await deliver([...notifications, ...notifications]);
    const row = await expectCompletedOnce(id, w.carA);
    await reconcileReservations({ olderThanMs: 0 });
    // This process's own capture is notified too (1 ms later, recorded by the checkout world): late, it changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(w.notifications.filter((n) => n.body.includes(row.providerRef!)).map((n) => JSON.parse(n.body).type)).toEqual(['payment.captured']);
    await deliver([...notifications, ...w.notifications.filter((n) => n.body.includes(row.providerRef!))]);
    expect(await expectCompletedOnce(id, w.carA)).toMatchObject({ leadId: row.leadId, capturedAt: row.capturedAt });
  }, 120_000);

  it('after the capture, before the completion: the reconciliation completes it after the restart, and the late notifications change nothing', async () => {
    const { id, notifications } = await killedAfter('capture', w.corollaA);
    // What the dead process left: the hold committed and the deposit captured, never marked completed.
    expect((await reservationRow(id)).status).toBe('held');
    expect(await paymentOf(id)).toMatchObject({ status: 'succeeded' });
    expect((await handle.db.select({ n: sql<number>`count(*)::int` }).from(leads).where(eq(leads.idempotencyKey, `reservation-${id}`)))[0].n).toBe(0);
    expect(notifications.map((n) => JSON.parse(n.body).type)).toEqual(['payment.authorized', 'payment.captured']);

    // The restarted server: the housekeeping's sweep first, then the provider's retries.
    await reconcileReservations({ olderThanMs: 0 });
    const row = await expectCompletedOnce(id, w.corollaA);
    await deliver([...notifications, ...notifications]);
    await reconcileReservations({ olderThanMs: 0 });
    expect(await expectCompletedOnce(id, w.corollaA)).toMatchObject({ leadId: row.leadId, capturedAt: row.capturedAt });
  }, 120_000);
});
