/**
 * Child process of the crash test (tests/integration/leads-reliability.test.ts): commits one lead,
 * claims its delivery and hangs in the middle of sending it, so the parent can SIGKILL it between
 * the commit and the delivery. Database from CRASH_DB_URL or CRASH_DATA_DIR
 * (tests/support/crash-process.ts).
 */
import { createLead } from '@/modules/leads/leads.commands';
import { runDeliveryBatch } from '@/modules/leads/leads.delivery';
import { leadPayloadSchema } from '@/modules/leads/form-rules/schemas';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { openCrashDatabaseInChild } from './crash-process';

await openCrashDatabaseInChild();
const tenant = await findTenantByHost(process.env.LEAD_CRASH_HOST!);
if (!tenant) throw new Error('no tenant');
const lead = leadPayloadSchema().parse({ name: 'Crash Test', email: 'crash@example.com', phone: '0412 000 111', category: 'General Enquiry', message: 'Still there?' });
const { id } = await createLead(tenant, lead, { idempotencyKey: 'crash-1', userAgent: 'child', ip: '192.0.2.1', referer: null, editToken: null });
process.stdout.write(`committed ${id}\n`);
await runDeliveryBatch({
  worker: 'doomed-child',
  leaseMs: Number(process.env.LEAD_CRASH_LEASE_MS ?? 1000),
  transports: {
    email: () => {
      process.stdout.write('sending\n');
      return new Promise<string>(() => {}); // hangs until the parent kills the process
    },
    webhook: () => new Promise<string>(() => {}),
  },
});
