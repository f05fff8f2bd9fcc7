import { readFormFields, ValidationError, visitorRoute, parseWith } from '@/lib/http';
import { createLead } from '@/modules/leads/leads.commands';
import { getLeadSite, leadRequestSchema, normaliseCategory, successPath, successSlug } from '@/modules/leads/server';
import { refusedForm, REFUSED_LEAD_FORM_COOKIE, refusedFormCookieValue, REFUSED_FORM_SECONDS, REFUSED_FORM_ANCHOR } from '@/modules/leads/leads.refused-form';
import { submitMeta } from '@/modules/leads/leads.http';
import { leadFromPlainForm, PLAIN_FORM } from '@/modules/leads/leads.plain-form';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import { cookie, secureCookies } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const MAX_FORM_BYTES = 32 * 1024;

const seeOther = (location: string, setCookie: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Set-Cookie': setCookie } });

/** The page the form was on: the same-site Referer (the platform sends it: strict-origin-when-cross-origin). */
function formPage(request: Request): URL | null {
  try {
    const url = new URL(request.headers.get('referer') ?? '');
    // The path also becomes the cookie's Path: nothing that could end the attribute.
    return url.host === request.headers.get('host') && /^\/[\w\-./%~]*$/.test(url.pathname) ? url : null;
  } catch {
    return null;
  }
}

/**
 * POST /api/leads/form: a lead form posted without JavaScript (decision 060) → 303 to the success
 * page; a refused post → 303 back to the form's page, which shows what was typed with each field's
 * message (leads.refused-form.ts). The same rules and the same lead as POST /api/leads.
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const meta = submitMeta(request);
  const form = await readFormFields(request, MAX_FORM_BYTES);
  const page = formPage(request);
  const lead = leadFromPlainForm(form, await getLeadSite(tenant), page?.href ?? null);
  const path = page?.pathname ?? '/';
  const secure = secureCookies(request);
  try {
    const parsed = parseWith(leadRequestSchema(phoneRuleFor(tenant.config)), { lead });
    await createLead(tenant, parsed.lead, meta);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const refused = refusedForm(form, error.fields ?? {}, { formKey: form[PLAIN_FORM.form] ?? '' });
    const kept = cookie(REFUSED_LEAD_FORM_COOKIE, refusedFormCookieValue(refused), REFUSED_FORM_SECONDS, secure, path);
    return seeOther(`${path}${page?.search ?? ''}#${REFUSED_FORM_ANCHOR}`, kept);
  }
  const category = normaliseCategory(String(lead.category ?? '')).category;
  const carId = typeof lead.car_id === 'number' ? lead.car_id : null;
  return seeOther(successPath(successSlug(form[PLAIN_FORM.carType] || null, category), { car_id: carId, form: form[PLAIN_FORM.successForm] }), cookie(REFUSED_LEAD_FORM_COOKIE, '', 0, secure, path));
}, { accepted: ['form'] });
