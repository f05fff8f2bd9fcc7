import 'server-only';
import { sql } from 'drizzle-orm';
import { logger } from '@/lib/logger';
import { rowsOf } from './rows';
import type { DatabaseHandle } from './client';

/**
 * Housekeeping of the tables that churn: expired rate-limit windows are deleted (on both
 * databases: a window past its end counts for nothing), and on the embedded database, which has
 * no autovacuum, the churned tables are vacuumed so a long-running site does not grow without
 * bound. On a PostgreSQL server autovacuum does that part.
 */

export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;
/** Rewritten or deleted on every stock change, limit hit and delivery. */
export const CHURNED_TABLES = ['car_changes', 'car_generations', 'rate_limits', 'lead_deliveries'] as const;

export type HousekeepingResult = { expiredLimits: number; vacuumed: string[] };

export async function runHousekeeping(handle: Pick<DatabaseHandle, 'db' | 'kind'>, nowMs = Date.now()): Promise<HousekeepingResult> {
  const deleted = rowsOf<{ n: number }>(
    await handle.db.execute(sql`with gone as (delete from rate_limits where expire < ${nowMs} returning 1) select count(*)::int as n from gone`),
  );
  const vacuumed: string[] = [];
  if (handle.kind === 'pglite') {
    for (const table of CHURNED_TABLES) {
      const [exists] = rowsOf<{ found: boolean }>(await handle.db.execute(sql`select to_regclass(${table}) is not null as found`));
      if (!exists?.found) continue;
      await handle.db.execute(sql.raw(`vacuum ${table}`));
      vacuumed.push(table);
    }
  }
  return { expiredLimits: deleted[0]?.n ?? 0, vacuumed };
}

/** Runs housekeeping every hour in this process (the first a minute after start). Returns a stop function. */
export function startHousekeeping(open: () => Promise<DatabaseHandle>, intervalMs = HOUSEKEEPING_INTERVAL_MS): () => void {
  const run = async () => {
    try {
      const result = await runHousekeeping(await open());
      logger.info(result, 'housekeeping done');
    } catch (error) {
      logger.warn({ err: error }, 'housekeeping failed');
    }
  };
  const first = setTimeout(() => void run(), Math.min(60_000, intervalMs));
  const every = setInterval(() => void run(), intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
