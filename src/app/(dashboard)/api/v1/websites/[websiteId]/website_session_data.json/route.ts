import { z } from 'zod';
import { dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { getDashboardSessionData } from '@/modules/dashboard/dashboard.service';

// Dashboard API (SPEC §7): /api/v1/websites/{websiteId}/website_session_data.json.
export const dynamic = 'force-dynamic';

type Params = { websiteId: string };
const paramsSchema = z.object({ websiteId: pathIdSchema });

export const GET = dealerRoute<Params>(async ({ params, principal }) => {
  const { websiteId } = parseParams(paramsSchema, params);
  return jsonResponse(await getDashboardSessionData(principal, websiteId), {
    headers: { 'Cache-Control': 'private, no-store' },
  });
});
