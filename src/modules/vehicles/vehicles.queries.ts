import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { rowsOf } from '@/db/rows';
import type { Tenant } from '../tenancy/tenancy.types';
import { ESTIMATE_RULES, type Comparable } from './vehicles.estimate';

/** Sold cars count as comparables for this long after their sale. */
export const SOLD_COMPARABLE_DAYS = 180;
const MAX_COMPARABLES = 500;

export type ComparableQuery = { make: string; model: string; year: number; excludeCarId?: number | null };

/**
 * Comparable listings for an estimate, across the platform's websites that price in this website's
 * currency (prices of AUD, NZD and USD sites are not comparable): same make and model (any case),
 * within the estimate's year window, listed on a dealer website now (in stock or coming soon) or
 * sold within SOLD_COMPARABLE_DAYS, with a real price. Hidden cars never count. The state is the
 * car's own, else its location's.
 */
export async function findComparables(tenant: Tenant, query: ComparableQuery, now = new Date()): Promise<Comparable[]> {
  const db = await getDb();
  const soldSince = new Date(now.getTime() - SOLD_COMPARABLE_DAYS * 86_400_000);
  const rows = rowsOf<{ price: number; year: number; km: number; state: string | null }>(
    await db.execute(sql`select c.price, c.year, c.km, nullif(coalesce(nullif(c.state, ''), l.state), '') as state
      from cars c
      join websites w on w.id = c.website_id
      left join locations l on l.website_id = c.website_id and l.id = c.location_id
      where lower(c.make) = lower(${query.make}) and lower(c.model) = lower(${query.model})
        and c.year between ${query.year - ESTIMATE_RULES.yearWindow} and ${query.year + ESTIMATE_RULES.yearWindow}
        and c.price > 200 and c.show_on_dealer_website
        and (c.status in ('in_stock', 'coming_soon') or (c.status = 'sold' and c.sold_date >= ${soldSince.toISOString()}::timestamptz))
        and coalesce(w.config->>'currency', 'AUD') = ${tenant.config.currency}
        and c.id <> ${query.excludeCarId ?? 0}
      order by c.id
      limit ${MAX_COMPARABLES}`),
  );
  return rows.map((r) => ({ price: Number(r.price), year: Number(r.year), km: Number(r.km), state: r.state }));
}
