// Creates (or revokes) a Dashboard API key for one dealership.
//   npm run apikey:create -- --dealership <dealership-slug>
//   npm run apikey:create -- --revoke <key-id>
// The secret is printed once and kept only as a salted scrypt hash.
import { and, desc, eq } from 'drizzle-orm';
import { createApiKey, revokeApiKey } from '@/lib/http';
import { websiteDomains, websites } from '../src/modules/tenancy/tenancy.schema';
import { cars } from '../src/modules/stock/stock.schema';
import { stringOptions, withDatabase } from './cli';

const USAGE = 'usage: npm run apikey:create -- --dealership <dealership-slug>   |   --revoke <key-id>';

const args = stringOptions(['dealership', 'revoke'], USAGE, (a) => !a.dealership !== !a.revoke);

await withDatabase(async (handle) => {
  if (args.revoke) {
    if (await revokeApiKey(args.revoke)) {
      console.log(`Key ${args.revoke} revoked.`);
      return 0;
    }
    console.error(`No live key ${args.revoke}.`);
    return 1;
  }
  const key = await createApiKey(args.dealership!);
  if (!key) {
    console.error(`No dealership with slug '${args.dealership}'.`);
    return 1;
  }
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
  console.log(`  dealership id:  ${key.dealershipId}`);
  console.log('The secret is shown only this once; only its hash is stored. Revoke with --revoke <key id>.');
  console.log('Example:');
  console.log(`  curl -u '${key.keyId}:${key.secret}' ${base}/websites/${key.websiteId}/cars/${car?.slug ?? 'some-car-slug'}.json`);
  return 0;
});
