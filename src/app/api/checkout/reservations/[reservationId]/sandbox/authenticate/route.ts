import { clientAddress } from '@/lib/client-address';
import { readJsonBody } from '@/lib/http';
import { authenticateSandboxCard } from '@/modules/checkout/checkout.commands';
import { checkoutRoute, reservationIdOf, reservationResponse, reservationTokenOf } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

/** POST /api/checkout/reservations/{id}/sandbox/authenticate {action_token, outcome: 'approve'|'fail'} → {reservation}, 402 when it failed. */
export const POST = checkoutRoute<{ reservationId: string }>(async ({ request, tenant, params }) => {
  const id = reservationIdOf(params);
  const result = await authenticateSandboxCard(tenant, id, reservationTokenOf(request), await readJsonBody(request, 4 * 1024), clientAddress(request));
  if (result.declined) return reservationResponse(tenant, result.reservation, { error: result.declined }, 402);
  return reservationResponse(tenant, result.reservation);
});
