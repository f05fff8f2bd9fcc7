import 'server-only';
import { NotFoundError, HttpError } from '@/lib/http';
import { normalizeHost, isLoopbackHost } from '@/lib/host';
import type { Tenant } from '../tenancy/tenancy.types';
import { VERIFIED_PHONE_WINDOW_MS } from './identity.codes';
import { currentUser, SESSION_MAX_AGE_SECONDS, SessionError, type IssuedSession } from './identity.sessions';

/** Cookies and errors of the sign-in routes (issue 14). */

export const ACCESS_COOKIE = 'dp_access';
export const REFRESH_COOKIE = 'dp_refresh';

export const SESSION_MESSAGES = {
  invalid: 'Invalid JWT structure',
  expired: 'JWT expired',
  'wrong-website': 'Invalid JWT signature',
  revoked: 'Auth session missing!',
  reused: 'Auth session missing!',
} as const;

/** Sign-in exists only where the website enables it; elsewhere its routes are 404. */
export function requireSignIn(tenant: Tenant): void {
  if (!tenant.config.phoneSignIn.enabled) throw new NotFoundError();
}

export class SessionHttpError extends HttpError {
  constructor(error: SessionError) {
    super(401, SESSION_MESSAGES[error.reason]);
  }
}

export function secureCookies(request: Request): boolean {
  const host = normalizeHost(request.headers.get('host')) ?? '';
  return !(isLoopbackHost(host) || host.endsWith('.localhost'));
}

export function cookie(name: string, value: string, maxAge: number, secure: boolean, path = '/'): string {
  return [`${name}=${value}`, `Path=${path}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])].join('; ');
}

export function sessionCookies(request: Request, session: IssuedSession): string[] {
  const secure = secureCookies(request);
  return [cookie(ACCESS_COOKIE, session.access_token, SESSION_MAX_AGE_SECONDS, secure), cookie(REFRESH_COOKIE, session.refresh_token, SESSION_MAX_AGE_SECONDS, secure)];
}

export function clearedCookies(request: Request): string[] {
  const secure = secureCookies(request);
  return [cookie(ACCESS_COOKIE, '', 0, secure), cookie(REFRESH_COOKIE, '', 0, secure)];
}

/**
 * The one-time token a code check answers (spendPhoneVerification): httpOnly, sent to the APIs only,
 * for as long as a verification stands (15 minutes). The finance application reads it from here.
 */
export const PHONE_VERIFICATION_COOKIE = 'dp_phone_verification';

export function phoneVerificationCookie(request: Request, token: string): string {
  return cookie(PHONE_VERIFICATION_COOKIE, token, VERIFIED_PHONE_WINDOW_MS / 1000, secureCookies(request), '/api');
}

export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=').slice(0, 4096) || null;
  }
  return null;
}

/** A JSON answer with Set-Cookie headers (one each). */
export function withCookies(body: unknown, cookies: string[], status = 200): Response {
  const headers = new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  for (const value of cookies) headers.append('Set-Cookie', value);
  return new Response(JSON.stringify(body), { status, headers });
}

/** The signed-in customer of a garage request: 404 where the garage is off, 401 when signed out. */
export async function requireGarageCustomer(tenant: Tenant, request: Request): Promise<string> {
  if (!tenant.config.garage.enabled) throw new NotFoundError();
  const token = readCookie(request, ACCESS_COOKIE);
  if (!token) throw new SessionHttpError(new SessionError('revoked'));
  try {
    return (await currentUser(tenant, token)).id;
  } catch (error) {
    if (error instanceof SessionError) throw new SessionHttpError(error);
    throw error;
  }
}

/**
 * Whether the request carries neither session cookie, so the visitor is certainly signed out (an
 * expired access cookie beside a refresh cookie may still become a session in the browser). The
 * garage page then shows its sign-in prompt from the server, tappable before the page's scripts run.
 */
export function withoutSessionCookies(cookies: { has(name: string): boolean }): boolean {
  return !cookies.has(ACCESS_COOKIE) && !cookies.has(REFRESH_COOKIE);
}
