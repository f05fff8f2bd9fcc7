import { z } from 'zod';
import { dealerRoute, jsonSegmentSchema, parseParams, parseQueryId, versionedResponse } from '@/lib/http';
import { getDashboardManufacturer } from '@/modules/dashboard/dashboard.service';

// Dashboard API (SPEC §7): /manufacturers/{slug}.json?website_id={id}.
export const dynamic = 'force-dynamic';

type Params = { slug: string };
const paramsSchema = z.object({ slug: jsonSegmentSchema });

export const GET = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { slug } = parseParams(paramsSchema, params);
  const websiteId = parseQueryId(new URL(request.url).searchParams.get('website_id'), 'website_id');
  const lookup = await getDashboardManufacturer(principal, websiteId, slug);
  return versionedResponse(request, lookup.value, lookup.etag);
});
