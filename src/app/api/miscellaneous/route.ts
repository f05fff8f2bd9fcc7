import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { submitMeta } from '@/modules/leads/leads.http';
import { saveMiscellaneous } from '@/modules/leads/leads.valuations';
import { miscellaneousRequestSchema } from '@/modules/leads/server';

export const dynamic = 'force-dynamic';

/**
 * POST /api/miscellaneous {valuation_id?, column_name, data:{…}} → {id, token} of the valuation: a new
 * one without valuation_id, else the named one, with its token in X-Edit-Token.
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const input = parseWith(miscellaneousRequestSchema, await readJsonBody(request, 64 * 1024));
  return jsonResponse(await saveMiscellaneous(tenant, input, submitMeta(request)), { headers: { 'Cache-Control': 'no-store' } });
});
