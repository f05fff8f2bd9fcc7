import { jsonResponse, readJsonBody } from '@/modules/dashboard/dashboard.http';
import { leadRoute, parseWith } from '@/modules/leads/leads.http';
import { saveMiscellaneous } from '@/modules/leads/leads.valuations';
import { miscellaneousRequestSchema } from '@/modules/leads/leads.validation';

export const dynamic = 'force-dynamic';

/** POST /api/miscellaneous {valuation_id?, column_name, data:{…}} → {id} of the valuation. */
export const POST = leadRoute(async ({ request, tenant }) => {
  const input = parseWith(miscellaneousRequestSchema, await readJsonBody(request, 64 * 1024));
  return jsonResponse({ id: await saveMiscellaneous(tenant, input) }, { headers: { 'Cache-Control': 'no-store' } });
});
