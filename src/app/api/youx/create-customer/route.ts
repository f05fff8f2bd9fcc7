import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody, visitorRoute } from '@/lib/http';
import { createFinanceCustomer } from '@/modules/finance/finance.service';
import { PHONE_VERIFICATION_COOKIE, readCookie } from '@/modules/identity/identity.http';
import { submitMeta } from '@/modules/leads/leads.http';

export const dynamic = 'force-dynamic';

/** POST /api/youx/create-customer {data, additionalData} → {redirectUrl}: the applicant to the dealership's finance partner. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const { idempotencyKey } = submitMeta(request);
  const answer = await createFinanceCustomer(tenant, await readJsonBody(request, 16 * 1024), { ip: clientAddress(request), idempotencyKey, verificationToken: readCookie(request, PHONE_VERIFICATION_COOKIE) });
  return jsonResponse(answer, { headers: { 'Cache-Control': 'no-store' } });
});
