/** Runs once when a server process starts (Next.js instrumentation hook). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ installRequestHooks }, { env }] = await Promise.all([import('./lib/request-hooks'), import('./lib/env')]);
  installRequestHooks({ pageCache: env().pageCache, trustedProxyHops: env().trustedProxyHops, development: !env().production });
  if (process.env.NEXT_PHASE !== 'phase-production-build') {
    const [{ startHousekeeping }, { getDatabase }] = await Promise.all([import('./db/housekeeping'), import('./db')]);
    startHousekeeping(getDatabase);
    // Reservations: lapsed holds released, payments reconciled with their providers (every minute).
    const { startCheckoutHousekeeping } = await import('./modules/checkout/checkout.housekeeping');
    startCheckoutHousekeeping();
    // Visitors' alerts: stock changes matched with saved cars and searches, digests queued (every minute).
    const { startAlertsHousekeeping } = await import('./modules/alerts/alerts.housekeeping');
    // ALERTS_SWEEP_INTERVAL_MS: a shorter interval for the browser tests (the default is a minute).
    startAlertsHousekeeping(Number(process.env.ALERTS_SWEEP_INTERVAL_MS) || undefined);
  }
  // Lead delivery from the outbox runs in every server process (claims are SKIP LOCKED leases).
  if (env().leadWorker && process.env.NEXT_PHASE !== 'phase-production-build') {
    const { startDeliveryWorker } = await import('@/modules/leads/leads.delivery');
    startDeliveryWorker();
  }
}
