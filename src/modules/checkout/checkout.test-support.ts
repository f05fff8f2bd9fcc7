import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { seedLeadWorld, type LeadWorld } from '../leads/leads.test-support';
import { leadWebhooks } from '../leads/leads.schema';
import { carPaymentProcessors } from '../stock/stock.schema';
import { findTenantById } from '../tenancy/tenancy.queries';
import { websites } from '../tenancy/tenancy.schema';
import type { Tenant } from '../tenancy/tenancy.types';
import { resetCheckoutEnv } from './checkout.env';
import { resetSandboxSecret, setSandboxNotifier, type SandboxNotification } from './adapters/sandbox';

/**
 * Test data for the checkout tests (never imported by the application): the lead tests' two
 * websites with checkout on (Stripe configured, so without Stripe keys the sandbox stands in), a
 * deposit of 500 on A's Camry and Corolla and B's HiLux, a webhook on A's dealership, and the
 * sandbox's notifications recorded instead of sent.
 */

export type CheckoutWorld = LeadWorld & { tenantA: Tenant; tenantB: Tenant; corollaA: number; notifications: SandboxNotification[] };

export async function seedCheckoutWorld(db: Db): Promise<CheckoutWorld> {
  process.env.CHECKOUT_SANDBOX = '1';
  process.env.CHECKOUT_SANDBOX_SECRET = 'test-sandbox-secret-of-at-least-32-characters';
  resetCheckoutEnv();
  resetSandboxSecret();
  const notifications: SandboxNotification[] = [];
  setSandboxNotifier(async (n) => {
    notifications.push(n);
  }, 1);
  const w = await seedLeadWorld(db);
  for (const websiteId of [w.a.websiteId, w.b.websiteId]) {
    await db
      .update(websites)
      .set({ config: sql`jsonb_set(${websites.config}, '{checkout}', '{"enabled": true, "paymentProvider": "Stripe"}'::jsonb)` })
      .where(eq(websites.id, websiteId));
  }
  const [corolla] = rowsOfIds(await db.execute(sql`select id from cars where website_id = ${w.a.websiteId} and slug = 'a-corolla-1'`));
  await db.insert(carPaymentProcessors).values([
    { websiteId: w.a.websiteId, carId: w.carA, authorizationType: 'Stripe', authorizationKey: 'pk_test_alpha', depositAmount: 500 },
    { websiteId: w.a.websiteId, carId: corolla, authorizationType: 'Stripe', authorizationKey: 'pk_test_alpha', depositAmount: 500 },
    { websiteId: w.b.websiteId, carId: w.carB, authorizationType: 'Stripe', authorizationKey: 'pk_test_beta', depositAmount: 500 },
  ]);
  await db.insert(leadWebhooks).values({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, url: 'http://127.0.0.1:9/hook', secret: 'hook-secret' });
  return { ...w, tenantA: (await findTenantById(w.a.websiteId))!, tenantB: (await findTenantById(w.b.websiteId))!, corollaA: corolla, notifications };
}

function rowsOfIds(result: unknown): number[] {
  const rows = Array.isArray(result) ? result : (result as { rows: { id: number }[] }).rows;
  return (rows as { id: number }[]).map((r) => r.id);
}

let counter = 0;
/** A valid start body for a car, with a fresh visitor. */
export function startBody(carId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    car_id: carId,
    visitor: { name: 'Jane', last_name: 'Citizen', email: `jane.reserve.${counter}@example.com`, phone: `041${String((counter * 7919) % 10_000_000).padStart(7, '0')}`, postcode: '2000' },
    terms_accepted: true,
    ...overrides,
  };
}

export const SUCCESS_CARD = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' };
