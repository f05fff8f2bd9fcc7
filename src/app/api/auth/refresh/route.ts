import { clearedCookies, readCookie, REFRESH_COOKIE, requireSignIn, SESSION_MESSAGES, sessionCookies, withCookies } from '@/modules/identity/identity.http';
import { refreshSession, SessionError } from '@/modules/identity/identity.sessions';
import { visitorRoute } from '@/lib/http';

export const dynamic = 'force-dynamic';

/**
 * POST /api/auth/refresh → {expires_at, expires_in}: the refresh cookie exchanged for a new pair.
 * A refused refresh (401) clears the cookies; the browser then removes the session (SPEC §4).
 */
export const POST = visitorRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const token = readCookie(request, REFRESH_COOKIE);
  try {
    if (!token) throw new SessionError('revoked');
    const session = await refreshSession(tenant, token);
    return withCookies({ expires_at: session.expires_at, expires_in: session.expires_in, user: session.user }, sessionCookies(request, session));
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    return withCookies({ error: SESSION_MESSAGES[error.reason], reason: error.reason }, clearedCookies(request), 401);
  }
});
