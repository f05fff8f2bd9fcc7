import { NotFoundError } from '@/modules/dashboard/dashboard.errors';
import { jsonResponse, readJsonBody } from '@/modules/dashboard/dashboard.http';
import { updateLead } from '@/modules/leads/leads.commands';
import { leadRoute, parseWith, submitMeta } from '@/modules/leads/leads.http';
import { leadIdSchema, leadRequestSchema, phoneRuleFor } from '@/modules/leads/leads.validation';

export const dynamic = 'force-dynamic';

const MAX_LEAD_BODY_BYTES = 64 * 1024;

/** PUT /api/leads/{lead_id} {lead:{…}}: a later step of a multi-step form → {id}. Another website's lead is 404. */
export const PUT = leadRoute<{ leadId: string }>(async ({ request, tenant, params }) => {
  const leadId = leadIdSchema.safeParse(params.leadId);
  if (!leadId.success) throw new NotFoundError();
  const meta = submitMeta(request);
  const { lead } = parseWith(leadRequestSchema(phoneRuleFor(tenant.config), 'update'), await readJsonBody(request, MAX_LEAD_BODY_BYTES));
  const result = await updateLead(tenant, leadId.data.toLowerCase(), lead, meta);
  return jsonResponse({ id: result.id }, { headers: { 'Cache-Control': 'no-store' } });
});
