import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { leadWebhooks } from '@/modules/leads/leads.schema';
import { seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { createCrashDatabase, killChild, startChild, type Child, type CrashDatabase } from '../support/crash-process';
import { TestSmtpServer } from '../support/smtp-server';

/**
 * Issue 33, item 3 (decision 057): a server process SIGKILLed while leads arrive at 20 a second.
 * Every lead it accepted is delivered afterwards (by email and to the webhook), and no delivery is
 * repeated except those in flight at the kill: claimed by the dead process, not yet recorded.
 * The server process is tests/support/lead-server-child.ts (the real route handler and the real
 * outbox worker with real SMTP and webhook transports); the mail server and the dealership's
 * webhook receiver are here. The mail server takes 1.5 s to accept a message and the webhook
 * receiver answers at once, so a lead's webhook is acknowledged long before its email: a worker
 * that recorded a batch's outcomes together (before decision 057) held acknowledged webhooks
 * unrecorded meanwhile, and a kill then repeated them.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POSTs a valid lead with the website's Host (which fetch would replace); rejects if the connection fails. */
function postLead(port: number, host: string, clientAddress: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: '/api/leads', method: 'POST', agent: false, timeout: 10_000, headers: { host, 'content-type': 'application/json', 'x-dealer-client-address': clientAddress } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
    request.end(JSON.stringify({ lead: validLead() }));
  });
}
const SMTP_ACCEPT_MS = 1_500;
const ATTEMPT_MS = 10_000;
const LEASE_MS = 12_000;
/** A webhook acknowledged this long before the kill has had time to be recorded: it must not be sent again. */
const RECORD_GRACE_MS = 750;

describe('a server process killed while leads arrive at 20 a second', () => {
  const smtp = new TestSmtpServer(SMTP_ACCEPT_MS);
  const hooks: { key: string; at: number }[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hooks.push({ key: String(req.headers['idempotency-key']), at: Date.now() });
      res.end('ok');
    });
  });
  let crash: CrashDatabase;
  let handle: DatabaseHandle | undefined;
  let w: LeadWorld;
  const children: Child[] = [];

  const start = async () => {
    const child = await startChild(
      'tests/support/lead-server-child.ts',
      { ...crash.childEnv, LEAD_KILL_SMTP_URL: smtp.url, LEAD_KILL_LEASE_MS: String(LEASE_MS), LEAD_KILL_ATTEMPT_MS: String(ATTEMPT_MS), LOG_LEVEL: 'silent' },
      (output) => output.includes('@@listening'),
    );
    children.push(child);
    return Number(/@@listening (\d+)/.exec(child.output())![1]);
  };
  const useDatabase = async (fn: (db: DatabaseHandle['db']) => Promise<void>) => {
    handle ??= await crash.open();
    await fn(handle.db);
    if (crash.exclusive) {
      await handle.close(); // PGlite: one process at a time
      handle = undefined;
    }
  };

  beforeAll(async () => {
    await smtp.start();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    crash = await createCrashDatabase('delivery_kill');
    await useDatabase(async (db) => {
      w = await seedLeadWorld(db);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/leads`;
      await db.insert(leadWebhooks).values({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, url, secret: 'kill-test-secret' });
    });
  }, 120_000);

  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) await killChild(child);
    await handle?.close();
    (globalThis as unknown as { __dbHandle?: unknown }).__dbHandle = undefined;
    await crash?.remove();
    await smtp.stop();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('delivers every accepted lead, repeating at most the deliveries in flight at the kill', async () => {
    const accepted: string[] = [];
    let sent = 0;
    /** Posts a lead every 50 ms to whichever port `target()` names, for `ms`. */
    const stream = async (target: () => number | null, ms: number) => {
      const started = Date.now();
      const pending: Promise<void>[] = [];
      for (let i = 0; i < ms / 50; i += 1) {
        await sleep(started + i * 50 - Date.now());
        const port = target();
        const n = sent++;
        if (port) {
          pending.push(
            postLead(port, w.hostA, `10.33.${n >> 8}.${n & 255}`).then(
              (answer) => {
                if (answer.status === 201) accepted.push((JSON.parse(answer.body) as { id: string }).id);
              },
              () => {}, // refused or cut off by the kill: not accepted
            ),
          );
        }
      }
      await Promise.all(pending);
    };

    let killedAt = 0;
    let port: number | null = await start();
    await stream(() => port, 50); // one lead first, so that the route's modules are loaded
    // Four seconds of leads, killed 3 s in (the stream goes on meanwhile, refused).
    await Promise.all([
      stream(() => port, 4_000),
      sleep(3_000).then(async () => {
        const dead = children[0];
        port = null;
        killedAt = Date.now();
        await killChild(dead);
      }),
    ]);

    // What the dead process had claimed and not recorded: its deliveries in flight at the kill.
    let inFlight = 0;
    let beforeRestart = 0;
    await useDatabase(async (db) => {
      const [row] = rowsOf<{ inFlight: number; delivered: number }>(
        await db.execute(sql`select
          coalesce(sum(d.attempts - (select count(*) from lead_delivery_attempts a where a.delivery_id = d.id)), 0)::int as "inFlight",
          count(*) filter (where d.status = 'delivered')::int as delivered
          from lead_deliveries d`),
      );
      inFlight = row.inFlight;
      beforeRestart = row.delivered;
    });

    port = await start();
    await stream(() => port, 2_000);

    // Everything delivered: nothing left in the outbox, each accepted lead's email and webhook received.
    const deadline = Date.now() + LEASE_MS + 60_000;
    const outbox = async () => (await (await fetch(`http://127.0.0.1:${port}/outbox`)).json()) as { undelivered: number; failedAttempts: number };
    while ((await outbox()).undelivered > 0 && Date.now() < deadline) await sleep(250);
    const { undelivered, failedAttempts } = await outbox();
    expect(undelivered).toBe(0);
    const missing = accepted.filter((id) => !smtp.received.some((mail) => mail.messageId?.startsWith(`<lead-${id}@`)) || !hooks.some((hook) => hook.key === `lead-${id}`));
    expect(missing).toEqual([]);
    await killChild(children[1]);

    const repeats = (keys: string[]) => keys.length - new Set(keys).size;
    const mailRepeats = repeats(smtp.received.map((mail) => mail.messageId ?? ''));
    const hookRepeats = repeats(hooks.map((hook) => hook.key));
    const settledBeforeKill = new Set(hooks.filter((hook) => hook.at < killedAt - RECORD_GRACE_MS).map((hook) => hook.key));
    const repeatedThough = [...settledBeforeKill].filter((key) => hooks.filter((hook) => hook.key === key).length > 1);
    console.log(
      `delivery kill test: ${accepted.length} leads accepted of ${sent} sent, ${beforeRestart} deliveries recorded before the kill, ` +
        `${inFlight} in flight at the kill (claimed, not recorded), repeated after it: ${mailRepeats} emails, ${hookRepeats} webhooks; ${failedAttempts} failed attempts`,
    );
    expect(accepted.length).toBeGreaterThanOrEqual(20);
    expect(repeatedThough).toEqual([]);
    expect(failedAttempts).toBe(0);
    expect(mailRepeats + hookRepeats).toBeLessThanOrEqual(inFlight);
  }, 120_000);
});
