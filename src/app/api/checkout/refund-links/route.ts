import { readFormFields, ValidationError, visitorRoute } from '@/lib/http';
import { redeemRefundLink } from '@/modules/checkout/checkout.commands';
import { REFUND_LINK_PATH } from '@/modules/checkout/checkout.refund-link';

export const dynamic = 'force-dynamic';

const MAX_FORM_BYTES = 4 * 1024;

/**
 * POST /api/checkout/refund-links (form field token): the refund link's confirmation page's button
 * (issue 31). Same-site form posts only (visitorRoute: a cross-site Origin or Sec-Fetch-Site is 403).
 * Refunds through the Dashboard API's command, once, then 303 back to the link's page, which says
 * what happened; a spent, expired, altered or other website's link refunds nothing.
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const token = (await readFormFields(request, MAX_FORM_BYTES)).token?.trim() ?? '';
  if (!token) throw new ValidationError({ token: '*This is a required field.' });
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) || token.length > 2000) throw new ValidationError({ token: 'is not a refund link' });
  const outcome = await redeemRefundLink(tenant, token);
  return new Response(null, { status: 303, headers: { Location: `${REFUND_LINK_PATH}/${token}?outcome=${outcome}`, 'Cache-Control': 'no-store' } });
}, { accepted: ['form'] });
