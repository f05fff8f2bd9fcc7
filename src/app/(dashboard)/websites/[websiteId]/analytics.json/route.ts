import { z } from 'zod';
import { dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { reportRange } from '@/modules/dashboard/dashboard.range';
import { dashboardTenant } from '@/modules/dashboard/dashboard.service';
import { countEvents } from '@/modules/widgets/widgets.events.queries';
import { vitalsReport } from '@/modules/widgets/widgets.vitals.queries';
import { alertFigures } from '@/modules/alerts/alerts.figures';

// Dashboard API: GET /websites/{id}/analytics.json?from=YYYY-MM-DD&to=YYYY-MM-DD — the website's
// analytics events per day and event id (its own time zone), totals, car page views per car,
// leads per source, and its real-visitor web vitals (p75 per metric, in total and per page type;
// per day in web_vitals.json), and its visitors' alerts (messages, what they told of, leads after one).
// Default: the last 30 days to today; at most 366 days.
export const dynamic = 'force-dynamic';

type Params = { websiteId: string };
const paramsSchema = z.object({ websiteId: pathIdSchema });

export const GET = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { websiteId } = parseParams(paramsSchema, params);
  const tenant = await dashboardTenant(principal, websiteId);
  const { from, to } = reportRange(request, tenant);
  const [counts, vitals, alerts] = await Promise.all([countEvents(tenant, from, to), vitalsReport(tenant, from, to), alertFigures(tenant, from, to)]);
  const web_vitals = { page_views: vitals.page_views, metrics: vitals.metrics, page_types: vitals.page_types };
  return jsonResponse({ ...counts, web_vitals, alerts }, { headers: { 'Cache-Control': 'private, no-store' } });
});
