import { z } from 'zod';
import { NotFoundError, dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { listFailedDeliveries } from '@/modules/leads/leads.alerts';

// Dashboard API: GET /dealerships/{id}/failed_deliveries.json — the dealership's lead deliveries that failed for good.
export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: pathIdSchema });

export const GET = dealerRoute<{ id: string }>(async ({ params, principal }) => {
  const { id } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  return jsonResponse({ failed_deliveries: await listFailedDeliveries(principal.websiteId, id) }, { headers: { 'Cache-Control': 'private, no-store' } });
});
