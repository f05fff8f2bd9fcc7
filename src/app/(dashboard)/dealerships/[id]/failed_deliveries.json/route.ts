import { z } from 'zod';
import { NotFoundError } from '@/modules/dashboard/dashboard.errors';
import { dashboardRoute, jsonResponse, parseParams, pathIdSchema } from '@/modules/dashboard/dashboard.http';
import { listFailedDeliveries } from '@/modules/leads/leads.alerts';

// Dashboard API: GET /dealerships/{id}/failed_deliveries.json — the dealership's lead deliveries that failed for good.
export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: pathIdSchema });

export const GET = dashboardRoute<{ id: string }>(async ({ params, principal }) => {
  const { id } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  return jsonResponse({ failed_deliveries: await listFailedDeliveries(principal.websiteId, id) }, { headers: { 'Cache-Control': 'private, no-store' } });
});
