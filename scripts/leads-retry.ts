// Puts a dealership's failed lead deliveries back in the outbox; the delivery worker of a running
// server (or the next one started) sends them.
//   npm run leads:retry -- --dealership <dealership-slug> [--delivery <id>]
// On the embedded database, stop the server first (one process may open it).
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { databaseOptions } from '../src/db';
import { listFailedDeliveries, retryFailedDeliveries } from '../src/modules/leads/leads.alerts';
import { dealerships } from '../src/modules/tenancy/tenancy.schema';

const USAGE = 'usage: npm run leads:retry -- --dealership <dealership-slug> [--delivery <id>]';

let args: { dealership?: string; delivery?: string };
try {
  ({ values: args } = parseArgs({ options: { dealership: { type: 'string' }, delivery: { type: 'string' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!args.dealership || (args.delivery !== undefined && !/^[1-9]\d{0,15}$/.test(args.delivery))) {
  console.error(USAGE);
  process.exit(2);
}

const handle = await openDatabase(databaseOptions());
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
let exitCode = 0;
try {
  const [dealership] = await handle.db.select({ id: dealerships.id, websiteId: dealerships.websiteId }).from(dealerships).where(eq(dealerships.slug, args.dealership));
  if (!dealership) {
    console.error(`No dealership '${args.dealership}'.`);
    exitCode = 1;
  } else {
    const failed = await listFailedDeliveries(dealership.websiteId, dealership.id);
    const retried = await retryFailedDeliveries(dealership.websiteId, dealership.id, args.delivery === undefined ? undefined : Number(args.delivery));
    console.log(`${retried} of ${failed.length} failed deliveries of '${args.dealership}' queued again.`);
    if (args.delivery !== undefined && retried === 0) exitCode = 1;
  }
} finally {
  await handle.close();
}
process.exit(exitCode);
