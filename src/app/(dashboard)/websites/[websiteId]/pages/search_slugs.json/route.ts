import { z } from 'zod';
import { dealerRoute, parseParams, pathIdSchema, versionedResponse } from '@/lib/http';
import { getDashboardSearchSlugs } from '@/modules/dashboard/dashboard.service';

// Dashboard API (SPEC §7): /websites/{websiteId}/pages/search_slugs.json.
export const dynamic = 'force-dynamic';

type Params = { websiteId: string };
const paramsSchema = z.object({ websiteId: pathIdSchema });

export const GET = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { websiteId } = parseParams(paramsSchema, params);
  const lookup = await getDashboardSearchSlugs(principal, websiteId);
  return versionedResponse(request, lookup.value, lookup.etag);
});
