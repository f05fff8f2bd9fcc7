import { jsonResponse } from '@/modules/dashboard/dashboard.http';
import { signedInState } from '@/modules/identity/identity.garage';
import { ACCESS_COOKIE, readCookie, requireSignIn } from '@/modules/identity/identity.http';
import { SessionError, verifyAccessToken } from '@/modules/identity/identity.sessions';
import { leadRoute } from '@/modules/leads/leads.http';

export const dynamic = 'force-dynamic';

/** GET /api/auth (SPEC §7) → {user, watchlist, expires_at}; user null when signed out, expired (error 'expired': refresh) or ended. */
export const GET = leadRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const token = readCookie(request, ACCESS_COOKIE);
  if (!token) return jsonResponse({ user: null, watchlist: [] }, { headers: { 'Cache-Control': 'private, no-store' } });
  try {
    const { customerId, familyId, expiresAt } = await verifyAccessToken(tenant, token);
    const state = await signedInState(tenant, customerId, familyId);
    if (!state) throw new SessionError('revoked');
    return jsonResponse({ ...state, expires_at: expiresAt }, { headers: { 'Cache-Control': 'private, no-store' } });
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    return jsonResponse({ user: null, watchlist: [], error: error.reason }, { headers: { 'Cache-Control': 'private, no-store' } });
  }
});
