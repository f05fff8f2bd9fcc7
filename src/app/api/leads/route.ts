import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { createLead } from '@/modules/leads/leads.commands';
import { submitMeta } from '@/modules/leads/leads.http';
import { leadRequestSchema } from '@/modules/leads/server';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';

export const dynamic = 'force-dynamic';

const MAX_LEAD_BODY_BYTES = 64 * 1024;

/**
 * POST /api/leads {lead:{…}} → 201 {id, token} (200 when the Idempotency-Key was seen before). Later
 * steps present the token in X-Edit-Token.
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const meta = submitMeta(request);
  const { lead } = parseWith(leadRequestSchema(phoneRuleFor(tenant.config)), await readJsonBody(request, MAX_LEAD_BODY_BYTES));
  const result = await createLead(tenant, lead, meta);
  return jsonResponse({ id: result.id, token: result.token }, { status: result.replayed ? 200 : 201, headers: { 'Cache-Control': 'no-store' } });
});
