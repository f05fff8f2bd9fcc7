import { readJsonBody, visitorRoute, parseWith } from '@/lib/http';
import { AUTH_EVENTS, recordAuthEvent, verifyPhoneCode } from '@/modules/identity/identity.codes';
import { watchlist } from '@/modules/identity/identity.garage';
import { requireSignIn, sessionCookies, withCookies } from '@/modules/identity/identity.http';
import { findOrCreateCustomer, startSession } from '@/modules/identity/identity.sessions';
import { verifyCodeSchema } from '@/modules/identity/identity.validation';

export const dynamic = 'force-dynamic';

/** POST /api/auth/sign-in {phone, code} → {user, watchlist, expires_at}; the session in httpOnly cookies. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const input = parseWith(verifyCodeSchema, await readJsonBody(request, 4 * 1024));
  const { phone, metadata } = await verifyPhoneCode(tenant, input);
  const customer = await findOrCreateCustomer(tenant, phone, metadata);
  const session = await startSession(tenant, customer);
  await recordAuthEvent(tenant, AUTH_EVENTS.signedIn, { customer_id: customer.id });
  return withCookies({ user: session.user, watchlist: await watchlist(tenant, customer.id), expires_at: session.expires_at, expires_in: session.expires_in }, sessionCookies(request, session));
});
