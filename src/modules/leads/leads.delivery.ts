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
import { defaultSmsSender, type SmsSender } from '@/lib/sms';
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
/** The whole of one attempt (files read, secret read, send) is bounded by this (decision 057). */
export const ATTEMPT_TIMEOUT_MS = 20_000;
/** A claim's lease: longer than an attempt may take, short enough that a crashed worker's claims are retried within half a minute. */
export const DEFAULT_LEASE_MS = 30_000;
const SEND_TIMEOUT_MS = 15_000;

export type DeliveryFile = { fileName: string; contentType: string; content: Buffer };
export type EmailPayload = Extract<OutboxPayload, { kind: 'email' }>;
export type WebhookPayload = Extract<OutboxPayload, { kind: 'webhook' }>;
/** The channels of rows without a lead that the worker delivers: visitors' alerts (src/modules/alerts). Phone codes are sent at once. */
const LEADLESS_CHANNELS = ['visitor_alert_email', 'visitor_alert_sms'] as const;

/** How deliveries leave the building. Each returns a short description for the audit log, or throws. leadId is '' for a row without a lead. */
export type Transports = {
  email: (payload: EmailPayload, leadId: string, files: DeliveryFile[]) => Promise<string>;
  webhook: (payload: WebhookPayload, leadId: string, secret: string) => Promise<string>;
  /** A visitor's alert by SMS; the platform's SMS sender when not given. */
  sms?: SmsSender;
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
      messageId: `<${payload.messageKey ?? `lead-${leadId}${payload.adf ? '' : '-visitor'}`}@${hostname() || 'localhost'}>`,
      headers: payload.headers,
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
  return { email: smtpEmailTransport(env().smtpUrl, env().leadEmailFrom), webhook: httpWebhookTransport, sms: defaultSmsSender() };
}

type Claimed = { id: number; leadId: string | null; channel: string; payload: OutboxPayload; attempts: number };

export type BatchOptions = {
  worker?: string;
  limit?: number;
  transports?: Transports;
  baseDelayMs?: number;
  /** How long a claim holds its rows; more than attemptTimeoutMs, so that no live attempt loses its lease. */
  leaseMs?: number;
  /** The longest an attempt may take before it is recorded as failed (the transport's own timeouts are per step). */
  attemptTimeoutMs?: number;
};

/**
 * Claims up to `limit` due deliveries and attempts each once (concurrently), recording each
 * outcome as soon as its send ends (decision 057): a process that dies mid-batch leaves only the
 * deliveries still in flight unrecorded, and their leases lapse after `leaseMs`, so those alone are
 * attempted again (at-least-once, as for a send whose acknowledgement was lost). Returns how many
 * were attempted.
 */
export async function runDeliveryBatch(options: BatchOptions = {}): Promise<number> {
  const db = await getDb();
  const worker = options.worker ?? workerId;
  const transports = options.transports ?? defaultTransports();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const attemptTimeoutMs = Math.min(options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS, leaseMs);
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
    update lead_deliveries set locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
    where id in (
      select id from lead_deliveries
      where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
        and (lead_id is not null or channel in (${sql.join(LEADLESS_CHANNELS.map((channel) => sql`${channel}`), sql`, `)}))
      order by next_attempt_at
      limit ${options.limit ?? 20}
      for update skip locked
    )
    returning id, lead_id as "leadId", channel, payload, attempts`),
  ).map((row) => ({ ...row, id: Number(row.id) }));
  const results = await Promise.allSettled(
    claimed.map(async (row) => recordOutcome(await attempt(row, transports, attemptTimeoutMs), worker, baseDelayMs)),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return claimed.length;
}

/** One delivery's outcome, recorded in one statement (its row and its audit row), then logged; a final failure queues its alert. */
async function recordOutcome({ row, ok, detail, permanent, startedAt }: Outcome, worker: string, baseDelayMs: number): Promise<void> {
  const db = await getDb();
  const failedForGood = !ok && (permanent || row.attempts >= MAX_ATTEMPTS);
  const nextAttemptAt = ok ? null : new Date(Date.now() + backoffMs(row.attempts, baseDelayMs));
  await db.execute(sql`with recorded as (
      update lead_deliveries set status = ${ok ? 'delivered' : failedForGood ? 'failed' : 'pending'}, locked_until = null,
        last_error = ${ok ? null : detail}, delivered_at = coalesce(${ok ? new Date() : null}::timestamptz, delivered_at),
        next_attempt_at = coalesce(${nextAttemptAt}::timestamptz, next_attempt_at)
      where id = ${row.id}
    )
    ${insertRowsSql(leadDeliveryAttempts, [{ deliveryId: row.id, attempt: row.attempts, worker, ok, detail, startedAt }])}`);
  if (ok) logger.info({ deliveryId: row.id, leadId: row.leadId, channel: row.channel }, 'lead delivered');
  else logger.warn({ deliveryId: row.id, leadId: row.leadId, channel: row.channel, attempt: row.attempts, error: detail }, 'lead delivery failed');
  // A visitor's alert that failed for good concerns no dealer: the audit log and the outbox page show it.
  if (failedForGood && row.leadId) await queueFailureAlerts([{ id: row.id, leadId: row.leadId, payload: row.payload, channel: row.channel, attempts: row.attempts, lastError: detail }]);
}

type Outcome = { row: Claimed; ok: boolean; detail: string; startedAt: Date; permanent?: boolean };

/** Rejects after `ms`: an attempt that outlives it is recorded as failed, before its lease lapses. */
function deadline(ms: number): { promise: Promise<never>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

async function attempt(row: Claimed, transports: Transports, timeoutMs: number): Promise<Outcome> {
  const startedAt = new Date();
  const limit = deadline(timeoutMs);
  try {
    const detail = await Promise.race([send(row, transports), limit.promise]);
    return { row, ok: true, detail: detail.slice(0, 1000), startedAt };
  } catch (error) {
    return { row, ok: false, detail: (error instanceof Error ? error.message : String(error)).slice(0, 1000), startedAt, permanent: error instanceof PermanentDeliveryError };
  } finally {
    limit.clear();
  }
}

async function send(row: Claimed, transports: Transports): Promise<string> {
  if (row.payload.kind === 'email') {
    const ids = row.payload.attachmentIds;
    const db = await getDb();
    const files = ids.length
      ? await db.select({ fileName: leadFiles.fileName, contentType: leadFiles.contentType, content: leadFiles.content }).from(leadFiles).where(inArray(leadFiles.id, ids))
      : [];
    return transports.email(row.payload, row.leadId ?? '', files);
  }
  if (row.payload.kind === 'webhook' && row.leadId) return transports.webhook(row.payload, row.leadId, await webhookSecret(row.payload.url, row.leadId));
  if (row.payload.kind === 'sms' && row.channel === 'visitor_alert_sms') return (transports.sms ?? defaultSmsSender())(row.payload);
  throw new PermanentDeliveryError(`${row.channel} is not delivered by the worker`);
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
