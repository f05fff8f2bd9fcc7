import 'server-only';
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { hostname } from 'node:os';
import { inArray, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { getDb } from '@/db';
import { insertRowsSql, rowsOf } from '@/db/rows';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import { checkedAddresses, pinnedLookup, RefusedAddressError, type ResolvedAddress, type Resolver } from '@/lib/outbound-address';
import { queueFailureAlerts } from './leads.alerts';
import { PARTIAL_SWEEP_INTERVAL_MS, queuePartialLeads } from './leads.partial';
import { leadDeliveryAttempts, leadFiles, type OutboxPayload } from './leads.schema';

/**
 * Delivery of committed leads from the outbox (lead_deliveries). Any number of workers, in any
 * number of processes, claim due rows with FOR UPDATE SKIP LOCKED and a lease (locked_until): a
 * worker that dies mid-send leaves a lease that lapses, and the row is retried. Every attempt is
 * written to lead_delivery_attempts. Failures back off exponentially until MAX_ATTEMPTS; a refusal
 * no retry can change (PermanentDeliveryError: a webhook to a non-public address) fails at once.
 *
 * Emails carry a Message-ID and webhooks an Idempotency-Key derived from the lead, so the rare
 * retry after a send whose acknowledgement was lost is recognisable as the same lead downstream.
 */

export const MAX_ATTEMPTS = 12;
export const DEFAULT_BASE_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 60 * 60 * 1000;
export const DEFAULT_LEASE_MS = 60_000;
const SEND_TIMEOUT_MS = 15_000;

export type DeliveryFile = { fileName: string; contentType: string; content: Buffer };
export type EmailPayload = Extract<OutboxPayload, { kind: 'email' }>;
export type WebhookPayload = Extract<OutboxPayload, { kind: 'webhook' }>;

/** How deliveries leave the building. Each returns a short description for the audit log, or throws. */
export type Transports = {
  email: (payload: EmailPayload, leadId: string, files: DeliveryFile[]) => Promise<string>;
  webhook: (payload: WebhookPayload, leadId: string, secret: string) => Promise<string>;
};

/** Delay before attempt n+1 after n failed attempts: base × 2^(n-1), at most an hour. */
export function backoffMs(attempts: number, baseMs = DEFAULT_BASE_DELAY_MS): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` (the receiver recomputes it with the shared secret). */
export function signWebhook(body: string, secret: string, timestamp: number): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

let smtp: { url: string; transporter: Transporter } | undefined;

function smtpTransporter(url: string): Transporter {
  if (smtp?.url !== url) {
    const parsed = new URL(url);
    const transporter = nodemailer.createTransport({
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : parsed.protocol === 'smtps:' ? 465 : 587,
      secure: parsed.protocol === 'smtps:',
      auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
      // A local relay without TLS (the test server, a sidecar) is allowed; a real server upgrades with STARTTLS.
      ignoreTLS: parsed.searchParams.get('ignoreTLS') === 'true',
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: SEND_TIMEOUT_MS,
    });
    smtp = { url, transporter };
  }
  return smtp.transporter;
}

/** SMTP when SMTP_URL is set; otherwise the email is kept in the outbox table, shown on /dev/outbox. */
export function smtpEmailTransport(smtpUrl: string | undefined, from: string): Transports['email'] {
  return async (payload, leadId, files) => {
    if (!smtpUrl) return 'kept in outbox (no SMTP_URL configured)';
    const info = await smtpTransporter(smtpUrl).sendMail({
      from,
      to: payload.to,
      subject: payload.subject,
      text: payload.text,
      messageId: `<lead-${leadId}${payload.adf ? '' : '-visitor'}@${hostname() || 'localhost'}>`,
      attachments: [
        // An email to the visitor (channel visitor_email) carries no ADF: that is for the dealer's CRM.
        ...(payload.adf ? [{ filename: `lead-${leadId}.adf.xml`, content: payload.adf, contentType: 'application/xml' }] : []),
        ...files.map((file) => ({ filename: file.fileName, content: file.content, contentType: file.contentType })),
      ],
    });
    return `smtp ${info.response ?? 'accepted'}`.slice(0, 500);
  };
}

/** A refusal no retry can change (an address we never send to): the delivery fails at once and the fallback address is told. */
export class PermanentDeliveryError extends Error {}

/** POSTs to the checked addresses only (no second DNS answer), following no redirect; answers the status. */
function postPinned(url: URL, addresses: ResolvedAddress[], headers: Record<string, string>, body: string): Promise<number> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(addresses),
        agent: false,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * The dealership's webhook over HTTP(S): its host resolved and every address checked
 * (src/lib/outbound-address.ts) before the request, which connects to those very addresses. A
 * loopback, private, link-local or other non-public address is refused for good unless
 * LEAD_WEBHOOK_ALLOW_PRIVATE=1; nothing is sent to it.
 */
export function webhookTransport(options: { allowPrivate?: boolean; resolve?: Resolver } = {}): Transports['webhook'] {
  return async (payload, leadId, secret) => {
    const url = new URL(payload.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PermanentDeliveryError(`refused: ${url.protocol} is not http or https`);
    let addresses: ResolvedAddress[];
    try {
      addresses = await checkedAddresses(url, { allowPrivate: options.allowPrivate ?? env().leadWebhookAllowPrivate, resolve: options.resolve });
    } catch (error) {
      if (error instanceof RefusedAddressError) throw new PermanentDeliveryError(error.message);
      throw error;
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const status = await postPinned(
      url,
      addresses,
      { 'Content-Type': 'application/json', 'Idempotency-Key': `lead-${leadId}`, 'X-Lead-Signature': signWebhook(payload.body, secret, timestamp) },
      payload.body,
    );
    if (status < 200 || status >= 300) throw new Error(`webhook answered ${status}`);
    return `webhook ${status}`;
  };
}

export const httpWebhookTransport: Transports['webhook'] = webhookTransport();

export function defaultTransports(): Transports {
  return { email: smtpEmailTransport(env().smtpUrl, env().leadEmailFrom), webhook: httpWebhookTransport };
}

type Claimed = { id: number; leadId: string; channel: string; payload: OutboxPayload; attempts: number };

export type BatchOptions = {
  worker?: string;
  limit?: number;
  transports?: Transports;
  baseDelayMs?: number;
  leaseMs?: number;
};

/**
 * Claims up to `limit` due deliveries, attempts each once (concurrently), then records every
 * outcome in one statement. Returns how many were attempted. A process that dies before recording
 * leaves the leases to lapse: those rows are attempted again (at-least-once, as for a send whose
 * acknowledgement was lost).
 */
export async function runDeliveryBatch(options: BatchOptions = {}): Promise<number> {
  const db = await getDb();
  const worker = options.worker ?? workerId;
  const transports = options.transports ?? defaultTransports();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
    update lead_deliveries set locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
    where id in (
      select id from lead_deliveries
      where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now()) and lead_id is not null
      order by next_attempt_at
      limit ${options.limit ?? 20}
      for update skip locked
    )
    returning id, lead_id as "leadId", channel, payload, attempts`),
  ).map((row) => ({ ...row, id: Number(row.id) }));
  if (claimed.length === 0) return 0;
  const outcomes = await Promise.all(claimed.map((row) => attempt(row, transports)));
  const results = JSON.stringify(
    outcomes.map(({ row, ok, detail, permanent }) => ({
      id: row.id,
      status: ok ? 'delivered' : permanent || row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
      delivered_at: ok ? new Date() : null,
      last_error: ok ? null : detail,
      next_attempt_at: ok ? null : new Date(Date.now() + backoffMs(row.attempts, baseDelayMs)),
    })),
  );
  await db.execute(sql`with recorded as (
      update lead_deliveries d set status = r.status, locked_until = null, last_error = r.last_error,
        delivered_at = coalesce(r.delivered_at, d.delivered_at), next_attempt_at = coalesce(r.next_attempt_at, d.next_attempt_at)
      from jsonb_to_recordset(${results}::jsonb) as r(id bigint, status text, delivered_at timestamptz, last_error text, next_attempt_at timestamptz)
      where d.id = r.id
    )
    ${insertRowsSql(
      leadDeliveryAttempts,
      outcomes.map(({ row, ok, detail, startedAt }) => ({ deliveryId: row.id, attempt: row.attempts, worker, ok, detail, startedAt })),
    )}`);
  for (const { row, ok, detail } of outcomes) {
    if (ok) logger.info({ deliveryId: row.id, leadId: row.leadId, channel: row.channel }, 'lead delivered');
    else logger.warn({ deliveryId: row.id, leadId: row.leadId, channel: row.channel, attempt: row.attempts, error: detail }, 'lead delivery failed');
  }
  const failedForGood = outcomes.filter(({ ok, row, permanent }) => !ok && (permanent || row.attempts >= MAX_ATTEMPTS));
  if (failedForGood.length > 0) {
    await queueFailureAlerts(failedForGood.map(({ row, detail }) => ({ id: row.id, leadId: row.leadId, payload: row.payload, channel: row.channel, attempts: row.attempts, lastError: detail })));
  }
  return claimed.length;
}

type Outcome = { row: Claimed; ok: boolean; detail: string; startedAt: Date; permanent?: boolean };

async function attempt(row: Claimed, transports: Transports): Promise<Outcome> {
  const db = await getDb();
  const startedAt = new Date();
  try {
    let detail: string;
    if (row.payload.kind === 'email') {
      const ids = row.payload.attachmentIds;
      const files = ids.length
        ? await db.select({ fileName: leadFiles.fileName, contentType: leadFiles.contentType, content: leadFiles.content }).from(leadFiles).where(inArray(leadFiles.id, ids))
        : [];
      detail = await transports.email(row.payload, row.leadId, files);
    } else if (row.payload.kind === 'webhook') {
      const secret = await webhookSecret(row.payload.url, row.leadId);
      detail = await transports.webhook(row.payload, row.leadId, secret);
    } else {
      throw new Error('phone codes are sent at once and never retried');
    }
    return { row, ok: true, detail: detail.slice(0, 1000), startedAt };
  } catch (error) {
    return { row, ok: false, detail: (error instanceof Error ? error.message : String(error)).slice(0, 1000), startedAt, permanent: error instanceof PermanentDeliveryError };
  }
}

async function webhookSecret(url: string, leadId: string): Promise<string> {
  const db = await getDb();
  const rows = rowsOf<{ secret: string }>(
    await db.execute(sql`
    select w.secret from lead_webhooks w join leads l on l.dealership_id = w.dealership_id and l.website_id = w.website_id
    where l.id = ${leadId} and w.url = ${url} limit 1`),
  );
  if (!rows[0]) throw new Error('webhook no longer configured');
  return rows[0].secret;
}

// ---- the in-process worker ----

const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
const globalWorker = globalThis as unknown as { __leadWorker?: { wake: () => void; stop: () => void } };

/** How long a commit's wake waits, so that the commits of a busy moment share one batch. */
const WAKE_DELAY_MS = 50;

/**
 * Runs delivery batches in this process: every `intervalMs`, and shortly after a lead commits
 * (wakeDeliveryWorker). Safe to run in every replica. Returns a stop function.
 */
export function startDeliveryWorker(options: BatchOptions & { intervalMs?: number } = {}): () => void {
  if (globalWorker.__leadWorker) return globalWorker.__leadWorker.stop;
  const limit = options.limit ?? 20;
  let stopped = false;
  let running = false;
  let woken = false;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  // Moves the next run earlier (never later).
  const schedule = (ms: number) => {
    if (stopped || Date.now() + ms >= dueAt) return;
    clearTimeout(timer);
    dueAt = Date.now() + ms;
    timer = setTimeout(() => {
      dueAt = Infinity;
      void tick();
    }, ms);
    timer.unref();
  };
  let lastPartialSweep = 0;
  const tick = async () => {
    if (stopped || running) return;
    running = true;
    woken = false;
    try {
      if (Date.now() - lastPartialSweep >= PARTIAL_SWEEP_INTERVAL_MS) {
        lastPartialSweep = Date.now();
        await queuePartialLeads();
      }
      // Drain full batches; a commit that woke us meanwhile is picked up by the short timer below.
      while (!stopped && (await runDeliveryBatch({ ...options, limit })) === limit);
    } catch (error) {
      logger.error({ err: error }, 'lead delivery batch failed');
    } finally {
      running = false;
      schedule(woken ? WAKE_DELAY_MS : (options.intervalMs ?? 2_000));
    }
  };
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    globalWorker.__leadWorker = undefined;
  };
  const wake = () => {
    if (running) woken = true;
    else schedule(WAKE_DELAY_MS);
  };
  globalWorker.__leadWorker = { wake, stop };
  schedule(100);
  return stop;
}

/** Asks this process's worker (if any) to look for due deliveries shortly. */
export function wakeDeliveryWorker(): void {
  globalWorker.__leadWorker?.wake();
}
