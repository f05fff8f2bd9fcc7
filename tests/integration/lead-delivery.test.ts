import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os, { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { TestSmtpServer } from '../support/smtp-server';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as postLead } from '@/app/api/leads/route';
import { PermanentDeliveryError, runDeliveryBatch, signWebhook, smtpEmailTransport, startDeliveryWorker, wakeDeliveryWorker, webhookTransport, type DeliveryFile, type EmailPayload, type Transports } from '@/modules/leads/leads.delivery';
import { leadDeliveries, leadDeliveryAttempts, leads, leadWebhooks } from '@/modules/leads/leads.schema';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { logger } from '@/lib/logger';

/**
 * The outbox worker's own rules (decisions 010 and 057), each with the value the decision gives:
 * the email a dealer receives (Message-ID `<lead-{id}@host>`, the ADF attachment), an attempt
 * bounded and recorded as failed when it outlives its bound, the 30 s lease, and the in-process
 * worker that a committed lead wakes.
 */

let db: Db;
let w: LeadWorld;
let ip = 0;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedLeadWorld(db);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function postLeads(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead() }, headers: { [CLIENT_ADDRESS_HEADER]: `198.51.100.${(ip += 1) % 250}` } });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

const deliveriesOf = (ids: string[]) => db.select().from(leadDeliveries).where(inArray(leadDeliveries.leadId, ids));

/** Marks every delivery still pending as delivered, so each test starts with an empty queue. */
const emptyQueue = () => db.execute(sql`update lead_deliveries set status = 'delivered', locked_until = null where status = 'pending'`);

describe('the email a dealer receives over SMTP (decision 010)', () => {
  const smtp = new TestSmtpServer();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  const payload = (adf: string): EmailPayload => ({ kind: 'email', to: 'sales@alpha.example', subject: 'New enquiry: Toyota Camry', text: 'Jane Citizen asks: is it available?', adf, attachmentIds: [] });

  it('carries the lead’s Message-ID, its ADF/XML as lead-{id}.adf.xml and the visitor’s files', async () => {
    const send = smtpEmailTransport(smtp.url, 'Leads <leads@test.example>');
    const photo = { fileName: 'trade-in.jpg', contentType: 'image/jpeg', content: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) };
    const answer = await send(payload('<?xml version="1.0"?><adf><prospect/></adf>'), 'lead-one', [photo]);
    expect(answer).toMatch(/^smtp 250 /);
    const [mail] = smtp.received.splice(0);
    expect(mail.messageId).toBe(`<lead-lead-one@${hostname()}>`);
    expect(mail.to).toEqual(['sales@alpha.example']);
    expect(mail.data).toMatch(/^From: Leads <leads@test\.example>$/m);
    expect(mail.data).toMatch(/^To: sales@alpha\.example$/m);
    expect(mail.data).toMatch(/^Subject: New enquiry: Toyota Camry$/m);
    expect(mail.data).toContain('Jane Citizen asks: is it available?');
    expect(mail.data).toMatch(/^Content-Type: application\/xml; name=lead-lead-one\.adf\.xml$/m);
    expect(mail.data).toContain(Buffer.from('<?xml version="1.0"?><adf><prospect/></adf>').toString('base64'));
    expect(mail.data).toMatch(/^Content-Type: image\/jpeg; name=trade-in\.jpg$/m);
    expect(mail.data).toContain(Buffer.from([0xff, 0xd8, 0xff, 0xe0]).toString('base64'));
  });

  it('an email to the visitor (no ADF) has a Message-ID of its own and no ADF attachment', async () => {
    const send = smtpEmailTransport(smtp.url, 'Leads <leads@test.example>');
    await send({ ...payload(''), to: 'jane@example.com' }, 'lead-two', []);
    const [mail] = smtp.received.splice(0);
    expect(mail.messageId).toBe(`<lead-lead-two-visitor@${hostname()}>`);
    expect(mail.to).toEqual(['jane@example.com']);
    expect(mail.data).not.toContain('.adf.xml');
  });

  it('an SMTP URL without a port uses the submission port, 587, or 465 for smtps (RFC 8314)', async () => {
    await expect(smtpEmailTransport('smtp://127.0.0.1?ignoreTLS=true', 'Leads <leads@test.example>')(payload('<adf/>'), 'lead-four', [])).rejects.toThrow(/127\.0\.0\.1:587\b/);
    await expect(smtpEmailTransport('smtps://127.0.0.1', 'Leads <leads@test.example>')(payload('<adf/>'), 'lead-five', [])).rejects.toThrow(/127\.0\.0\.1:465\b/);
  });

  it('without SMTP_URL the email stays in the outbox and nothing is sent', async () => {
    const answer = await smtpEmailTransport(undefined, 'Leads <leads@test.example>')(payload('<adf/>'), 'lead-three', []);
    expect(answer).toMatch(/outbox/);
    expect(smtp.received).toHaveLength(0);
  });
});

describe('one attempt (decision 057)', () => {
  afterEach(emptyQueue);

  it('an attempt that outlives its bound is recorded as failed, with why, and retried later', async () => {
    await emptyQueue();
    const [id] = await postLeads(1);
    const hanging: Transports = { email: () => new Promise(() => {}), webhook: () => new Promise(() => {}) };
    const started = Date.now();
    expect(await runDeliveryBatch({ transports: hanging, attemptTimeoutMs: 100, baseDelayMs: 60_000, worker: 'bound-test' })).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    const [row] = (await deliveriesOf([id])).filter((d) => d.channel === 'email');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer within 0.1 s', lockedUntil: null, deliveredAt: null });
    // Back off 60 s (the base given) before the next attempt.
    expect(row.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(55_000);
    const attempts = await db.select().from(leadDeliveryAttempts).where(eq(leadDeliveryAttempts.deliveryId, row.id));
    expect(attempts).toMatchObject([{ attempt: 1, worker: 'bound-test', ok: false, detail: 'no answer within 0.1 s' }]);
  });

  it('the bound is never longer than the lease: a lease of 0.2 s bounds an attempt asked to take 10 s', async () => {
    await emptyQueue();
    const [id] = await postLeads(1);
    const hanging: Transports = { email: () => new Promise(() => {}), webhook: () => new Promise(() => {}) };
    const started = Date.now();
    await runDeliveryBatch({ transports: hanging, attemptTimeoutMs: 10_000, leaseMs: 200 });
    expect(Date.now() - started).toBeLessThan(5_000);
    const [row] = (await deliveriesOf([id])).filter((d) => d.channel === 'email');
    expect(row.lastError).toBe('no answer within 0.2 s');
  });

  it('a claim holds its row for 30 s: another worker does not take it meanwhile', async () => {
    await emptyQueue();
    const [id] = await postLeads(1);
    let release: (value: string) => void = () => {};
    const held: Transports = { email: () => new Promise<string>((resolve) => (release = resolve)), webhook: async () => 'ok' };
    const batch = runDeliveryBatch({ transports: held, worker: 'holder' });
    await sleep(200);
    const [claimed] = (await deliveriesOf([id])).filter((d) => d.channel === 'email');
    const lease = claimed.lockedUntil!.getTime() - Date.now();
    expect(lease).toBeGreaterThan(28_000);
    expect(lease).toBeLessThanOrEqual(30_000);
    const other: string[] = [];
    expect(await runDeliveryBatch({ transports: { email: async (_p, leadId) => (other.push(leadId), 'sent'), webhook: async () => 'ok' }, worker: 'other' })).toBe(0);
    release('sent');
    await batch;
    expect(other).toEqual([]);
    const [done] = (await deliveriesOf([id])).filter((d) => d.channel === 'email');
    expect(done).toMatchObject({ status: 'delivered', attempts: 1, lastError: null, lockedUntil: null });
    expect(done.deliveredAt).not.toBeNull();
  });
});

describe('the webhook transport (decision 010)', () => {
  let server: Server;
  let base = '';
  const received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.writeHead(Number(/\/status\/(\d{3})$/.exec(request.url ?? '')?.[1] ?? 204)).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    received.length = 0;
  });
  const post = (url: string, options: Parameters<typeof webhookTransport>[0] = { allowPrivate: true }) => webhookTransport(options)({ kind: 'webhook', url, body: '{"lead":{"id":"l-1"}}' }, 'l-1', 'hook-secret');

  it('POSTs the JSON body with its Idempotency-Key and a signature of the current second; a 2xx is delivered', async () => {
    const before = Math.floor(Date.now() / 1000);
    expect(await post(`${base}/status/200`)).toBe('webhook 200');
    expect(await post(`${base}/status/299`)).toBe('webhook 299');
    const [first] = received;
    expect(first.method).toBe('POST');
    expect(first.body).toBe('{"lead":{"id":"l-1"}}');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['idempotency-key']).toBe('lead-l-1');
    const t = Number(/^t=(\d+),/.exec(String(first.headers['x-lead-signature']))?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(first.headers['x-lead-signature']).toBe(signWebhook(first.body, 'hook-secret', t));
  });

  it('any other answer is a failed attempt (retried), a 300 or a 500 alike', async () => {
    await expect(post(`${base}/status/300`)).rejects.toThrow('webhook answered 300');
    await expect(post(`${base}/status/500`)).rejects.toThrow('webhook answered 500');
    const refused = await post(`${base}/status/500`).catch((error: unknown) => error);
    expect(refused).not.toBeInstanceOf(PermanentDeliveryError);
  });

  it('a closed port is a failed attempt at once, not a hang', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const started = Date.now();
    await expect(post(`http://127.0.0.1:${port}/hook`)).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses for good a scheme other than http or https, and sends nothing', async () => {
    const refused = await post('ftp://127.0.0.1/leads').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PermanentDeliveryError);
    expect((refused as Error).message).toMatch(/ftp:/);
    expect(received).toEqual([]);
  });

  it('a name that does not resolve just now is a failed attempt to retry, not a refusal for good', async () => {
    const resolve = async () => Promise.reject(Object.assign(new Error('getaddrinfo EAI_AGAIN dealer.example'), { code: 'EAI_AGAIN' }));
    const failed = await post('https://dealer.example/leads', { allowPrivate: false, resolve }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(PermanentDeliveryError);
    expect((failed as Error).message).toMatch(/EAI_AGAIN/);
  });
});

describe('what the outbox hands the transports', () => {
  afterEach(emptyQueue);

  it('a lead without files gives the email transport no file', async () => {
    await emptyQueue();
    const [id] = await postLeads(1);
    const given: DeliveryFile[][] = [];
    await runDeliveryBatch({ transports: { email: async (_p, _l, files) => (given.push(files), 'sent'), webhook: async () => 'ok' } });
    expect(given).toEqual([[]]);
    expect((await deliveriesOf([id])).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('a webhook removed since the lead was stored is a failed attempt saying so', async () => {
    await emptyQueue();
    await db.insert(leadWebhooks).values({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, url: 'https://dealer.example/leads', secret: 'removed-secret' });
    const [id] = await postLeads(1);
    await db.delete(leadWebhooks).where(eq(leadWebhooks.dealershipId, w.a.dealershipId));
    const secrets: string[] = [];
    await runDeliveryBatch({ transports: { email: async () => 'sent', webhook: async (_p, _l, secret) => (secrets.push(secret), 'ok') }, baseDelayMs: 60_000 });
    const [hook] = (await deliveriesOf([id])).filter((d) => d.channel === 'webhook');
    expect(hook).toMatchObject({ status: 'pending', attempts: 1, lastError: 'webhook no longer configured' });
    expect(secrets).toEqual([]);
  });
});

describe('the in-process worker', () => {
  const delivered: string[] = [];
  const working: Transports = {
    email: async (_payload, leadId) => {
      delivered.push(leadId);
      return 'sent';
    },
    webhook: async () => 'ok',
  };
  let stop: (() => void) | undefined;
  afterEach(async () => {
    stop?.();
    stop = undefined;
    delivered.length = 0;
    await emptyQueue();
  });

  async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await sleep(20);
    }
    return check();
  }
  const allDelivered = async (ids: string[]) => (await deliveriesOf(ids)).every((d) => d.status === 'delivered');

  it('is one per process, and drains full batches in one run: 5 leads with batches of 2', async () => {
    await emptyQueue();
    const ids = await postLeads(5);
    stop = startDeliveryWorker({ transports: working, limit: 2, intervalMs: 60_000 });
    expect(startDeliveryWorker({ transports: working })).toBe(stop);
    // Its first run, 0.1 s after the start, takes all of them (no second run within the minute).
    expect(await until(() => allDelivered(ids), 3_000)).toBe(true);
    expect(new Set(delivered).size).toBe(5);
  });

  it('a committed lead wakes it: delivered well before the next interval', async () => {
    stop = startDeliveryWorker({ transports: working, intervalMs: 60_000 });
    await sleep(300); // its first run is over; the next is a minute away
    const [id] = await postLeads(1);
    expect(await until(() => allDelivered([id]), 2_000)).toBe(true);
    // And a wake without a lead is harmless.
    wakeDeliveryWorker();
    const [next] = await postLeads(1);
    expect(await until(() => allDelivered([next]), 2_000)).toBe(true);
  });

  it('stopped, it delivers nothing more; started again, it does', async () => {
    stop = startDeliveryWorker({ transports: working, intervalMs: 100 });
    await sleep(300);
    stop();
    const [id] = await postLeads(1);
    await sleep(400);
    expect(await allDelivered([id])).toBe(false);
    const again = startDeliveryWorker({ transports: working, intervalMs: 100 });
    stop = again;
    expect(await until(() => allDelivered([id]), 2_000)).toBe(true);
  });

  it('works batches of its limit, one after another: 5 leads with batches of 2 never have more than 2 in flight', async () => {
    await emptyQueue();
    const ids = await postLeads(5);
    let inFlight = 0;
    let most = 0;
    const slow: Transports = {
      email: async (_payload, leadId) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await sleep(30);
        inFlight -= 1;
        delivered.push(leadId);
        return 'sent';
      },
      webhook: async () => 'ok',
    };
    stop = startDeliveryWorker({ transports: slow, limit: 2, intervalMs: 60_000 });
    expect(await until(() => allDelivered(ids), 3_000)).toBe(true);
    expect(most).toBe(2);
  });

  it('between wakes it waits its interval: a delivery that falls due unannounced waits for it', async () => {
    stop = startDeliveryWorker({ transports: working, intervalMs: 60_000 });
    await sleep(300);
    const [id] = await postLeads(1);
    expect(await until(() => allDelivered([id]), 2_000)).toBe(true);
    // Due again without a commit to wake the worker: nothing for 2.5 s (the default interval is 2 s; this worker's is a minute).
    await db.update(leadDeliveries).set({ status: 'pending', nextAttemptAt: new Date(Date.now() - 1_000) }).where(eq(leadDeliveries.leadId, id));
    await sleep(2_500);
    expect(await allDelivered([id])).toBe(false);
    wakeDeliveryWorker();
    expect(await until(() => allDelivered([id]), 2_000)).toBe(true);
  });

  it('a lead committed while a batch is being sent is delivered right after it, not at the next interval', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated: Transports = {
      email: async (_payload, leadId) => {
        if (delivered.length === 0) await gate;
        delivered.push(leadId);
        return 'sent';
      },
      webhook: async () => 'ok',
    };
    stop = startDeliveryWorker({ transports: gated, intervalMs: 60_000 });
    await sleep(300);
    const [first] = await postLeads(1);
    await sleep(200); // the worker is now sending the first, held at the gate
    const [second] = await postLeads(1);
    release();
    expect(await until(() => allDelivered([first, second]), 2_000)).toBe(true);
  });

  it('a wake while a batch is being sent starts no second batch beside it: the lead committed meanwhile goes right after the first send', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => {};
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    let first = '';
    const gated: Transports = {
      email: async (_payload, leadId) => {
        if (leadId === first) {
          reached();
          await gate;
        }
        delivered.push(leadId);
        return 'sent';
      },
      webhook: async () => 'ok',
    };
    stop = startDeliveryWorker({ transports: gated, intervalMs: 60_000 });
    await sleep(300);
    [first] = await postLeads(1);
    await atGate; // the worker is sending the first, held at the gate
    const [second] = await postLeads(1); // its commit wakes the worker
    await sleep(500);
    expect(delivered).toEqual([]);
    release();
    // Well before the minute's interval.
    expect(await until(() => allDelivered([first, second]), 3_000)).toBe(true);
    expect(delivered).toEqual([first, second]);
  });

  it('stopped while sending, it finishes that send and then nothing more', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated: Transports = {
      email: async (_payload, leadId) => {
        await gate;
        delivered.push(leadId);
        return 'sent';
      },
      webhook: async () => 'ok',
    };
    const own = startDeliveryWorker({ transports: gated, intervalMs: 100 });
    stop = own;
    await sleep(300);
    const [first] = await postLeads(1);
    await sleep(200);
    own();
    release();
    expect(await until(() => allDelivered([first]), 2_000)).toBe(true);
    const [second] = await postLeads(1);
    await sleep(600);
    expect(await allDelivered([second])).toBe(false);
  });

  it('its first run queues the partial leads of a website that opted in (and their deliveries go out)', async () => {
    const [site] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
    await db.update(websites).set({ config: { ...site.config, leads: { deliverPartialAfterMinutes: 30 } } }).where(eq(websites.id, w.a.websiteId));
    const response = await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead({ lead_status: 'Incomplete', form_completed: false }) }, headers: { [CLIENT_ADDRESS_HEADER]: `198.51.100.${(ip += 1) % 250}` } });
    const { id } = (await response.json()) as { id: string };
    await db.update(leads).set({ updatedAt: new Date(Date.now() - 31 * 60_000) }).where(eq(leads.id, id));
    stop = startDeliveryWorker({ transports: working, intervalMs: 60_000 });
    expect(await until(async () => (await deliveriesOf([id])).some((d) => d.channel === 'partial_email' && d.status === 'delivered'), 3_000)).toBe(true);
    await db.update(websites).set({ config: site.config }).where(eq(websites.id, w.a.websiteId));
  });
});

/** A self-signed key and certificate for 127.0.0.1, made with openssl (as widgets-proxy.test.ts does). */
function selfSigned(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: fs.readFileSync(`${dir}/key.pem`, 'utf8'), cert: fs.readFileSync(`${dir}/cert.pem`, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('SMTP and webhooks over TLS, SMTP credentials and answers (issue 36: what the mutation run left unchecked)', () => {
  const payload: EmailPayload = { kind: 'email', to: 'sales@alpha.example', subject: 'New enquiry', text: 'Is it available?', adf: '<adf/>', attachmentIds: [] };
  const from = 'Leads <leads@test.example>';
  // Each server speaks TLS with a certificate no client trusts: a refusal naming the certificate
  // shows the client spoke TLS and checked it, as it must with a real server.
  const untrusted = /self[- ]signed certificate/;
  let pair: { key: string; cert: string };
  const servers: TestSmtpServer[] = [];
  const smtpServer = async (options: ConstructorParameters<typeof TestSmtpServer>[1]) => {
    const server = new TestSmtpServer(0, options);
    await server.start();
    servers.push(server);
    return server;
  };
  beforeAll(() => {
    pair = selfSigned();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  it('an smtps: URL speaks TLS from the first byte (and refuses a certificate it cannot trust)', async () => {
    const server = await smtpServer({ tls: pair });
    await expect(smtpEmailTransport(`smtps://127.0.0.1:${server.port}`, from)(payload, 'tls-1', [])).rejects.toThrow(untrusted);
    expect(server.received).toEqual([]);
  });

  it('an smtp: URL upgrades with STARTTLS when the server offers it, unless it says ignoreTLS=true', async () => {
    const server = await smtpServer({ startTls: pair });
    await expect(smtpEmailTransport(`smtp://127.0.0.1:${server.port}`, from)(payload, 'tls-2', [])).rejects.toThrow(untrusted);
    expect(server.commands).toContain('STARTTLS');
    expect(server.received).toEqual([]);
    server.commands.length = 0;
    expect(await smtpEmailTransport(`smtp://127.0.0.1:${server.port}?ignoreTLS=true`, from)(payload, 'tls-3', [])).toMatch(/^smtp 250 /);
    expect(server.commands).not.toContain('STARTTLS');
    expect(server.received).toHaveLength(1);
  });

  it('logs in with the credentials of the SMTP URL, decoded', async () => {
    const server = await smtpServer({ auth: true });
    await smtpEmailTransport(`smtp://leads%40dealer.example:p%40ss%3Aword@127.0.0.1:${server.port}?ignoreTLS=true`, from)(payload, 'auth-1', []);
    expect(server.credentials).toEqual(['leads@dealer.example\0p@ss:word']);
    expect(server.received).toHaveLength(1);
  });

  it('keeps at most 500 characters of the server’s answer (the code’s own bound, tested at both sides)', async () => {
    // 'smtp ' and the answer line: 5 + 495 characters exactly, then 5 + 496.
    for (const [length, kept] of [[495, 500], [496, 500]]) {
      const answer = `250 ${'a'.repeat(length - 4)}`;
      const server = await smtpServer({ acceptReply: answer });
      const detail = await smtpEmailTransport(`smtp://127.0.0.1:${server.port}?ignoreTLS=true`, from)(payload, `long-${length}`, []);
      expect(detail).toBe(`smtp ${answer}`.slice(0, kept));
      expect(detail).toHaveLength(kept);
    }
  });

  it('an https: webhook is sent over TLS (and a certificate it cannot trust is refused)', async () => {
    const seen: string[] = [];
    const server = createHttpsServer(pair, (request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await expect(webhookTransport({ allowPrivate: true })({ kind: 'webhook', url, body: '{}' }, 'l-tls', 'hook-secret')).rejects.toThrow(untrusted);
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('what an attempt records and logs (issue 36: what the mutation run left unchecked)', () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await emptyQueue();
  });

  it('each outcome is logged: a delivery as delivered, a failure with its attempt and error', async () => {
    await emptyQueue();
    const [good, bad] = await postLeads(2);
    const info = vi.spyOn(logger, 'info');
    const warn = vi.spyOn(logger, 'warn');
    await runDeliveryBatch({ transports: { email: async (_p, leadId) => (leadId === bad ? Promise.reject(new Error('mailbox full')) : 'sent'), webhook: async () => 'ok' }, baseDelayMs: 60_000 });
    const [delivered] = (await deliveriesOf([good])).filter((d) => d.channel === 'email');
    const [failed] = (await deliveriesOf([bad])).filter((d) => d.channel === 'email');
    expect(info.mock.calls).toContainEqual([{ deliveryId: delivered.id, leadId: good, channel: 'email' }, 'lead delivered']);
    expect(warn.mock.calls).toContainEqual([{ deliveryId: failed.id, leadId: bad, channel: 'email', attempt: 1, error: 'mailbox full' }, 'lead delivery failed']);
    expect(info.mock.calls.filter(([fields]) => (fields as { leadId?: string }).leadId === bad)).toEqual([]);
    expect(warn.mock.calls.filter(([fields]) => (fields as { leadId?: string }).leadId === good)).toEqual([]);
  });

  it('keeps at most 1,000 characters of an attempt’s answer or error (the code’s own bound, tested at both sides)', async () => {
    await emptyQueue();
    const [answered, answeredLong, refused, refusedLong] = await postLeads(4);
    const text: Record<string, string> = { [answered]: 'a'.repeat(1000), [answeredLong]: 'b'.repeat(1001), [refused]: 'c'.repeat(1000), [refusedLong]: 'd'.repeat(1001) };
    await runDeliveryBatch({
      transports: { email: async (_p, leadId) => (leadId === refused || leadId === refusedLong ? Promise.reject(new Error(text[leadId])) : text[leadId]), webhook: async () => 'ok' },
      baseDelayMs: 60_000,
    });
    for (const [leadId, kept] of [[answered, 'a'.repeat(1000)], [answeredLong, 'b'.repeat(1000)], [refused, 'c'.repeat(1000)], [refusedLong, 'd'.repeat(1000)]]) {
      const [row] = (await deliveriesOf([leadId])).filter((d) => d.channel === 'email');
      const [recorded] = await db.select().from(leadDeliveryAttempts).where(eq(leadDeliveryAttempts.deliveryId, row.id));
      expect(recorded.detail, leadId).toBe(kept);
    }
  });

  it('an attempt that ends leaves no timer behind: its bound is cleared', async () => {
    await emptyQueue();
    await postLeads(1);
    const set = vi.spyOn(globalThis, 'setTimeout');
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    await runDeliveryBatch({ transports: { email: async () => 'sent', webhook: async () => 'ok' }, attemptTimeoutMs: 12_345 });
    const bounds = set.mock.calls.flatMap((call, i) => (call[1] === 12_345 ? [set.mock.results[i].value as unknown] : []));
    expect(bounds.length).toBeGreaterThan(0);
    for (const timer of bounds) expect(clear).toHaveBeenCalledWith(timer);
  });

  describe('an outcome that cannot be recorded (its table gone for a moment)', () => {
    const away = async (run: () => Promise<void>) => {
      await db.execute(sql`alter table lead_delivery_attempts rename to lead_delivery_attempts_away`);
      try {
        await run();
      } finally {
        await db.execute(sql`alter table lead_delivery_attempts_away rename to lead_delivery_attempts`);
      }
    };

    it('fails the batch, so its caller knows', async () => {
      await emptyQueue();
      await postLeads(1);
      await away(async () => {
        await expect(runDeliveryBatch({ transports: { email: async () => 'sent', webhook: async () => 'ok' } })).rejects.toThrow(/lead_delivery_attempts/);
      });
    });

    it('is logged by the in-process worker as a failed batch', async () => {
      await emptyQueue();
      await postLeads(1);
      const error = vi.spyOn(logger, 'error');
      let stop: (() => void) | undefined;
      await away(async () => {
        stop = startDeliveryWorker({ transports: { email: async () => 'sent', webhook: async () => 'ok' }, intervalMs: 60_000 });
        try {
          await expect.poll(() => error.mock.calls.length, { timeout: 5_000 }).toBeGreaterThan(0);
        } finally {
          stop();
        }
      });
      expect(error.mock.calls[0]).toEqual([{ err: expect.objectContaining({ message: expect.stringMatching(/lead_delivery_attempts/) }) }, 'lead delivery batch failed']);
    });
  });
});
