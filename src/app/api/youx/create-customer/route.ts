import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody } from '@/modules/dashboard/dashboard.http';
import { createFinanceCustomer } from '@/modules/finance/finance.service';
import { leadRoute, submitMeta } from '@/modules/leads/leads.http';

export const dynamic = 'force-dynamic';

/** POST /api/youx/create-customer {data, additionalData} → {redirectUrl}: the applicant to the dealership's finance partner. */
export const POST = leadRoute(async ({ request, tenant }) => {
  const { idempotencyKey } = submitMeta(request);
  const answer = await createFinanceCustomer(tenant, await readJsonBody(request, 16 * 1024), { ip: clientAddress(request), idempotencyKey });
  return jsonResponse(answer, { headers: { 'Cache-Control': 'no-store' } });
});
