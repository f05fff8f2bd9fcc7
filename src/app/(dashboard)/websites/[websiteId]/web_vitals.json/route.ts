import { z } from 'zod';
import { dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { reportRange } from '@/modules/dashboard/dashboard.range';
import { dashboardTenant } from '@/modules/dashboard/dashboard.service';
import { vitalsReport } from '@/modules/widgets/widgets.vitals.queries';

// Dashboard API: GET /websites/{id}/web_vitals.json?from=YYYY-MM-DD&to=YYYY-MM-DD — the website's
// real-visitor Core Web Vitals (decision 058): LCP, INP, CLS, FCP and TTFB as the 75th percentile
// of its visitors' page views, with the number of page views and Google's rating, in total, per
// page type and per local day. Default: the last 30 days to today; at most 366 days.
export const dynamic = 'force-dynamic';

type Params = { websiteId: string };
const paramsSchema = z.object({ websiteId: pathIdSchema });

export const GET = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { websiteId } = parseParams(paramsSchema, params);
  const tenant = await dashboardTenant(principal, websiteId);
  const { from, to } = reportRange(request, tenant);
  return jsonResponse(await vitalsReport(tenant, from, to), { headers: { 'Cache-Control': 'private, no-store' } });
});
