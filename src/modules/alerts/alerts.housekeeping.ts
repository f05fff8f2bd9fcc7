import 'server-only';
import { runEvery } from '@/lib/every';
import { logger } from '@/lib/logger';
import { wakeDeliveryWorker } from '@/modules/leads/server';
import { queueDueAlerts } from './alerts.digest';
import { findAlerts } from './alerts.sweep';

/**
 * Every minute in each server process (started from src/instrumentation.ts, like checkout's
 * housekeeping): the stock changes since the last sweep are matched with visitors' saved cars and
 * searches, and what is due is queued in the outbox (decision 066). Safe on any number of
 * replicas: each fact is recorded once, each visitor's message queued under their row lock.
 */

export const ALERTS_SWEEP_INTERVAL_MS = 60_000;

export async function runAlertsSweep(now = new Date()): Promise<{ found: number; queued: number }> {
  const { found } = await findAlerts(now);
  const queued = await queueDueAlerts(now);
  if (queued > 0) wakeDeliveryWorker();
  return { found, queued };
}

export function startAlertsHousekeeping(intervalMs = ALERTS_SWEEP_INTERVAL_MS): () => void {
  return runEvery(
    intervalMs,
    async () => {
      const result = await runAlertsSweep();
      if (result.found > 0 || result.queued > 0) logger.info(result, 'visitor alerts swept');
    },
    'visitor alerts sweep failed',
  );
}
