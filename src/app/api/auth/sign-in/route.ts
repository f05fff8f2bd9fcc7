import { readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { watchlist } from '@/modules/identity/identity.garage';
import { requireSignIn, sessionCookies, withCookies } from '@/modules/identity/identity.http';
import { signInFormCookie, signInWithCode } from '@/modules/identity/identity.sign-in';
import { verifyCodeSchema } from '@/modules/identity/identity.validation';

export const dynamic = 'force-dynamic';

/** POST /api/auth/sign-in {phone, code} → {user, watchlist, expires_at}; the session in httpOnly cookies. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const input = parseWith(verifyCodeSchema, await readJsonBody(request, 4 * 1024));
  const { customerId, session } = await signInWithCode(tenant, input);
  // A code asked for by the plain form (before the scripts ran) leaves its state behind: signed in, it is done.
  const cookies = [...sessionCookies(request, session), signInFormCookie(request, null)];
  return withCookies({ user: session.user, watchlist: await watchlist(tenant, customerId), expires_at: session.expires_at, expires_in: session.expires_in }, cookies);
});
