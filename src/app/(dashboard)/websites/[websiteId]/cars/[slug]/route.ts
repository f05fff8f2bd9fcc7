import { z } from 'zod';
import { dealerRoute, jsonResponse, versionedResponse, jsonSegmentSchema, parseParams, pathIdSchema, readJsonBody } from '@/lib/http';
import { deleteDashboardCar, getDashboardCar, putDashboardCar } from '@/modules/dashboard/dashboard.service';

// Dashboard API (SPEC §7): /websites/{websiteId}/cars/{slug}.json, on any host.
export const dynamic = 'force-dynamic';

type Params = { websiteId: string; slug: string };
const paramsSchema = z.object({ websiteId: pathIdSchema, slug: jsonSegmentSchema });

export const GET = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { websiteId, slug } = parseParams(paramsSchema, params);
  const lookup = await getDashboardCar(principal, websiteId, slug);
  return versionedResponse(request, lookup.value, lookup.etag);
});

/** Creates (201) or replaces (200) the car; the body is the car JSON. */
export const PUT = dealerRoute<Params>(async ({ request, params, principal }) => {
  const { websiteId, slug } = parseParams(paramsSchema, params);
  const result = await putDashboardCar(principal, websiteId, slug, () => readJsonBody(request));
  return jsonResponse(result.car, {
    status: result.created ? 201 : 200,
    headers: { ETag: result.etag, 'Cache-Control': 'private, max-age=0, must-revalidate' },
  });
});

/** Withdraws the car from the website (show_on_dealer_website false): 204. */
export const DELETE = dealerRoute<Params>(async ({ params, principal }) => {
  const { websiteId, slug } = parseParams(paramsSchema, params);
  await deleteDashboardCar(principal, websiteId, slug);
  return new Response(null, { status: 204 });
});
