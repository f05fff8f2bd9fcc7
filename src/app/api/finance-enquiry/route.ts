import { readFormFields } from '@/modules/dashboard/dashboard.http';
import { financeEnquiryFromForm } from '@/modules/finance/finance.enquiry';
import { createLead } from '@/modules/leads/leads.commands';
import { ValidationError } from '@/modules/dashboard/dashboard.errors';
import { leadRoute, parseWith, submitMeta } from '@/modules/leads/leads.http';
import { leadRequestSchema, phoneRuleFor } from '@/modules/leads/leads.validation';
import { successPath } from '@/modules/leads/leads.forms';

export const dynamic = 'force-dynamic';

const MAX_FORM_BYTES = 16 * 1024;

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/**
 * POST /api/finance-enquiry (a plain form post: the finance page without JavaScript) → 303 to the
 * success page; fields that do not pass → 303 back to the form naming them (?invalid=…).
 */
export const POST = leadRoute(async ({ request, tenant }) => {
  const meta = submitMeta(request);
  const lead = financeEnquiryFromForm(await readFormFields(request, MAX_FORM_BYTES), tenant.slug);
  try {
    const parsed = parseWith(leadRequestSchema(phoneRuleFor(tenant.config)), { lead });
    await createLead(tenant, parsed.lead, meta);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const back = new URLSearchParams({ invalid: Object.keys(error.fields ?? {}).map((key) => key.replace(/^lead\./, '')).join(',') });
    if (typeof lead.car_id === 'number') back.set('car_id', String(lead.car_id));
    return seeOther(`/finance?${back.toString()}#finance-form`);
  }
  return seeOther(successPath('finance-enquiry'));
}, ['form']);
