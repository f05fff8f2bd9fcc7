import { jsonResponse, readBodyBytes, visitorRoute, parseWith } from '@/lib/http';
import { createLead } from '@/modules/leads/leads.commands';
import { MAX_UPLOAD_BYTES, parseLeadUpload } from '@/modules/leads/leads.files';
import { submitMeta } from '@/modules/leads/leads.http';
import { leadRequestSchema } from '@/modules/leads/server';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';

export const dynamic = 'force-dynamic';

/** POST /api/leads/with-files: multipart with a `lead` JSON field and up to 5 photo/PDF files → {id}. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const meta = submitMeta(request);
  const { lead, files } = await parseLeadUpload(await readBodyBytes(request, MAX_UPLOAD_BYTES), request.headers.get('content-type'));
  const { lead: payload } = parseWith(leadRequestSchema(phoneRuleFor(tenant.config)), { lead });
  const result = await createLead(tenant, payload, meta, files);
  return jsonResponse({ id: result.id, token: result.token }, { status: result.replayed ? 200 : 201, headers: { 'Cache-Control': 'no-store' } });
}, { accepted: ['multipart'] });
