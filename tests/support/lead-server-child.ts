/**
 * Child process of the delivery kill test (tests/integration/delivery-kill.test.ts): a server
 * process as far as leads go. It answers POST /api/leads with the real route handler and runs the
 * real outbox worker (startDeliveryWorker) with the real transports: SMTP to LEAD_KILL_SMTP_URL and
 * the dealership's webhook over HTTP. GET /outbox answers how many deliveries are
 * not delivered yet, and how many attempts failed. Prints `@@listening {port}` once it accepts requests. The
 * parent SIGKILLs it mid-stream and starts another. Database from CRASH_DB_URL or CRASH_DATA_DIR
 * (tests/support/crash-process.ts).
 */
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { POST } from '@/app/api/leads/route';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import { smtpEmailTransport, startDeliveryWorker, webhookTransport } from '@/modules/leads/leads.delivery';
import { openCrashDatabaseInChild } from './crash-process';

await openCrashDatabaseInChild();
startDeliveryWorker({
  worker: `kill-test-${process.pid}`,
  transports: { email: smtpEmailTransport(process.env.LEAD_KILL_SMTP_URL, 'Leads <leads@test.example>'), webhook: webhookTransport({ allowPrivate: true }) },
  leaseMs: Number(process.env.LEAD_KILL_LEASE_MS),
  attemptTimeoutMs: Number(process.env.LEAD_KILL_ATTEMPT_MS),
  intervalMs: 200,
});

const server = http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/outbox') {
    const db = await getDb();
    const [row] = rowsOf<{ undelivered: number; failedAttempts: number }>(
      await db.execute(sql`select (select count(*)::int from lead_deliveries where status <> 'delivered') as undelivered,
        (select count(*)::int from lead_delivery_attempts where not ok) as "failedAttempts"`),
    );
    res.end(JSON.stringify(row));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const response = await POST(new Request(`http://${req.headers.host}${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) }), { params: Promise.resolve({}) });
  res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`@@listening ${(server.address() as { port: number }).port}\n`));
