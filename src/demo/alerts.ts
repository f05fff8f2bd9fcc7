import { randomUUID } from 'node:crypto';
import { devHostForSlug } from '@/lib/host';
import type { alertProgress, alertSubscriptions, savedSearches } from '@/modules/alerts/alerts.schema';
import { consentWording } from '@/modules/alerts/alerts.consent';
import type { customers, favourites } from '@/modules/identity/identity.schema';
import type { carPriceChanges } from '@/modules/stock/stock.schema';
import type { SiteSeed } from './sites';
import type { CarRow } from './stock';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Numbers kept for drama and examples, so no real phone is named: ACMA's 0491 570 xxx, NZ's 021 555 xxxx, the US 555-01xx. */
const DEMO_VISITOR_PHONE = { AU: '+61491570156', NZ: '+64215550156', US: '+12025550156' } as const;

export type DemoAlerts = {
  customers: (typeof customers.$inferInsert)[];
  subscriptions: (typeof alertSubscriptions.$inferInsert)[];
  favourites: (typeof favourites.$inferInsert)[];
  savedSearches: (typeof savedSearches.$inferInsert)[];
  priceChanges: (typeof carPriceChanges.$inferInsert)[];
  progress: (typeof alertProgress.$inferInsert)[];
};

/**
 * A demo visitor with alerts on for each website with the garage (issue 35): two saved cars, one of
 * them reduced by 1,000 an hour ago, and a saved search for the make of the newest car, saved two
 * days ago; the sweep's cursor a day back. The first sweep after `npm start` (within a minute)
 * finds the price drop and the new stock and queues the digest email shown on /dev/outbox. Changes
 * the reduced car's price and update time in `carRows` (they are inserted after).
 */
export function demoAlerts(site: SiteSeed, carRows: CarRow[], now: Date): DemoAlerts | null {
  if (!site.config.garage?.enabled || !site.config.phoneSignIn?.enabled) return null;
  const forSale = carRows.filter((car) => car.websiteId === site.id && car.status === 'in_stock' && !car.reserved && (car.price ?? 0) > 5_000);
  const newest = [...forSale].sort((x, y) => (y.createdAt as Date).getTime() - (x.createdAt as Date).getTime())[0];
  const [reduced, kept] = forSale.filter((car) => car !== newest);
  if (!newest || !reduced || !kept) return null;
  newest.createdAt = new Date(now.getTime() - 2 * HOUR_MS);
  newest.updatedAt = newest.createdAt;
  const oldPrice = reduced.price!;
  reduced.price = oldPrice - 1_000;
  reduced.updatedAt = new Date(now.getTime() - HOUR_MS);
  const customerId = randomUUID();
  const twoDaysAgo = new Date(now.getTime() - 2 * DAY_MS);
  const port = process.env.PORT ?? '3000';
  return {
    customers: [{ id: customerId, websiteId: site.id, phone: DEMO_VISITOR_PHONE[site.country], firstName: 'Sam', email: 'sam.visitor@example.com', createdAt: twoDaysAgo }],
    subscriptions: [
      {
        customerId,
        websiteId: site.id,
        channel: 'email',
        address: 'sam.visitor@example.com',
        consentText: consentWording(site),
        consentedAt: twoDaysAgo,
        origin: `http://${devHostForSlug(site.slug)}:${port}`,
      },
    ],
    favourites: [reduced, kept].map((car) => ({ websiteId: site.id, customerId, carId: car.id, savedPrice: car === reduced ? oldPrice : car.price, notifiedState: 'available', createdAt: twoDaysAgo })),
    savedSearches: [
      {
        websiteId: site.id,
        customerId,
        name: newest.make,
        path: `/search/${site.config.search?.defaultSlug ?? 'used-cars'}`,
        query: new URLSearchParams({ make: newest.make }).toString(),
        lastSeenAt: twoDaysAgo,
        createdAt: twoDaysAgo,
      },
    ],
    priceChanges: [{ websiteId: site.id, carId: reduced.id, oldPrice, newPrice: reduced.price, changedAt: reduced.updatedAt as Date }],
    progress: [{ websiteId: site.id, generation: 0, sweptAt: new Date(now.getTime() - DAY_MS) }],
  };
}
