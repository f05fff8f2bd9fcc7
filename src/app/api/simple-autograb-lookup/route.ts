import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { estimateVehicle } from '@/modules/vehicles/vehicles.service';
import { estimateRequestSchema } from '@/modules/vehicles/vehicles.validation';

export const dynamic = 'force-dynamic';

/**
 * POST /api/simple-autograb-lookup {make, model, year, km, state?, vin?} → the estimate: retail and
 * trade-in ranges and the comparables used, or {ok: false, reason: 'not enough data'}.
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const input = parseWith(estimateRequestSchema, await readJsonBody(request, 4 * 1024));
  return jsonResponse(await estimateVehicle(tenant, input, clientAddress(request)), { headers: { 'Cache-Control': 'no-store' } });
});
