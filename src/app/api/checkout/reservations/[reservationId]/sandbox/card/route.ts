import { clientAddress } from '@/lib/client-address';
import { readJsonBody } from '@/lib/http';
import { payWithSandboxCard } from '@/modules/checkout/checkout.commands';
import { checkoutRoute, reservationIdOf, reservationResponse, reservationTokenOf } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

/**
 * POST /api/checkout/reservations/{id}/sandbox/card {card:{number, exp_month, exp_year, cvc}} with X-Reservation-Token
 * → 200 {reservation, next_action} (next_action: the confirmation step of the authentication test card),
 * 402 {error, reservation} when declined. Only where the sandbox provider is allowed.
 */
export const POST = checkoutRoute<{ reservationId: string }>(async ({ request, tenant, params }) => {
  const id = reservationIdOf(params);
  const result = await payWithSandboxCard(tenant, id, reservationTokenOf(request), await readJsonBody(request, 4 * 1024), clientAddress(request));
  if (result.declined) return reservationResponse(tenant, result.reservation, { error: result.declined, fields: { 'card.number': result.declined } }, 402);
  return reservationResponse(tenant, result.reservation, { next_action: result.nextAction });
});
