import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { getDb } from '@/db';
import { platformSecrets } from '../identity/identity.schema';
import type { Tenant } from '../tenancy/tenancy.types';

/**
 * The refund link of the dealer's reservation email (issue 31): a link that works from the email,
 * not an API path. It is signed (HS256 JWT by `jose`: the reservation, its website as audience, its
 * dealership, an expiry), so it cannot be made or altered; it expires after REFUND_LINK_DAYS; and
 * it is single-use because it refunds only a reservation that is still paid or held: the refund
 * (the Dashboard API's own command, refundReservation) moves it to refunded or cancelled, after
 * which this link and any other for that reservation are spent. Opening it (GET) only shows what
 * it would do; the refund is the POST of the confirmation page's form, same-site only.
 */

/** How long a refund link works. Long enough for a deal that falls through in the following days. */
export const REFUND_LINK_DAYS = 14;
export const REFUND_LINK_PATH = '/reservation-refund';
const ISSUER = 'dealer-platform/reservation-refund';
const SECRET_NAME = 'reservation-refund-link-key';

let keyPromise: Promise<CryptoKey> | null = null;

/**
 * The link key: RESERVATION_LINK_SECRET where set (every replica the same), else one the platform
 * makes once and keeps in the database. Read outside any transaction (the embedded database runs
 * one statement at a time): callers that sign inside one get a signer first (refundLinkSigner).
 */
function key(): Promise<CryptoKey> {
  keyPromise ??= (async () => {
    const fromEnv = process.env.RESERVATION_LINK_SECRET;
    let secret = fromEnv && fromEnv.length >= 32 ? fromEnv : null;
    if (!secret) {
      const db = await getDb();
      await db.insert(platformSecrets).values({ name: SECRET_NAME, value: randomBytes(48).toString('base64url') }).onConflictDoNothing();
      const [row] = await db.select({ value: platformSecrets.value }).from(platformSecrets).where(eq(platformSecrets.name, SECRET_NAME));
      secret = row.value;
    }
    return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  })();
  keyPromise.catch(() => (keyPromise = null));
  return keyPromise;
}

export type RefundLinkTarget = { id: string; websiteId: number; dealershipId: number };
export type RefundLinkSigner = (target: RefundLinkTarget, now?: Date) => Promise<{ path: string; expiresAt: Date }>;

/** A signer holding the key, for signing inside a transaction without touching the database. */
export async function refundLinkSigner(): Promise<RefundLinkSigner> {
  const signingKey = await key();
  return async (target, now = new Date()) => {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = issuedAt + REFUND_LINK_DAYS * 86_400;
    const token = await new SignJWT({ did: target.dealershipId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(target.id)
      .setAudience(`website:${target.websiteId}`)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(signingKey);
    return { path: `${REFUND_LINK_PATH}/${token}`, expiresAt: new Date(expiresAt * 1000) };
  };
}

export type RefundLinkClaims = { reservationId: string; dealershipId: number; expiresAt: Date };
export type RefundLinkProblem = 'invalid' | 'expired' | 'other-website';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a link says, if this website signed it, it is unaltered and it has not expired. */
export async function readRefundLink(tenant: Pick<Tenant, 'id'>, token: string, now = new Date()): Promise<{ ok: true; claims: RefundLinkClaims } | { ok: false; problem: RefundLinkProblem }> {
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) || token.length > 2000) return { ok: false, problem: 'invalid' };
  try {
    const { payload } = await jwtVerify(token, await key(), { issuer: ISSUER, algorithms: ['HS256'], currentDate: now });
    const dealershipId = payload.did;
    if (typeof payload.sub !== 'string' || !UUID.test(payload.sub) || typeof dealershipId !== 'number' || typeof payload.exp !== 'number') return { ok: false, problem: 'invalid' };
    if (payload.aud !== `website:${tenant.id}`) return { ok: false, problem: 'other-website' };
    return { ok: true, claims: { reservationId: payload.sub, dealershipId, expiresAt: new Date(payload.exp * 1000) } };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, problem: 'expired' };
    return { ok: false, problem: 'invalid' };
  }
}
