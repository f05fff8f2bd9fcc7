import { z } from 'zod';
import { NotFoundError, dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { retryFailedDeliveries } from '@/modules/leads/leads.alerts';
import { wakeDeliveryWorker } from '@/modules/leads/leads.delivery';

// Dashboard API: POST /dealerships/{id}/failed_deliveries/{delivery}/retry — queue a failed delivery again.
export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: pathIdSchema, delivery: pathIdSchema });

export const POST = dealerRoute<{ id: string; delivery: string }>(async ({ params, principal }) => {
  const { id, delivery } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  if ((await retryFailedDeliveries(principal.websiteId, id, delivery)) === 0) throw new NotFoundError();
  wakeDeliveryWorker();
  return jsonResponse({ id: delivery, status: 'pending' }, { status: 202 });
});
