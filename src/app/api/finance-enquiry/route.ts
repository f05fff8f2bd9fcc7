import { readFormFields, ValidationError, visitorRoute, parseWith } from '@/lib/http';
import { financeEnquiryFromForm, refusedFinanceForm, refusedFormPath, REFUSED_FORM_COOKIE, REFUSED_FORM_PATH } from '@/modules/finance/finance.enquiry';
import { refusedFormCookieValue, REFUSED_FORM_SECONDS } from '@/modules/leads/leads.refused-form';
import { createLead } from '@/modules/leads/leads.commands';
import { submitMeta } from '@/modules/leads/leads.http';
import { leadRequestSchema, successPath } from '@/modules/leads/server';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import { cookie, secureCookies } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const MAX_FORM_BYTES = 16 * 1024;

const seeOther = (location: string, setCookie?: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', ...(setCookie ? { 'Set-Cookie': setCookie } : {}) } });

/**
 * POST /api/finance-enquiry (a plain form post: the finance page without JavaScript) → 303 to the
 * success page; fields that do not pass → 303 back to the form, which shows what was typed with
 * each field's message (finance.enquiry.ts refusedForm).
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const meta = submitMeta(request);
  const form = await readFormFields(request, MAX_FORM_BYTES);
  const lead = financeEnquiryFromForm(form, tenant.slug);
  try {
    const parsed = parseWith(leadRequestSchema(phoneRuleFor(tenant.config)), { lead });
    await createLead(tenant, parsed.lead, meta);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const refused = refusedFinanceForm(form, error.fields ?? {});
    const kept = cookie(REFUSED_FORM_COOKIE, refusedFormCookieValue(refused), REFUSED_FORM_SECONDS, secureCookies(request), REFUSED_FORM_PATH);
    return seeOther(refusedFormPath(form, lead, refused), kept);
  }
  // Sent: a form kept from an earlier refusal goes.
  return seeOther(successPath('finance-enquiry'), cookie(REFUSED_FORM_COOKIE, '', 0, secureCookies(request), REFUSED_FORM_PATH));
}, { accepted: ['form'] });
