import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as startRoute from '@/app/api/checkout/reservations/route';
import * as quoteRoute from '@/app/api/checkout/quote/route';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { carPaymentProcessors, cars } from '@/modules/stock/stock.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { reservations } from '@/modules/checkout/checkout.schema';
import { seedCheckoutWorld, startBody, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * Issue 36: the reservation rule (SPEC §5 'Reserve or online purchase offered only if: site has
 * checkout enabled; status in_stock (or coming_soon on some sites); not sold or reserved; price
 * above 200; reservable not false; at least one payment processor with a key') checked at the
 * server's door. A browser can post any car id to POST /api/checkout/reservations, so each
 * condition is broken on its own here and the API must refuse the reservation (409, no hold, car
 * untouched) and the quote must say the car is not eligible. The same car with the condition met
 * is reserved (201), so each refusal is caused by that condition and nothing else.
 */

const REFUSED = 'Sorry, this car can no longer be reserved online. Please contact the dealer.';

let db: Db;
let w: CheckoutWorld;
let car: number;
let ip = 0;

const nextIp = () => {
  ip += 1;
  return `10.36.${(ip >> 8) & 255}.${ip & 255}`;
};

async function reserve(kind?: 'reserve' | 'buy_online') {
  const response = await callLeadRoute(startRoute.POST, { host: w.hostA, body: startBody(car, kind ? { kind } : {}), headers: { 'x-dealer-client-address': nextIp() } });
  return { status: response.status, body: (await response.json()) as { error?: string; reservation?: { status: string; amount: number } } };
}

async function quote(kind = 'reserve') {
  const request = new Request(`http://${w.hostA}/api/checkout/quote?car_id=${car}&kind=${kind}`, { headers: { host: w.hostA } });
  const response = await quoteRoute.GET(request, { params: Promise.resolve({}) });
  return { status: response.status, body: (await response.json()) as { eligible: boolean; amount: number | null } };
}

const setCar = (values: Partial<typeof cars.$inferInsert>) => db.update(cars).set(values).where(eq(cars.id, car));
const setProcessor = (values: Partial<typeof carPaymentProcessors.$inferInsert>) =>
  db.update(carPaymentProcessors).set(values).where(and(eq(carPaymentProcessors.websiteId, w.a.websiteId), eq(carPaymentProcessors.carId, car)));
const setCheckout = (checkout: Record<string, unknown>) =>
  db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{checkout}', ${JSON.stringify(checkout)}::jsonb)` }).where(eq(websites.id, w.a.websiteId));
const setEnableStore = (on: boolean) =>
  db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{enableStore}', ${JSON.stringify(on)}::jsonb)` }).where(eq(websites.id, w.a.websiteId));
const holdsOnCar = async () => (await db.select().from(reservations).where(eq(reservations.carId, car))).length;

async function expectRefused(kind?: 'reserve' | 'buy_online') {
  const before = await holdsOnCar();
  const answer = await reserve(kind);
  expect(answer.status).toBe(409);
  expect(answer.body.error).toBe(REFUSED);
  expect(answer.body.reservation).toBeUndefined();
  expect(await holdsOnCar()).toBe(before);
  expect((await quote(kind)).body).toMatchObject({ eligible: false, amount: null });
}

async function expectReserved(kind?: 'reserve' | 'buy_online') {
  expect((await quote(kind)).body).toMatchObject({ eligible: true, amount: 500 });
  const answer = await reserve(kind);
  expect(answer.status).toBe(201);
  expect(answer.body.reservation).toMatchObject({ status: 'pending_payment', amount: 500 });
}

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
  car = w.corollaA;
});

// Every test starts from an eligible car: in stock, free, priced 24,990, reservable unset, one
// Stripe processor with a key and a deposit of 500, checkout on, no store, no coming-soon cars.
beforeEach(async () => {
  await db.execute(sql`update reservations set status = 'cancelled' where status in ('pending_payment', 'held')`);
  await db.execute(sql`delete from rate_limits`);
  await setCar({ status: 'in_stock', reserved: false, price: 24_990, reservable: null, soldDate: null });
  await db.delete(carPaymentProcessors).where(and(eq(carPaymentProcessors.websiteId, w.a.websiteId), eq(carPaymentProcessors.carId, car)));
  await db.insert(carPaymentProcessors).values({ websiteId: w.a.websiteId, carId: car, authorizationType: 'Stripe', authorizationKey: 'pk_test_alpha', depositAmount: 500 });
  await setCheckout({ enabled: true, paymentProvider: 'Stripe' });
  await setEnableStore(false);
});

describe('reserving through the API is refused unless every condition of SPEC §5 holds', () => {
  it('the eligible car is reserved (the baseline every refusal below departs from)', async () => {
    await expectReserved();
  });

  it('the website has checkout disabled', async () => {
    await setCheckout({ enabled: false, paymentProvider: 'Stripe' });
    await expectRefused();
  });

  it('the car is sold (still listed as recently sold)', async () => {
    await setCar({ status: 'sold', soldDate: new Date() });
    await expectRefused();
  });

  it('the car is coming soon: refused, unless the website allows coming-soon cars', async () => {
    await setCar({ status: 'coming_soon' });
    await expectRefused();
    await setCheckout({ enabled: true, paymentProvider: 'Stripe', allowComingSoon: true });
    await expectReserved();
  });

  it('the car is already reserved', async () => {
    await setCar({ reserved: true });
    await expectRefused();
  });

  it('the price is not above 200: 200 refused, 201 reserved', async () => {
    await setCar({ price: 200 });
    await expectRefused();
    await setCar({ price: 201 });
    await expectReserved();
  });

  it('reservable is false (unset or true is reservable)', async () => {
    await setCar({ reservable: false });
    await expectRefused();
    await setCar({ reservable: true });
    await expectReserved();
  });

  it('no payment processor has a key: none at all, or one with an empty key', async () => {
    await setProcessor({ authorizationKey: '' });
    await expectRefused();
    await setProcessor({ authorizationKey: null });
    await expectRefused();
    await db.delete(carPaymentProcessors).where(and(eq(carPaymentProcessors.websiteId, w.a.websiteId), eq(carPaymentProcessors.carId, car)));
    await expectRefused();
  });

  it('the deposit is not above 0: a processor with a key and a deposit of 0 takes nothing, so nothing is reserved', async () => {
    await setProcessor({ depositAmount: 0 });
    await expectRefused();
    await setProcessor({ depositAmount: 1 });
    const answer = await reserve();
    expect(answer.status).toBe(201);
    expect(answer.body.reservation).toMatchObject({ status: 'pending_payment', amount: 1 });
  });

  it('buying online needs the store (enableStore) as well as every reserve condition', async () => {
    await expectRefused('buy_online');
    await setEnableStore(true);
    await setCar({ reservable: false });
    await expectRefused('buy_online');
    await setCar({ reservable: null });
    await expectReserved('buy_online');
  });
});
