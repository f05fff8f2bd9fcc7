import { clientAddress } from '@/lib/client-address';
import { jsonResponse } from '@/lib/http';
import { checkoutRoute } from '@/modules/checkout/checkout.http';
import { checkDeliveryPostcode } from '@/modules/checkout/checkout.journey';

export const dynamic = 'force-dynamic';

/**
 * GET /api/checkout/delivery?postcode={postcode} → 200 {postcode} when the website delivers there
 * (a postcode of its country that the postcode data knows); 422 {error, fields: {postcode}} with
 * the postcode's own message otherwise. The online purchase's delivery step asks before it is saved.
 */
export const GET = checkoutRoute(async ({ request, tenant }) => {
  const postcode = new URL(request.url).searchParams.get('postcode') ?? '';
  const result = await checkDeliveryPostcode(tenant, postcode, clientAddress(request));
  return jsonResponse(result, { headers: { 'Cache-Control': 'no-store' } });
});
