// Creates (or revokes) a Dashboard API key for one dealership.
//   npm run apikey:create -- --dealership <dealership-slug>
//   npm run apikey:create -- --revoke <key-id>
// The secret is printed once and kept only as a salted scrypt hash.
import { parseArgs } from 'node:util';
import { and, desc, eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { createApiKey, revokeApiKey } from '../src/modules/dashboard/dashboard.auth';
import { websiteDomains, websites } from '../src/modules/tenancy/tenancy.schema';
import { cars } from '../src/modules/stock/stock.schema';
import { databaseOptions } from '../src/db';

const USAGE = 'usage: npm run apikey:create -- --dealership <dealership-slug>   |   --revoke <key-id>';

let args: { dealership?: string; revoke?: string };
try {
  ({ values: args } = parseArgs({ options: { dealership: { type: 'string' }, revoke: { type: 'string' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!args.dealership === !args.revoke) {
  console.error(USAGE);
  process.exit(2);
}

const handle = await openDatabase(databaseOptions());
// The modules reach the database through getDb(); give them this handle rather than a second one.
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
let exitCode = 0;
try {
  if (args.revoke) {
    if (await revokeApiKey(args.revoke)) {
      console.log(`Key ${args.revoke} revoked.`);
    } else {
      console.error(`No live key ${args.revoke}.`);
      exitCode = 1;
    }
  } else {
    const key = await createApiKey(args.dealership!);
    if (!key) {
      console.error(`No dealership with slug '${args.dealership}'.`);
      exitCode = 1;
    } else {
      const [domain] = await handle.db
        .select({ host: websiteDomains.host })
        .from(websiteDomains)
        .where(and(eq(websiteDomains.websiteId, key.websiteId), eq(websiteDomains.primary, true)))
        .limit(1);
      const [site] = await handle.db.select({ slug: websites.slug }).from(websites).where(eq(websites.id, key.websiteId));
      const [car] = await handle.db
        .select({ slug: cars.slug })
        .from(cars)
        .where(and(eq(cars.websiteId, key.websiteId), eq(cars.showOnDealerWebsite, true)))
        .orderBy(desc(cars.id))
        .limit(1);
      const base = domain ? `https://${domain.host}` : `http://${site.slug}.localhost:${process.env.PORT ?? 3000}`;
      console.log(`Dashboard API key for dealership '${key.dealershipSlug}' (website ${key.websiteId}):`);
      console.log(`  key id:  ${key.keyId}`);
      console.log(`  secret:  ${key.secret}`);
      console.log('The secret is shown only this once; only its hash is stored. Revoke with --revoke <key id>.');
      console.log('Example:');
      console.log(`  curl -u '${key.keyId}:${key.secret}' ${base}/websites/${key.websiteId}/cars/${car?.slug ?? 'some-car-slug'}.json`);
    }
  }
} finally {
  await handle.close();
}
process.exit(exitCode);
