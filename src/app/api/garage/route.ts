import { z } from 'zod';
import { dbIdSchema, jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { saveCars, watchlist } from '@/modules/identity/identity.garage';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({ car_ids: z.array(dbIdSchema).min(1).max(200) });

/**
 * POST /api/garage {car_ids: [...]} → {watchlist}: saves cars (one from a heart, or those kept in
 * the browser before sign-in, merged). Cars the website does not list are left out.
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  const { car_ids } = parseWith(bodySchema, await readJsonBody(request, 8 * 1024));
  await saveCars(tenant, customerId, car_ids);
  return jsonResponse({ watchlist: await watchlist(tenant, customerId) }, { headers: { 'Cache-Control': 'private, no-store' } });
});
