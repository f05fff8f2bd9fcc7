import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody } from '@/lib/http';
import { submitMeta } from '@/modules/leads/leads.http';
import { startReservation } from '@/modules/checkout/checkout.commands';
import { originOf } from '@/lib/http';
import { checkoutRoute } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

/**
 * POST /api/checkout/reservations {car_id, kind?, visitor:{name, last_name?, email, phone, postcode}, terms_accepted: true, choices?}
 * → 201 {reservation, token, payment} (200 for a repeated Idempotency-Key). Later requests present
 * the token in X-Reservation-Token. Choices naming a partial lead (choices.lead_id) present its edit
 * token in X-Edit-Token. Refused: 409 {error, similar_cars}.
 */
export const POST = checkoutRoute(async ({ request, tenant }) => {
  const { idempotencyKey, editToken } = submitMeta(request);
  const meta = { ip: clientAddress(request), idempotencyKey, origin: originOf(tenant, request), leadToken: editToken };
  const result = await startReservation(tenant, await readJsonBody(request, 16 * 1024), meta);
  return jsonResponse({ reservation: result.reservation, token: result.token, payment: result.payment }, { status: result.replayed ? 200 : 201, headers: { 'Cache-Control': 'no-store' } });
});
