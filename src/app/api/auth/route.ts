import { jsonResponse, visitorRoute } from '@/lib/http';
import { signedInState } from '@/modules/identity/identity.garage';
import { ACCESS_COOKIE, readCookie, requireSignIn } from '@/modules/identity/identity.http';
import { SessionError, verifyAccessToken } from '@/modules/identity/identity.sessions';

export const dynamic = 'force-dynamic';

// Not no-store: Chrome keeps no page that fetched a no-store answer in its back/forward cache, and
// every car and search page asks this. Private and revalidated each time, it is never shared or reused.
const PRIVATE = { 'Cache-Control': 'private, no-cache' };

/** GET /api/auth (SPEC §7) → {user, watchlist, expires_at}; user null when signed out, expired (error 'expired': refresh) or ended. */
export const GET = visitorRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const token = readCookie(request, ACCESS_COOKIE);
  if (!token) return jsonResponse({ user: null, watchlist: [] }, { headers: PRIVATE });
  try {
    const { customerId, familyId, expiresAt } = await verifyAccessToken(tenant, token);
    const state = await signedInState(tenant, customerId, familyId);
    if (!state) throw new SessionError('revoked');
    return jsonResponse({ ...state, expires_at: expiresAt }, { headers: PRIVATE });
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    return jsonResponse({ user: null, watchlist: [], error: error.reason }, { headers: PRIVATE });
  }
});
