// Puts a dealership's failed lead deliveries back in the outbox; the delivery worker of a running
// server (or the next one started) sends them.
//   npm run leads:retry -- --dealership <dealership-slug> [--delivery <id>]
// On the embedded database, stop the server first (one process may open it).
import { eq } from 'drizzle-orm';
import { listFailedDeliveries, retryFailedDeliveries } from '../src/modules/leads/leads.alerts';
import { dealerships } from '../src/modules/tenancy/tenancy.schema';
import { stringOptions, withDatabase } from './cli';

const USAGE = 'usage: npm run leads:retry -- --dealership <dealership-slug> [--delivery <id>]';

const args = stringOptions(['dealership', 'delivery'], USAGE, (a) => !!a.dealership && (a.delivery === undefined || /^[1-9]\d{0,15}$/.test(a.delivery)));

await withDatabase(async (handle) => {
  const [dealership] = await handle.db.select({ id: dealerships.id, websiteId: dealerships.websiteId }).from(dealerships).where(eq(dealerships.slug, args.dealership!));
  if (!dealership) {
    console.error(`No dealership '${args.dealership}'.`);
    return 1;
  }
  const failed = await listFailedDeliveries(dealership.websiteId, dealership.id);
  const retried = await retryFailedDeliveries(dealership.websiteId, dealership.id, args.delivery === undefined ? undefined : Number(args.delivery));
  console.log(`${retried} of ${failed.length} failed deliveries of '${args.dealership}' queued again.`);
  return args.delivery !== undefined && retried === 0 ? 1 : 0;
});
