import { jsonResponse, readJsonBody } from '@/modules/dashboard/dashboard.http';
import { leadRoute, parseWith } from '@/modules/leads/leads.http';
import { createValuation, updateValuation } from '@/modules/leads/leads.valuations';
import { valuationRequestSchema } from '@/modules/leads/leads.validation';

export const dynamic = 'force-dynamic';

const MAX_BODY_BYTES = 64 * 1024;

/** POST /api/valuations {valuation:{…}} → 201 {id}. */
export const POST = leadRoute(async ({ request, tenant }) => {
  const { valuation } = parseWith(valuationRequestSchema, await readJsonBody(request, MAX_BODY_BYTES));
  return jsonResponse({ id: await createValuation(tenant, valuation) }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});

/** PUT /api/valuations {valuation:{id, …}} → {id}. */
export const PUT = leadRoute(async ({ request, tenant }) => {
  const { valuation } = parseWith(valuationRequestSchema, await readJsonBody(request, MAX_BODY_BYTES));
  return jsonResponse({ id: await updateValuation(tenant, valuation) }, { headers: { 'Cache-Control': 'no-store' } });
});
