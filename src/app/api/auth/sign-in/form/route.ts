import { clientAddress } from '@/lib/client-address';
import { HttpError, parseWith, readFormFields, visitorRoute } from '@/lib/http';
import { sendPhoneCode } from '@/modules/identity/identity.codes';
import { requireSignIn, sessionCookies } from '@/modules/identity/identity.http';
import { signInFormCookie, signInNext, signInWithCode, type SignInFormState } from '@/modules/identity/identity.sign-in';
import { sendCodeSchema, verifyCodeSchema } from '@/modules/identity/identity.validation';

export const dynamic = 'force-dynamic';

function seeOther(location: string, cookies: string[]): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const value of cookies) headers.append('Set-Cookie', value);
  return new Response(null, { status: 303, headers });
}

/** A refusal the visitor can act on (a field, a wrong code, a limit) goes back to the form; anything else is the route's 5xx. */
function refusal(error: unknown): HttpError {
  if (error instanceof HttpError && error.status < 500) return error;
  throw error;
}

/**
 * POST /api/auth/sign-in/form (phone, code, step, next): the sign-in form posted as a plain form,
 * before the page's scripts ran or without them (decision 060). step=send (or resend) texts a code
 * as POST /api/phone-codes does; step=verify signs in as POST /api/auth/sign-in does and goes on
 * to `next`. Either way back to /sign-in with where the visitor stands when it could not go on.
 */
export const POST = visitorRoute(
  async ({ request, tenant }) => {
    requireSignIn(tenant);
    const fields = await readFormFields(request, 4 * 1024);
    const next = signInNext(tenant, fields.next);
    const phone = (fields.phone ?? '').slice(0, 40);
    const back = (state: SignInFormState) => seeOther(`/sign-in?next=${encodeURIComponent(next)}`, [signInFormCookie(request, state)]);

    if (fields.step !== 'verify') {
      let resendAfterSeconds: number;
      try {
        ({ resendAfterSeconds } = await sendPhoneCode(tenant, parseWith(sendCodeSchema, { phone }), clientAddress(request)));
      } catch (error) {
        const refused = refusal(error);
        // A resend refused (too soon, too many) leaves the code already sent standing.
        const sent = fields.step === 'resend';
        return back({ phone, sent, errors: sent ? { code: refused.message } : { phone: refused.fields?.phone ?? refused.message } });
      }
      return back({ phone, sent: true, errors: {}, resendAt: Date.now() + resendAfterSeconds * 1000 });
    }

    try {
      const { session } = await signInWithCode(tenant, parseWith(verifyCodeSchema, { phone, code: fields.code ?? '' }));
      return seeOther(next, [...sessionCookies(request, session), signInFormCookie(request, null)]);
    } catch (error) {
      const refused = refusal(error);
      if (refused.fields?.phone) return back({ phone, sent: false, errors: { phone: refused.fields.phone } });
      return back({ phone, sent: true, errors: { code: refused.fields?.code ?? refused.message } });
    }
  },
  { accepted: ['form'] },
);
