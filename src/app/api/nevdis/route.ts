import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { lookupVehicle } from '@/modules/vehicles/vehicles.service';
import { vehicleLookupSchema } from '@/modules/vehicles/vehicles.validation';

export const dynamic = 'force-dynamic';

/** POST /api/nevdis {rego, state} or {vin} → {vehicle, message}: the vehicle as far as known, or what to do instead. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const input = parseWith(vehicleLookupSchema, await readJsonBody(request, 4 * 1024));
  return jsonResponse(await lookupVehicle(tenant, input, clientAddress(request)), { headers: { 'Cache-Control': 'no-store' } });
});
