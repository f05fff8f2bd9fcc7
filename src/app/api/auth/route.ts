import { jsonResponse } from '@/modules/dashboard/dashboard.http';
import { watchlist } from '@/modules/identity/identity.garage';
import { ACCESS_COOKIE, readCookie, requireSignIn } from '@/modules/identity/identity.http';
import { currentUser, SessionError } from '@/modules/identity/identity.sessions';
import { leadRoute } from '@/modules/leads/leads.http';

export const dynamic = 'force-dynamic';

/** GET /api/auth (SPEC §7) → {user, watchlist}; user null when signed out or the session has ended. */
export const GET = leadRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const token = readCookie(request, ACCESS_COOKIE);
  if (!token) return jsonResponse({ user: null, watchlist: [] }, { headers: { 'Cache-Control': 'private, no-store' } });
  try {
    const user = await currentUser(tenant, token);
    return jsonResponse({ user, watchlist: await watchlist(tenant, user.id) }, { headers: { 'Cache-Control': 'private, no-store' } });
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    return jsonResponse({ user: null, watchlist: [], error: error.reason }, { headers: { 'Cache-Control': 'private, no-store' } });
  }
});
