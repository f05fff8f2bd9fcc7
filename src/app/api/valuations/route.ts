import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { submitMeta } from '@/modules/leads/leads.http';
import { createValuation, updateValuation } from '@/modules/leads/leads.valuations';
import { valuationRequestSchema } from '@/modules/leads/server';

export const dynamic = 'force-dynamic';

const MAX_BODY_BYTES = 64 * 1024;

/** POST /api/valuations {valuation:{…}} → 201 {id, token}; linking lead_id needs the lead's token in X-Edit-Token. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const { valuation } = parseWith(valuationRequestSchema, await readJsonBody(request, MAX_BODY_BYTES));
  return jsonResponse(await createValuation(tenant, valuation, submitMeta(request)), { status: 201, headers: { 'Cache-Control': 'no-store' } });
});

/** PUT /api/valuations {valuation:{id, …}} with the valuation's token in X-Edit-Token → {id}. */
export const PUT = visitorRoute(async ({ request, tenant }) => {
  const { valuation } = parseWith(valuationRequestSchema, await readJsonBody(request, MAX_BODY_BYTES));
  const { id } = await updateValuation(tenant, valuation, submitMeta(request));
  return jsonResponse({ id }, { headers: { 'Cache-Control': 'no-store' } });
});
