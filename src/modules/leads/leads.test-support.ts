import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { seedDashboardWorld, type DashboardWorld } from '../dashboard/dashboard.test-support';
import { cars } from '../stock/stock.schema';
import { dealerships } from '../tenancy/tenancy.schema';
import { devHostForSlug } from '@/lib/host';

/**
 * Test data for the lead tests (never imported by the application): the Dashboard API's two
 * websites, with lead addresses on their dealerships, and request helpers for the lead routes.
 */

export type LeadWorld = DashboardWorld & { hostA: string; hostB: string; carA: number; carB: number };

export async function seedLeadWorld(db: Db): Promise<LeadWorld> {
  const world = await seedDashboardWorld(db);
  await db.update(dealerships).set({ email: 'sales@alpha.example' }).where(eq(dealerships.id, world.a.dealershipId));
  await db.update(dealerships).set({ email: 'sales@beta.example' }).where(eq(dealerships.id, world.b.dealershipId));
  const [carA] = await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, world.a.websiteId), eq(cars.slug, 'a-camry-1')));
  const [carB] = await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, world.b.websiteId), eq(cars.slug, 'b-hilux-1')));
  return { ...world, hostA: devHostForSlug(world.a.tenant.slug), hostB: devHostForSlug(world.b.tenant.slug), carA: carA.id, carB: carB.id };
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/** Calls a lead route as a browser on `host` would. */
export async function callLeadRoute<P = Record<string, never>>(
  handler: Handler<P>,
  options: { host: string; method?: string; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string>; params?: P },
): Promise<Response> {
  const headers: Record<string, string> = { host: options.host, 'user-agent': 'vitest', ...options.headers };
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const request = new Request(`http://${options.host}/api/leads`, { method: options.method ?? 'POST', headers, body });
  return handler(request, { params: Promise.resolve((options.params ?? {}) as P) });
}

let counter = 0;
/** A valid enquiry with a fresh phone number (so per-phone limits never interfere). */
export function validLead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    name: 'Jane Citizen',
    first_name: 'Jane',
    last_name: 'Citizen',
    email: `jane.${counter}@example.com`,
    phone: `041${String((counter * 7919) % 10_000_000).padStart(7, '0')}`,
    postcode: '2000',
    category: 'General Enquiry',
    message: 'Is this car still available?',
    url: 'https://alpha.example/cars/a-camry-1',
    ...overrides,
  };
}
