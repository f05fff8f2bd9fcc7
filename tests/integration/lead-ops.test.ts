import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { rowsOf } from '@/db/rows';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { callRoute } from '@/modules/dashboard/dashboard.test-support';
import { POST as postLead } from '@/app/api/leads/route';
import { POST as postWithFiles } from '@/app/api/leads/with-files/route';
import { GET as failedList } from '@/app/(dashboard)/dealerships/[id]/failed_deliveries.json/route';
import { POST as retryRoute } from '@/app/(dashboard)/dealerships/[id]/failed_deliveries/[delivery]/retry/route';
import { GET as fileRoute } from '@/app/(dashboard)/dealerships/[id]/leads/[leadId]/files/[fileId]/route';
import { GET as leadsList } from '@/app/(dashboard)/dealerships/[id]/leads.json/route';
import { runDeliveryBatch, type Transports } from '@/modules/leads/leads.delivery';
import { queuePartialLeads } from '@/modules/leads/leads.partial';
import { PARTIAL_NOTE, setLeadWebhook } from '@/modules/leads/leads.commands';
import { leadDeliveries, leadFiles, leads, leadWebhooks } from '@/modules/leads/leads.schema';
import { ValidationError } from '@/lib/http';
import { dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { env } from '@/lib/env';

/** Issue 13 'beyond the defects': failed-delivery alerts and retries, dealers' file downloads, partial leads. */

let ip = 0;
const headers = () => ({ [CLIENT_ADDRESS_HEADER]: `192.0.2.${(ip += 1) % 250}` });

describe('lead operations', () => {
  let db: Db;
  let w: LeadWorld;
  const sent: { to: string; subject: string }[] = [];
  const failingEmail: Transports = { email: async () => Promise.reject(new Error('smtp down')), webhook: async () => 'ok' };
  const working: Transports = {
    email: async (payload) => {
      sent.push({ to: payload.to, subject: payload.subject });
      return 'sent';
    },
    webhook: async () => 'ok',
  };

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  /** Decision 010: 12 attempts, then `failed`. */
  const ATTEMPTS = 12;

  async function runBatches(count: number, transports: Transports) {
    for (let i = 0; i < count; i += 1) await runDeliveryBatch({ transports, baseDelayMs: 0, limit: 100 });
  }
  /** More batches than any delivery may take (12 attempts and 2 more). */
  const drain = (transports: Transports) => runBatches(ATTEMPTS + 2, transports);

  describe('a delivery that fails for good', () => {
    it('alerts the fallback address once, is listed in the Dashboard API, and can be retried', async () => {
      const [site] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
      await db.update(websites).set({ config: { ...site.config, leads: { fallbackEmail: 'manager@alpha.example' } } }).where(eq(websites.id, w.a.websiteId));
      await db.delete(leadDeliveries);
      const { id } = (await (await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead() }, headers: headers() })).json()) as { id: string };
      // 11 failed attempts: still pending, no alert yet; the 12th fails it for good.
      await runBatches(11, failingEmail);
      const pending = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
      expect(pending.map((r) => [r.channel, r.status, r.attempts])).toEqual([['email', 'pending', 11]]);
      await drain(failingEmail);
      const rows = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
      expect(rows.find((r) => r.channel === 'email')).toMatchObject({ status: 'failed', attempts: 12 });
      const alert = rows.find((r) => r.channel === 'alert');
      expect(alert?.payload).toMatchObject({ kind: 'email', to: 'manager@alpha.example' });
      expect(alert?.payload.kind === 'email' && alert.payload.subject).toMatch(/^Undelivered lead: /);
      expect(rows.filter((r) => r.channel === 'alert')).toHaveLength(1);
      // The alert fails too while the transport is down; its own failure raises no alert of the alert.
      await drain(failingEmail);
      const after = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
      expect(after.map((r) => [r.channel, r.status]).sort()).toEqual([['alert', 'failed'], ['email', 'failed']]);

      const list = await callRoute(failedList, { id: String(w.a.dealershipId) }, { key: w.a.key });
      expect(list.status).toBe(200);
      const failed = ((await list.json()) as { failed_deliveries: { id: number; lead_id: string; channel: string }[] }).failed_deliveries;
      expect(failed.filter((f) => f.lead_id === id).map((f) => f.channel)).toEqual(['alert', 'email']);
      // Another dealership's key sees none of them, and cannot retry them.
      expect((await callRoute(failedList, { id: String(w.a.dealershipId) }, { key: w.b.key })).status).toBe(404);
      const emailRow = failed.find((f) => f.lead_id === id && f.channel === 'email')!;
      expect(emailRow).toBeTruthy();
      expect((await callRoute(retryRoute, { id: String(w.b.dealershipId), delivery: String(emailRow.id) }, { method: 'POST', key: w.b.key })).status).toBe(404);
      expect((await callRoute(retryRoute, { id: String(w.a.dealershipId), delivery: '99999999' }, { method: 'POST', key: w.a.key })).status).toBe(404);
      expect((await callRoute(retryRoute, { id: String(w.a.dealershipId), delivery: 'x;drop' }, { method: 'POST', key: w.a.key })).status).toBe(404);

      const retried = await callRoute(retryRoute, { id: String(w.a.dealershipId), delivery: String(emailRow.id) }, { method: 'POST', key: w.a.key });
      expect(retried.status).toBe(202);
      await drain(working);
      const [email] = await db.select().from(leadDeliveries).where(and(eq(leadDeliveries.leadId, id), eq(leadDeliveries.channel, 'email')));
      expect(email.status).toBe('delivered');
      expect(sent.filter((s) => s.to === 'sales@alpha.example')).toHaveLength(1);
    }, 60_000);

    it('with no fallback other than the failing address, nothing is queued and the failure stays listed', async () => {
      await db.update(dealerships).set({ email: 'sales@beta.example' }).where(eq(dealerships.id, w.b.dealershipId));
      const { id } = (await (await callLeadRoute(postLead, { host: w.hostB, body: { lead: validLead() }, headers: headers() })).json()) as { id: string };
      await drain(failingEmail);
      const rows = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
      expect(rows.map((r) => r.channel)).toEqual(['email']);
      expect(rows[0].status).toBe('failed');
    }, 60_000);
  });

  describe('the retry back-off (decision 010: 5 s × 2^(n−1), at most an hour)', () => {
    it('a failed attempt is not retried before its back-off; the wait doubles from 5 s and stops at an hour', async () => {
      const { id } = (await (await callLeadRoute(postLead, { host: w.hostB, body: { lead: validLead() }, headers: headers() })).json()) as { id: string };
      const email = async () => (await db.select().from(leadDeliveries).where(and(eq(leadDeliveries.leadId, id), eq(leadDeliveries.channel, 'email'))))[0];
      // One batch with the default base delay; the wait after attempt n is measured from the batch.
      async function attemptAndWait(): Promise<{ attempts: number; waitMs: [number, number] }> {
        await db.update(leadDeliveries).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(leadDeliveries.id, (await email()).id));
        const before = Date.now();
        await runDeliveryBatch({ transports: failingEmail, limit: 100 });
        const after = Date.now();
        const row = await email();
        const next = row.nextAttemptAt!.getTime();
        return { attempts: row.attempts, waitMs: [next - after, next - before] };
      }
      const first = await attemptAndWait();
      expect(first.attempts).toBe(1);
      expect(first.waitMs[0]).toBeLessThanOrEqual(5_000);
      expect(first.waitMs[1]).toBeGreaterThanOrEqual(5_000);
      // Not due yet: another batch leaves it alone.
      await runDeliveryBatch({ transports: failingEmail, limit: 100 });
      expect((await email()).attempts).toBe(1);

      const second = await attemptAndWait();
      expect(second.attempts).toBe(2);
      expect(second.waitMs[0]).toBeLessThanOrEqual(10_000);
      expect(second.waitMs[1]).toBeGreaterThanOrEqual(10_000);
      const third = await attemptAndWait();
      expect(third.attempts).toBe(3);
      expect(third.waitMs[0]).toBeLessThanOrEqual(20_000);
      expect(third.waitMs[1]).toBeGreaterThanOrEqual(20_000);

      // Attempt 10 waits 5 s × 2^9 = 2,560 s; attempt 11 would wait 5,120 s and waits an hour.
      await db.update(leadDeliveries).set({ attempts: 9 }).where(eq(leadDeliveries.id, (await email()).id));
      const tenth = await attemptAndWait();
      expect(tenth.attempts).toBe(10);
      expect(tenth.waitMs[0]).toBeLessThanOrEqual(2_560_000);
      expect(tenth.waitMs[1]).toBeGreaterThanOrEqual(2_560_000);
      const eleventh = await attemptAndWait();
      expect(eleventh.attempts).toBe(11);
      expect(eleventh.waitMs[0]).toBeLessThanOrEqual(3_600_000);
      expect(eleventh.waitMs[1]).toBeGreaterThanOrEqual(3_600_000);
      expect((await email()).status).toBe('pending');
    });
  });

  describe('files through the Dashboard API', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

    it('the dealer downloads a lead’s photo as an attachment; another dealership, a bad id or another lead gets 404', async () => {
      const form = new FormData();
      form.set('lead', JSON.stringify(validLead()));
      form.append('files', new Blob([new Uint8Array(png)]), '<my car>.png');
      const created = await callLeadRoute(postWithFiles, { host: w.hostA, rawBody: form, headers: headers() });
      const { id } = (await created.json()) as { id: string };
      const [file] = await db.select().from(leadFiles).where(eq(leadFiles.leadId, id));
      const params = { id: String(w.a.dealershipId), leadId: id, fileId: file.id };
      const response = await callRoute(fileRoute, params, { key: w.a.key });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"$/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);

      const listed = (await (await callRoute(leadsList, { id: String(w.a.dealershipId) }, { key: w.a.key, query: '?per_page=100' })).json()) as { leads: { id: string; files: { id: string }[] }[] };
      expect(listed.leads.find((l) => l.id === id)?.files.map((f) => f.id)).toEqual([file.id]);

      const refused: (typeof params)[] = [
        { ...params, id: String(w.b.dealershipId) },
        { ...params, fileId: '00000000-0000-0000-0000-000000000000' },
        { ...params, fileId: '../../etc/passwd' },
        { ...params, leadId: '00000000-0000-0000-0000-000000000000' },
        { ...params, id: '99999999999999' },
      ];
      for (const p of refused) expect((await callRoute(fileRoute, p, { key: w.a.key })).status, JSON.stringify(p)).toBe(404);
      expect((await callRoute(fileRoute, params, { key: w.b.key })).status).toBe(404);
    });
  });

  describe('partial leads', () => {
    it('a website that opts in gets a lead left incomplete once, marked partial, then the complete one', async () => {
      const [site] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
      await db.update(websites).set({ config: { ...site.config, leads: { deliverPartialAfterMinutes: 30 } } }).where(eq(websites.id, w.a.websiteId));
      const first = await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead({ lead_status: 'Incomplete', form_completed: false }) }, headers: headers() });
      const { id, token } = (await first.json()) as { id: string; token: string };
      const onB = await callLeadRoute(postLead, { host: w.hostB, body: { lead: validLead({ lead_status: 'Incomplete', form_completed: false }) }, headers: headers() });
      const other = ((await onB.json()) as { id: string }).id;

      expect(await queuePartialLeads(new Date())).toBe(0);
      const later = new Date(Date.now() + 31 * 60_000);
      await queuePartialLeads(later);
      await queuePartialLeads(later);
      const partial = await db.select().from(leadDeliveries).where(and(eq(leadDeliveries.leadId, id), eq(leadDeliveries.channel, 'partial_email')));
      expect(partial).toHaveLength(1);
      expect(partial[0].payload.kind === 'email' && partial[0].payload.subject).toMatch(/^Partial lead: /);
      expect(partial[0].payload.kind === 'email' && partial[0].payload.text).toContain(PARTIAL_NOTE);
      // Website B did not opt in.
      expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, other))).toHaveLength(0);

      const { PUT } = await import('@/app/api/leads/[leadId]/route');
      const done = await callLeadRoute(PUT, { host: w.hostA, method: 'PUT', params: { leadId: id }, body: { lead: { lead_status: 'Complete', form_completed: true } }, headers: { 'x-edit-token': token, ...headers() } });
      expect(done.status).toBe(200);
      const channels = (await db.select({ channel: leadDeliveries.channel }).from(leadDeliveries).where(eq(leadDeliveries.leadId, id))).map((r) => r.channel).sort();
      expect(channels).toEqual(['email', 'partial_email']);
      const [lead] = await db.select().from(leads).where(eq(leads.id, id));
      expect(lead.leadStatus).toBe('Complete');
      // Spam is never delivered as partial.
      const [count] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from lead_deliveries d join leads l on l.id = d.lead_id where l.spam`));
      expect(count.n).toBe(0);
    });
  });

  describe('the dealership webhook (npm run leads:webhook)', () => {
    it('is set with a new secret each time, and the next lead is POSTed there signed with it', async () => {
      const slug = `${w.a.tenant.slug}-dealer`;
      for (const url of ['javascript:alert(1)', 'http://dealer.example/leads', 'https://user:pw@dealer.example/leads', 'ftp://dealer.example/', 'not a url']) {
        const refused = await setLeadWebhook(slug, url).catch((error: unknown) => error);
        expect(refused, url).toBeInstanceOf(ValidationError);
        expect((refused as ValidationError).fields).toEqual({ url: expect.stringMatching(/^must be an https address/) });
      }
      const publicDns = async () => [{ address: '93.184.215.14', family: 4 as const }];
      expect(await setLeadWebhook('no-such-dealership', 'https://dealer.example/leads', { resolve: publicDns })).toBeNull();

      // Where the delivery would refuse to send (leads.delivery.ts), the command refuses already, unless LEAD_WEBHOOK_ALLOW_PRIVATE=1.
      const privateDns = async () => [{ address: '10.20.30.40', family: 4 as const }];
      for (const [url, message] of [
        ['http://127.0.0.1:9/first', 'refused: 127.0.0.1 is not a public address (loopback 127.0.0.0/8); LEAD_WEBHOOK_ALLOW_PRIVATE=1 allows it'],
        ['https://169.254.169.254/latest', /^refused: 169\.254\.169\.254 is not a public address \(link-local/],
        ['https://[::ffff:10.0.0.1]/leads', /^refused: ::ffff:a00:1 is not a public address \(private 10\.0\.0\.0\/8, inside an IPv4-mapped/],
        ['https://intranet.dealer.example/leads', /^refused: intranet\.dealer\.example resolves to 10\.20\.30\.40, which is not a public address/],
      ] as const) {
        const refused = await setLeadWebhook(slug, url, { resolve: privateDns }).catch((error: unknown) => error);
        expect(refused, url).toBeInstanceOf(ValidationError);
        expect((refused as ValidationError).fields?.url).toMatch(message);
      }
      expect(await db.select().from(leadWebhooks).where(eq(leadWebhooks.dealershipId, w.a.dealershipId))).toEqual([]);
      env().leadWebhookAllowPrivate = true;
      const first = await setLeadWebhook(slug, 'http://127.0.0.1:9/first').finally(() => (env().leadWebhookAllowPrivate = false));
      const second = await setLeadWebhook(slug, 'https://crm.dealer.example/leads', { resolve: publicDns });
      expect(second).toMatchObject({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, url: 'https://crm.dealer.example/leads' });
      expect(second!.secret).toMatch(/^[\w-]{43}$/);
      expect(second!.secret).not.toBe(first!.secret);
      const hooks = await db.select().from(leadWebhooks).where(eq(leadWebhooks.dealershipId, w.a.dealershipId));
      expect(hooks.map((h) => [h.url, h.secret, h.enabled])).toEqual([['https://crm.dealer.example/leads', second!.secret, true]]);

      await db.execute(sql`update lead_deliveries set status = 'delivered' where status = 'pending'`);
      const posted = await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead() }, headers: headers() });
      const { id } = (await posted.json()) as { id: string };
      // The transport signs with the secret it is handed (leads.delivery.ts): the new one.
      const calls: { url: string; leadId: string; secret: string }[] = [];
      await runDeliveryBatch({ limit: 100, transports: { ...working, webhook: async (payload, leadId, secret) => (calls.push({ url: payload.url, leadId, secret }), 'ok') } });
      expect(calls.filter((c) => c.leadId === id)).toEqual([{ url: 'https://crm.dealer.example/leads', leadId: id, secret: second!.secret }]);
    });
  });
});
