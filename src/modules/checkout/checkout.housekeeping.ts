import 'server-only';
import { runEvery } from '@/lib/every';
import { logger } from '@/lib/logger';
import { reconcileReservations } from './checkout.commands';

/**
 * Every minute in each server process (like src/db/housekeeping.ts, started from
 * src/instrumentation.ts): lapsed holds expire and their cars are free again even when nobody
 * looks at them, and payments the providers moved without a notification reaching us are
 * reconciled. Reads expire holds lazily as well, so a stopped sweeper never holds a car too long.
 * Safe on any number of replicas: every transition is guarded by the reservation's row lock.
 */

export const CHECKOUT_SWEEP_INTERVAL_MS = 60_000;

export function startCheckoutHousekeeping(intervalMs = CHECKOUT_SWEEP_INTERVAL_MS): () => void {
  return runEvery(
    intervalMs,
    async () => {
      const result = await reconcileReservations();
      if (result.expired > 0 || result.checked > 0) logger.info(result, 'reservations reconciled');
    },
    'reservation housekeeping failed',
  );
}
