import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import type { DatabaseHandle } from '@/db/client';
import { createCrashDatabase, runUntilKilled, type CrashDatabase } from '../support/crash-process';
import { useTestDatabase } from '../support/database';
import { TestSmtpServer } from '../support/smtp-server';
import * as leadsRoute from '@/app/api/leads/route';
import { runDeliveryBatch, smtpEmailTransport, type Transports } from '@/modules/leads/leads.delivery';
import { leadDeliveries, leadDeliveryAttempts, leads } from '@/modules/leads/leads.schema';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';

/** SPEC 'Done when' reliability: no lost lead, no duplicate, whatever the timing or the mail server does. */

function recordingTransports(sent: string[]): Transports {
  return {
    email: async (_payload, leadId) => {
      sent.push(leadId);
      return 'recorded';
    },
    webhook: async (_payload, leadId) => {
      sent.push(`hook:${leadId}`);
      return 'recorded';
    },
  };
}

async function drain(transports: Transports, options: { baseDelayMs?: number } = {}): Promise<void> {
  while ((await runDeliveryBatch({ transports, limit: 100, ...options })) > 0);
}

describe('lead reliability', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  it('500 concurrent submissions with 100 repeated Idempotency-Keys give 400 leads and 400 deliveries', async () => {
    const bodies = Array.from({ length: 400 }, (_, i) => ({ key: `burst-${i}`, ip: `10.1.${i >> 8}.${i & 255}`, lead: validLead() }));
    const requests = [...bodies, ...bodies.slice(0, 100)].sort((a, b) => (a.key < b.key ? -1 : 1)).reverse();
    const responses = await Promise.all(
      requests.map((r) => callLeadRoute(leadsRoute.POST, { host: w.hostA, body: { lead: r.lead }, headers: { 'idempotency-key': r.key, 'x-dealer-client-address': r.ip } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(400);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id));
    const idByKey = new Map<string, Set<string>>();
    requests.forEach((r, i) => idByKey.set(r.key, (idByKey.get(r.key) ?? new Set()).add(ids[i])));
    expect([...idByKey.values()].every((set) => set.size === 1)).toBe(true);

    const stored = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.websiteId, w.a.websiteId), like(leads.idempotencyKey, 'burst-%')));
    expect(stored).toHaveLength(400);
    const sent: string[] = [];
    await drain(recordingTransports(sent));
    expect(sent).toHaveLength(400);
    expect(new Set(sent).size).toBe(400);
    const delivered = await db.select().from(leadDeliveries).where(inArray(leadDeliveries.leadId, stored.map((s) => s.id)));
    expect(delivered).toHaveLength(400);
    expect(delivered.every((d) => d.status === 'delivered')).toBe(true);
  }, 300_000);

  describe('the SMTP server down for a while, then back', () => {
    const smtp = new TestSmtpServer();
    afterAll(() => smtp.stop());

    it('delivers every lead exactly once, with one audit row per attempt', async () => {
      await smtp.start();
      await smtp.stop(); // the port is known and now refuses connections
      const transports: Transports = { email: smtpEmailTransport(smtp.url, 'Leads <leads@test.example>'), webhook: async () => 'unused' };
      const ids: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        const response = await callLeadRoute(leadsRoute.POST, { host: w.hostA, body: { lead: validLead() }, headers: { 'x-dealer-client-address': `10.2.0.${i}` } });
        ids.push(((await response.json()) as { id: string }).id);
      }
      expect(await runDeliveryBatch({ transports, limit: 100, baseDelayMs: 20 })).toBe(20);
      let rows = await db.select().from(leadDeliveries).where(inArray(leadDeliveries.leadId, ids));
      expect(rows.every((r) => r.status === 'pending' && r.attempts === 1 && r.lastError)).toBe(true);
      expect(smtp.received).toHaveLength(0);

      await new Promise((resolve) => setTimeout(resolve, 30));
      await runDeliveryBatch({ transports, limit: 100, baseDelayMs: 20 }); // still down: second failure
      await smtp.start();
      for (let round = 0; round < 50; round += 1) {
        rows = await db.select().from(leadDeliveries).where(inArray(leadDeliveries.leadId, ids));
        if (rows.every((r) => r.status === 'delivered')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
        await runDeliveryBatch({ transports, limit: 100, baseDelayMs: 20 });
      }
      expect(rows.every((r) => r.status === 'delivered')).toBe(true);
      await drain(transports, { baseDelayMs: 20 });
      const messageIds = smtp.received.map((m) => m.messageId);
      expect(messageIds).toHaveLength(20);
      expect(new Set(messageIds).size).toBe(20);
      expect(ids.every((id) => messageIds.some((m) => m?.startsWith(`<lead-${id}@`)))).toBe(true);
      expect(smtp.received.every((m) => m.to.includes('sales@alpha.example') && m.data.includes('.adf.xml'))).toBe(true);
      const attempts = await db.select().from(leadDeliveryAttempts).where(inArray(leadDeliveryAttempts.deliveryId, rows.map((r) => r.id)));
      expect(attempts.filter((a) => a.ok)).toHaveLength(20);
      expect(attempts.filter((a) => !a.ok).length).toBeGreaterThanOrEqual(40);
    });
  });
});

describe('a server process killed between commit and delivery', () => {
  let crash: CrashDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    crash = await createCrashDatabase('lead_crash');
    handle = await crash.open();
  });

  afterAll(async () => {
    await handle?.close();
    (globalThis as unknown as { __dbHandle?: unknown }).__dbHandle = undefined;
    await crash?.remove();
  });

  it('the lead is delivered once after the restart', async () => {
    const w = await seedLeadWorld(handle.db);
    if (crash.exclusive) await handle.close(); // PGlite: one process at a time
    const output = await runUntilKilled('tests/support/lead-crash-child.ts', { ...crash.childEnv, LEAD_CRASH_HOST: w.hostA, LEAD_CRASH_LEASE_MS: '1000' }, (o) => o.includes('sending'));
    const leadId = /committed ([0-9a-f-]{36})/.exec(output)![1];

    if (crash.exclusive) handle = await crash.open();
    else (globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
    const [claimed] = await handle.db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, leadId));
    expect(claimed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(claimed.lockedUntil).not.toBeNull();

    // The dead worker's lease lapses; the restarted process's worker delivers it, once.
    await handle.db.execute(sql`select pg_sleep(1.1)`);
    const sent: string[] = [];
    await drain(recordingTransports(sent));
    await drain(recordingTransports(sent));
    expect(sent).toEqual([leadId]);
    const [done] = await handle.db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, leadId));
    expect(done).toMatchObject({ status: 'delivered', attempts: 2 });
  }, 120_000);
});
