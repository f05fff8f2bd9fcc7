import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { getDb } from '@/db';
import { UUID_PATTERN } from '@/lib/http';
import { rowsOf } from '@/db/rows';
import type { Tenant } from '../tenancy/tenancy.types';
import { customers, platformSecrets, sessions } from './identity.schema';

/**
 * Sessions of signed-in customers (issue 14; decision 029): a short-lived access token, a JWT
 * signed with HS256 by `jose` (UUID subject and session ids, audience = the website), and a
 * refresh token that is random, stored only as its SHA-256, and rotated on every use. Presenting
 * a refresh token that was already exchanged ends its whole family (the sign-in it came from):
 * someone else has a copy. Everything belongs to one website: a token of another is refused.
 */

export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** SPEC §9 cookie max age: 34,560,000 s (400 days); the refresh token lives as long. */
export const SESSION_MAX_AGE_SECONDS = 34_560_000;
const ISSUER = 'dealer-platform';
const SECRET_NAME = 'session-signing-key';

export type SessionUser = { id: string; phone: string; first_name: string | null; last_name: string | null; email: string | null };
export type IssuedSession = { access_token: string; refresh_token: string; expires_in: number; expires_at: number; token_type: 'bearer'; user: SessionUser };

export class SessionError extends Error {
  constructor(readonly reason: 'invalid' | 'expired' | 'wrong-website' | 'revoked' | 'reused') {
    super(reason);
  }
}

let secretValue: Promise<string> | null = null;

/**
 * The platform's own secret: AUTH_SECRET where set (every replica the same), else one the platform
 * makes once and keeps in the database, so replicas agree and a restart does not sign everyone out.
 * The session signing key, and other keyed hashes of the platform (checkout's bound tokens).
 */
export function platformSecret(): Promise<string> {
  secretValue ??= (async () => {
    const fromEnv = process.env.AUTH_SECRET;
    if (fromEnv && fromEnv.length >= 32) return fromEnv;
    const db = await getDb();
    await db.insert(platformSecrets).values({ name: SECRET_NAME, value: randomBytes(48).toString('base64url') }).onConflictDoNothing();
    const [row] = await db.select({ value: platformSecrets.value }).from(platformSecrets).where(eq(platformSecrets.name, SECRET_NAME));
    return row.value;
  })();
  secretValue.catch(() => (secretValue = null));
  return secretValue;
}

let signingKey: Promise<CryptoKey> | null = null;

function key(): Promise<CryptoKey> {
  // Imported once: given bytes, jose would import the key again on every sign and verify.
  signingKey ??= platformSecret().then((secret) => crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  signingKey.catch(() => (signingKey = null));
  return signingKey;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

async function accessToken(tenant: Tenant, customerId: string, familyId: string, now: number): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = Math.floor(now / 1000) + ACCESS_TOKEN_SECONDS;
  const token = await new SignJWT({ sid: familyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(customerId)
    .setAudience(`website:${tenant.id}`)
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(expiresAt)
    .sign(await key());
  return { token, expiresAt };
}

function userOf(row: typeof customers.$inferSelect): SessionUser {
  return { id: row.id, phone: row.phone, first_name: row.firstName, last_name: row.lastName, email: row.email };
}

async function issue(tenant: Tenant, customer: typeof customers.$inferSelect, familyId: string, now: number, db: Awaited<ReturnType<typeof getDb>>): Promise<IssuedSession> {
  const refresh = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({ websiteId: tenant.id, customerId: customer.id, familyId, refreshTokenHash: hash(refresh), expiresAt: new Date(now + SESSION_MAX_AGE_SECONDS * 1000) });
  const access = await accessToken(tenant, customer.id, familyId, now);
  return { access_token: access.token, refresh_token: refresh, expires_in: ACCESS_TOKEN_SECONDS, expires_at: access.expiresAt, token_type: 'bearer', user: userOf(customer) };
}

/** The website's customer with this phone (E.164), made on first sign-in with the code's metadata. */
export async function findOrCreateCustomer(tenant: Tenant, phone: string, metadata: Record<string, unknown>) {
  const db = await getDb();
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : null);
  await db
    .insert(customers)
    .values({ websiteId: tenant.id, phone, firstName: text(metadata.first_name), lastName: text(metadata.last_name), email: text(metadata.email), dealershipSlug: text(metadata.dealership_slug), metadata })
    .onConflictDoNothing({ target: [customers.websiteId, customers.phone] });
  const [row] = await db.select().from(customers).where(and(eq(customers.websiteId, tenant.id), eq(customers.phone, phone)));
  return row;
}

/** A new session (a new family) for a customer who just proved their phone. */
export async function startSession(tenant: Tenant, customer: typeof customers.$inferSelect, now = Date.now()): Promise<IssuedSession> {
  return issue(tenant, customer, crypto.randomUUID(), now, await getDb());
}

/** The customer and session of a valid access token of this website; SessionError otherwise. */
export async function verifyAccessToken(tenant: Tenant, token: string, now = Date.now()): Promise<{ customerId: string; familyId: string; expiresAt: number }> {
  try {
    const { payload } = await jwtVerify(token, await key(), { issuer: ISSUER, algorithms: ['HS256'], currentDate: new Date(now) });
    if (payload.aud !== `website:${tenant.id}` && !(Array.isArray(payload.aud) && payload.aud.includes(`website:${tenant.id}`))) throw new SessionError('wrong-website');
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') throw new SessionError('invalid');
    if (!UUID_PATTERN.test(payload.sub) || !UUID_PATTERN.test(payload.sid)) throw new SessionError('invalid');
    return { customerId: payload.sub, familyId: payload.sid, expiresAt: payload.exp };
  } catch (error) {
    if (error instanceof SessionError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new SessionError('expired');
    throw new SessionError('invalid');
  }
}

/** The signed-in customer of an access token, checking the session is still alive (sign-out takes effect at once). */
export async function currentUser(tenant: Tenant, token: string, now = Date.now()): Promise<SessionUser> {
  const { customerId, familyId } = await verifyAccessToken(tenant, token, now);
  const db = await getDb();
  const [row] = rowsOf<typeof customers.$inferSelect & { alive: boolean }>(
    await db.execute(sql`select c.id, c.phone, c.first_name as "firstName", c.last_name as "lastName", c.email,
        exists (select 1 from sessions s where s.family_id = ${familyId} and s.website_id = ${tenant.id} and s.revoked_at is null) as alive
      from customers c where c.website_id = ${tenant.id} and c.id = ${customerId}`),
  );
  if (!row) throw new SessionError('invalid');
  if (!row.alive) throw new SessionError('revoked');
  return userOf(row);
}

/** Exchanges a refresh token for a new pair; an exchanged token presented again ends its family. */
export async function refreshSession(tenant: Tenant, refreshToken: string, now = Date.now()): Promise<IssuedSession> {
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(sessions).where(and(eq(sessions.websiteId, tenant.id), eq(sessions.refreshTokenHash, hash(refreshToken)))).for('update');
    if (!row) throw new SessionError('invalid');
    if (row.revokedAt) throw new SessionError('revoked');
    if (row.rotatedAt) {
      await tx.update(sessions).set({ revokedAt: new Date(now) }).where(and(eq(sessions.familyId, row.familyId), isNull(sessions.revokedAt)));
      return 'reused' as const;
    }
    if (row.expiresAt.getTime() <= now) throw new SessionError('expired');
    await tx.update(sessions).set({ rotatedAt: new Date(now) }).where(eq(sessions.id, row.id));
    const [customer] = await tx.select().from(customers).where(and(eq(customers.websiteId, tenant.id), eq(customers.id, row.customerId)));
    if (!customer) throw new SessionError('invalid');
    return issue(tenant, customer, row.familyId, now, tx as unknown as Awaited<ReturnType<typeof getDb>>);
  });
  // The family's end is committed; then the caller is refused.
  if (outcome === 'reused') throw new SessionError('reused');
  return outcome;
}

export type SignOutScope = 'global' | 'local' | 'others';

/** SPEC §5 sign-out scopes: this session (local), every session of the customer (global), or all but this one (others). */
export async function signOut(tenant: Tenant, token: string, scope: SignOutScope, now = Date.now()): Promise<void> {
  const { customerId, familyId } = await verifyAccessToken(tenant, token, now);
  const db = await getDb();
  const where =
    scope === 'local'
      ? and(eq(sessions.websiteId, tenant.id), eq(sessions.familyId, familyId))
      : scope === 'global'
        ? and(eq(sessions.websiteId, tenant.id), eq(sessions.customerId, customerId))
        : and(eq(sessions.websiteId, tenant.id), eq(sessions.customerId, customerId), ne(sessions.familyId, familyId));
  await db.update(sessions).set({ revokedAt: new Date(now) }).where(and(where, isNull(sessions.revokedAt)));
}
