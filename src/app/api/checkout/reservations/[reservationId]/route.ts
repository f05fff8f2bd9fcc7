import { getReservation } from '@/modules/checkout/checkout.commands';
import { checkoutRoute, reservationIdOf, reservationResponse, reservationTokenOf } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

/** GET /api/checkout/reservations/{id} with X-Reservation-Token → {reservation} (asks the provider while the payment is pending). */
export const GET = checkoutRoute<{ reservationId: string }>(async ({ request, tenant, params }) => {
  const row = await getReservation(tenant, reservationIdOf(params), reservationTokenOf(request), { sync: true });
  return reservationResponse(tenant, row);
});
