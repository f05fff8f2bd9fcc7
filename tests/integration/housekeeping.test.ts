import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { runHousekeeping } from '@/db/housekeeping';
import { consumeLimits, HOUR_MS } from '@/lib/rate-limit';
import { useTestDatabase } from '../support/database';

describe('housekeeping', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await useTestDatabase();
  });

  it('deletes expired limit windows, keeps open ones, and vacuums the churned tables on the embedded database', async () => {
    const message = () => 'x';
    const now = Date.now();
    await consumeLimits(handle.db, [{ key: 'hk:old', max: 5, durationMs: HOUR_MS, message }], now - 2 * HOUR_MS);
    await consumeLimits(handle.db, [{ key: 'hk:open', max: 5, durationMs: HOUR_MS, message }], now);
    const result = await runHousekeeping(handle, now);
    expect(result.expiredLimits).toBe(1);
    const keys = rowsOf<{ key: string }>(await handle.db.execute(sql`select key from rate_limits where key like 'hk:%' order by key`)).map((r) => r.key);
    expect(keys).toEqual(['hk:open']);
    if (handle.kind === 'pglite') expect(result.vacuumed).toEqual(['car_changes', 'car_generations', 'rate_limits', 'lead_deliveries']);
    else expect(result.vacuumed).toEqual([]);
  });
});
