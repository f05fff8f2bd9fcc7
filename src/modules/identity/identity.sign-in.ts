import 'server-only';
import type { Tenant } from '../tenancy/tenancy.types';
import { AUTH_EVENTS, recordAuthEvent, verifyPhoneCode } from './identity.codes';
import { cookie, secureCookies } from './identity.http';
import { findOrCreateCustomer, startSession, type IssuedSession } from './identity.sessions';

/** A phone and code checked, the customer found or made, and a session started (both sign-in routes). */
export async function signInWithCode(tenant: Tenant, input: { phone: string; code: string }): Promise<{ customerId: string; session: IssuedSession }> {
  const { phone, metadata } = await verifyPhoneCode(tenant, input);
  const customer = await findOrCreateCustomer(tenant, phone, metadata);
  const session = await startSession(tenant, customer);
  await recordAuthEvent(tenant, AUTH_EVENTS.signedIn, { customer_id: customer.id });
  return { customerId: customer.id, session };
}

/** Where sign-in goes on: only a path of this website (never an address elsewhere), else the garage or the home page. */
export function signInNext(tenant: Tenant, wanted: unknown): string {
  if (typeof wanted === 'string' && /^\/(?!\/)[^\s\\]*$/.test(wanted) && wanted.length <= 500) return wanted;
  return tenant.config.garage.enabled ? tenant.config.garage.path : '/';
}

/**
 * The sign-in form posted without its script (before the page's scripts ran, or with none;
 * decision 060): where it stands travels back to /sign-in in a short-lived cookie on that path, as
 * a refused lead form's does, never in the address: the phone typed, whether a code was sent, and
 * each field's message.
 */
export type SignInFormState = { phone: string; sent: boolean; errors: { phone?: string; code?: string }; /** When 'Resend Code' may be used (ms since 1970). */ resendAt?: number };

export const SIGN_IN_FORM_COOKIE = 'sign_in_form';
const SIGN_IN_FORM_SECONDS = 600;
const SIGN_IN_PATH = '/sign-in';

export function signInFormCookie(request: Request, state: SignInFormState | null): string {
  const value = state ? encodeURIComponent(JSON.stringify({ ...state, phone: state.phone.slice(0, 40) })) : '';
  return cookie(SIGN_IN_FORM_COOKIE, value, state ? SIGN_IN_FORM_SECONDS : 0, secureCookies(request), SIGN_IN_PATH);
}

export function parseSignInFormState(raw: string | null | undefined): SignInFormState | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(decodeURIComponent(raw)) as Partial<SignInFormState>;
    const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : undefined);
    const errors = typeof parsed.errors === 'object' && parsed.errors !== null ? parsed.errors : {};
    const resendAt = typeof parsed.resendAt === 'number' && Number.isFinite(parsed.resendAt) ? parsed.resendAt : undefined;
    return { phone: text(parsed.phone, 40) ?? '', sent: parsed.sent === true, errors: { phone: text(errors.phone, 300), code: text(errors.code, 300) }, resendAt };
  } catch {
    return null;
  }
}

/** The form's state as /sign-in shows it: the resend wait in seconds from now. */
export type PostedSignIn = Omit<SignInFormState, 'resendAt'> & { resendAfter: number };

export function postedSignIn(raw: string | null | undefined, now = Date.now()): PostedSignIn | null {
  const state = parseSignInFormState(raw);
  if (!state) return null;
  const { resendAt, ...rest } = state;
  return { ...rest, resendAfter: Math.max(0, Math.ceil(((resendAt ?? 0) - now) / 1000)) };
}
