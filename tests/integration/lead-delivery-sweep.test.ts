import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as postLead } from '@/app/api/leads/route';
import { startDeliveryWorker, type Transports } from '@/modules/leads/leads.delivery';
import { leadDeliveries, leads } from '@/modules/leads/leads.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';

/**
 * The in-process worker sweeps for partial leads on its first run and then far less often than it
 * runs (the sweep reads every opted-in website's incomplete leads): a worker running every 0.1 s
 * does not sweep again within the next second.
 */

let db: Db;
let w: LeadWorld;
let stop: (() => void) | undefined;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedLeadWorld(db);
  const [site] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
  await db.update(websites).set({ config: { ...site.config, leads: { deliverPartialAfterMinutes: 30 } } }).where(eq(websites.id, w.a.websiteId));
});
afterAll(() => stop?.());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function incompleteLead(i: number): Promise<string> {
  const response = await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead({ lead_status: 'Incomplete', form_completed: false }) }, headers: { [CLIENT_ADDRESS_HEADER]: `198.51.101.${i}` } });
  return ((await response.json()) as { id: string }).id;
}
const partialQueued = async (id: string) => (await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id))).some((d) => d.channel === 'partial_email');
const leftIncompleteLongAgo = (id: string) => db.update(leads).set({ updatedAt: new Date(Date.now() - 31 * 60_000) }).where(eq(leads.id, id));

describe('the partial-lead sweep of the in-process worker', () => {
  it('runs on the worker’s first run, then not on each of its runs', async () => {
    const first = await incompleteLead(1);
    await leftIncompleteLongAgo(first);
    const later = await incompleteLead(2);
    const runs: number[] = [];
    const transports: Transports = { email: async () => (runs.push(Date.now()), 'sent'), webhook: async () => 'ok' };
    stop = startDeliveryWorker({ transports, intervalMs: 100 });
    for (let i = 0; i < 100 && !(await partialQueued(first)); i += 1) await sleep(20);
    expect(await partialQueued(first)).toBe(true);
    // Due now, but the worker's next runs (every 0.1 s) do not sweep again.
    await leftIncompleteLongAgo(later);
    await sleep(1_000);
    expect(await partialQueued(later)).toBe(false);
  });
});
