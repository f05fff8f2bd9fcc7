import { clientAddress } from '@/lib/client-address';
import { jsonResponse, readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { sendPhoneCode } from '@/modules/identity/identity.codes';
import { sendCodeSchema } from '@/modules/identity/identity.validation';

export const dynamic = 'force-dynamic';

/** POST /api/phone-codes {phone, first_name?, last_name?, email?} → {ok, resend_after}: a 6-digit code by SMS. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const input = parseWith(sendCodeSchema, await readJsonBody(request, 4 * 1024));
  const { resendAfterSeconds } = await sendPhoneCode(tenant, input, clientAddress(request));
  return jsonResponse({ ok: true, resend_after: resendAfterSeconds }, { headers: { 'Cache-Control': 'no-store' } });
});
