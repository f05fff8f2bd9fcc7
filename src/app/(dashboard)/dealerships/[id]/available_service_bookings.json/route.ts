import { z } from 'zod';
import { dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { getDashboardBookings } from '@/modules/dashboard/dashboard.service';

// Dashboard API (SPEC §7): /dealerships/{id}/available_service_bookings.json.
export const dynamic = 'force-dynamic';

type Params = { id: string };
const paramsSchema = z.object({ id: pathIdSchema });

export const GET = dealerRoute<Params>(async ({ params, principal }) => {
  const { id } = parseParams(paramsSchema, params);
  return jsonResponse(await getDashboardBookings(principal, id, 'service'), {
    headers: { 'Cache-Control': 'private, no-store' },
  });
});
