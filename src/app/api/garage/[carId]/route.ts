import { NotFoundError, dbIdSchema, jsonResponse, visitorRoute } from '@/lib/http';
import { removeCar, watchlist } from '@/modules/identity/identity.garage';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

/** DELETE /api/garage/{car_id} → {watchlist}; 404 when the car was not saved. */
export const DELETE = visitorRoute<{ carId: string }>(async ({ request, tenant, params }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  const carId = dbIdSchema.safeParse(params.carId);
  if (!carId.success || !(await removeCar(tenant, customerId, carId.data))) throw new NotFoundError();
  return jsonResponse({ watchlist: await watchlist(tenant, customerId) }, { headers: { 'Cache-Control': 'private, no-store' } });
});
