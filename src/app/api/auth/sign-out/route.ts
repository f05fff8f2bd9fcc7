import { z } from 'zod';
import { readJsonBody, visitorRoute, parseWith, hasBody } from '@/lib/http';
import { ACCESS_COOKIE, clearedCookies, readCookie, requireSignIn, withCookies } from '@/modules/identity/identity.http';
import { SessionError, signOut } from '@/modules/identity/identity.sessions';
import { AUTH_EVENTS, recordAuthEvent } from '@/modules/identity/identity.codes';

export const dynamic = 'force-dynamic';

const bodySchema = z.strictObject({ scope: z.enum(['global', 'local', 'others']).default('local') });

/** POST /api/auth/sign-out {scope: global|local|others} (SPEC §5); 'others' keeps this browser signed in. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  requireSignIn(tenant);
  const { scope } = parseWith(bodySchema, hasBody(request) ? await readJsonBody(request, 1024) : {});
  const token = readCookie(request, ACCESS_COOKIE);
  try {
    if (token) {
      await signOut(tenant, token, scope);
      await recordAuthEvent(tenant, AUTH_EVENTS.signedOut, { scope });
    }
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
  }
  return withCookies({ ok: true }, scope === 'others' ? [] : clearedCookies(request));
});
