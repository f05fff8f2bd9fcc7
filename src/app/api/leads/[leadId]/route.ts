import { NotFoundError, jsonResponse, readBodyBytes, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { MAX_UPLOAD_BYTES, parseLeadUpload } from '@/modules/leads/leads.files';
import { updateLead } from '@/modules/leads/leads.commands';
import { submitMeta } from '@/modules/leads/leads.http';
import { leadIdSchema, leadRequestSchema } from '@/modules/leads/server';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';

export const dynamic = 'force-dynamic';

const MAX_LEAD_BODY_BYTES = 64 * 1024;

/**
 * PUT /api/leads/{lead_id} {lead:{…}}: a later step of a multi-step form → {id}. Another website's
 * lead is 404. A step with files (trade-in photos) is multipart, as POST /api/leads/with-files.
 */
export const PUT = visitorRoute<{ leadId: string }>(async ({ request, tenant, params }) => {
  const leadId = leadIdSchema.safeParse(params.leadId);
  if (!leadId.success) throw new NotFoundError();
  const meta = submitMeta(request);
  const contentType = request.headers.get('content-type');
  const { lead: body, files } = /^multipart\/form-data/i.test(contentType ?? '')
    ? await parseLeadUpload(await readBodyBytes(request, MAX_UPLOAD_BYTES), contentType)
    : { lead: ((await readJsonBody(request, MAX_LEAD_BODY_BYTES)) as { lead?: unknown } | null)?.lead, files: [] };
  const { lead } = parseWith(leadRequestSchema(phoneRuleFor(tenant.config), 'update'), { lead: body });
  const result = await updateLead(tenant, leadId.data.toLowerCase(), lead, meta, files);
  return jsonResponse({ id: result.id }, { headers: { 'Cache-Control': 'no-store' } });
}, { accepted: ['json', 'multipart'] });
