import { readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { phoneVerificationCookie, withCookies } from '@/modules/identity/identity.http';
import { verifyPhoneCode } from '@/modules/identity/identity.codes';
import { verifyCodeSchema } from '@/modules/identity/identity.validation';

export const dynamic = 'force-dynamic';

/** POST /api/phone-codes/verify {phone, code} → {ok, verified} and the one-time verification cookie a finance application uses up; a wrong code 422 with SPEC §8's message. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const input = parseWith(verifyCodeSchema, await readJsonBody(request, 4 * 1024));
  const { verificationToken } = await verifyPhoneCode(tenant, input);
  return withCookies({ ok: true, verified: true }, [phoneVerificationCookie(request, verificationToken)]);
});
