import { z } from 'zod';
import { NotFoundError, dealerRoute, jsonResponse, parseParams, pathIdSchema } from '@/lib/http';
import { refundReservation } from '@/modules/checkout/checkout.commands';
import { dealerReservationJson } from '@/modules/checkout/checkout.queries';

// Dashboard API: POST /dealerships/{id}/reservations/{reservation}/refund — cancel the hold or refund the deposit; the car goes back in stock.
export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: pathIdSchema, reservationId: z.uuid() });

export const POST = dealerRoute<{ id: string; reservationId: string }>(async ({ params, principal }) => {
  const { id, reservationId } = parseParams(paramsSchema, params);
  if (id !== principal.dealershipId) throw new NotFoundError();
  const row = await refundReservation(principal.websiteId, id, reservationId.toLowerCase());
  return jsonResponse({ reservation: dealerReservationJson(row) });
});
