import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { env } from '@/lib/env';
import { useTestDatabase } from '../support/database';
import { callRoute } from '@/modules/dashboard/dashboard.test-support';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as postLead } from '@/app/api/leads/route';
import { GET as failedList } from '@/app/(dashboard)/dealerships/[id]/failed_deliveries.json/route';
import { POST as retryRoute } from '@/app/(dashboard)/dealerships/[id]/failed_deliveries/[delivery]/retry/route';
import { runDeliveryBatch, signWebhook, webhookTransport } from '@/modules/leads/leads.delivery';
import { leadDeliveries, leadWebhooks } from '@/modules/leads/leads.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';

/**
 * A dealership's webhook is POSTed by the outbox with the real HTTP transport. To a loopback (or
 * any non-public) address it is refused at send time: the receiver gets nothing, the delivery
 * fails at once with the reason, the fallback address gets the 'Undelivered lead' email and the
 * Dashboard API lists it. With LEAD_WEBHOOK_ALLOW_PRIVATE=1 the same webhook is delivered.
 */

let db: Db;
let w: LeadWorld;
let server: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let ip = 0;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedLeadWorld(db);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      if (request.url === '/redirect') response.writeHead(307, { location: '/dealer/leads' }).end();
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dealer/leads`;
});

afterAll(async () => {
  env().leadWebhookAllowPrivate = false;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
});

async function hookTo(url: string) {
  await db.delete(leadWebhooks).where(eq(leadWebhooks.dealershipId, w.a.dealershipId));
  await db.insert(leadWebhooks).values({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, url, secret: 'guard-secret' });
}

async function leadAndDeliver(): Promise<string> {
  const response = await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead() }, headers: { [CLIENT_ADDRESS_HEADER]: `198.51.100.${(ip += 1)}` } });
  const { id } = (await response.json()) as { id: string };
  for (let i = 0; i < 3; i += 1) await runDeliveryBatch({ worker: 'guard-test', limit: 100 });
  return id;
}

const deliveriesOf = (leadId: string) => db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, leadId));

describe('a lead webhook to a loopback address', () => {
  it('without LEAD_WEBHOOK_ALLOW_PRIVATE: nothing is POSTed, the delivery fails at once with the reason, the fallback is told, the Dashboard API lists it', async () => {
    env().leadWebhookAllowPrivate = false;
    await hookTo(receiverUrl);
    const id = await leadAndDeliver();
    expect(received).toHaveLength(0);
    const rows = await deliveriesOf(id);
    const hook = rows.find((r) => r.channel === 'webhook')!;
    expect(hook).toMatchObject({ status: 'failed', attempts: 1 });
    expect(hook.lastError).toBe('refused: 127.0.0.1 is not a public address (loopback 127.0.0.0/8); LEAD_WEBHOOK_ALLOW_PRIVATE=1 allows it');
    const alert = rows.find((r) => r.channel === 'alert')!;
    expect(alert.payload).toMatchObject({ kind: 'email', to: 'sales@alpha.example', subject: expect.stringMatching(/^Undelivered lead \(webhook\)/) });
    expect(alert.payload.kind === 'email' && alert.payload.text).toContain(`We could not deliver a ${w.a.tenant.name} lead to the webhook ${receiverUrl} after 1 attempt.`);
    expect(alert.payload.kind === 'email' && alert.payload.text).toContain('Last error: refused: 127.0.0.1 is not a public address');
    expect(rows.find((r) => r.channel === 'email')?.status).toBe('delivered');

    const list = await callRoute(failedList, { id: String(w.a.dealershipId) }, { key: w.a.key });
    const failed = ((await list.json()) as { failed_deliveries: { id: number; lead_id: string; channel: string; last_error: string }[] }).failed_deliveries;
    expect(failed.filter((f) => f.lead_id === id)).toEqual([expect.objectContaining({ id: hook.id, channel: 'webhook', last_error: hook.lastError })]);

    // Retried by the dealer while still refused: refused again, nothing sent, no second alert.
    expect((await callRoute(retryRoute, { id: String(w.a.dealershipId), delivery: String(hook.id) }, { method: 'POST', key: w.a.key })).status).toBe(202);
    for (let i = 0; i < 3; i += 1) await runDeliveryBatch({ worker: 'guard-test', limit: 100 });
    expect(received).toHaveLength(0);
    const again = await deliveriesOf(id);
    expect(again.find((r) => r.channel === 'webhook')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(again.filter((r) => r.channel === 'alert')).toHaveLength(1);

    // With the variable set, the dealer's retry is delivered, signed.
    env().leadWebhookAllowPrivate = true;
    expect((await callRoute(retryRoute, { id: String(w.a.dealershipId), delivery: String(hook.id) }, { method: 'POST', key: w.a.key })).status).toBe(202);
    for (let i = 0; i < 3; i += 1) await runDeliveryBatch({ worker: 'guard-test', limit: 100 });
    expect(received).toHaveLength(1);
    const [delivered] = await db.select().from(leadDeliveries).where(and(eq(leadDeliveries.leadId, id), eq(leadDeliveries.channel, 'webhook')));
    expect(delivered).toMatchObject({ status: 'delivered', lastError: null });
  });

  it('a name that resolves to a loopback address is refused the same way', async () => {
    env().leadWebhookAllowPrivate = false;
    await hookTo(receiverUrl.replace('127.0.0.1', 'localhost'));
    const id = await leadAndDeliver();
    expect(received).toHaveLength(0);
    const hook = (await deliveriesOf(id)).find((r) => r.channel === 'webhook')!;
    expect(hook.status).toBe('failed');
    expect(hook.lastError).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address \(loopback/);
  });

  it('with LEAD_WEBHOOK_ALLOW_PRIVATE=1: delivered at once, signed with the secret, once', async () => {
    env().leadWebhookAllowPrivate = true;
    await hookTo(receiverUrl);
    const id = await leadAndDeliver();
    expect(received).toHaveLength(1);
    const [hook] = received;
    expect(hook.headers['idempotency-key']).toBe(`lead-${id}`);
    const timestamp = Number(/^t=(\d+),/.exec(String(hook.headers['x-lead-signature']))?.[1]);
    expect(hook.headers['x-lead-signature']).toBe(signWebhook(hook.body, 'guard-secret', timestamp));
    expect((await deliveriesOf(id)).map((r) => `${r.channel}:${r.status}`).sort()).toEqual(['email:delivered', 'webhook:delivered']);
  });

  it('connects to the address it checked: the name is resolved once, a later DNS answer cannot switch it', async () => {
    const answers = [[{ address: '127.0.0.1', family: 4 as const }], [{ address: '192.0.2.1', family: 4 as const }]];
    let asked = 0;
    const transport = webhookTransport({ allowPrivate: true, resolve: async () => answers[Math.min(asked++, 1)] });
    const url = receiverUrl.replace('127.0.0.1', 'rebind.test');
    expect(await transport({ kind: 'webhook', url, body: '{"lead":{}}' }, 'lead-rebind', 'guard-secret')).toBe('webhook 204');
    expect(asked).toBe(1);
    expect(received.map((r) => r.headers.host)).toEqual([new URL(url).host]);
  });

  it('follows no redirect: a 307 is a failed attempt, and the place it points to gets nothing', async () => {
    const transport = webhookTransport({ allowPrivate: true });
    const url = receiverUrl.replace('/dealer/leads', '/redirect');
    await expect(transport({ kind: 'webhook', url, body: '{}' }, 'lead-redirect', 'guard-secret')).rejects.toThrow('webhook answered 307');
    expect(received).toHaveLength(1);
  });
});
