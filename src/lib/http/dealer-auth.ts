import 'server-only';
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { getDb } from '@/db';
import { consumeLimits, peekLimits, throwIfRefused, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import { apiKeys, dealerships } from '@/db/schema';

/**
 * Dashboard API credentials: HTTP Basic, user = key id (public), password = secret (shown once).
 * The secret is kept as a salted scrypt hash and compared with timingSafeEqual.
 */

/** Who is calling: one dealership's key, which grants its dealership's website. */
export type DealerPrincipal = { apiKeyId: number; keyId: string; websiteId: number; dealershipId: number };

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;
const KEY_ID_PATTERN = /^dk_[0-9a-f]{24}$/;
const MAX_SECRET_LENGTH = 256;

function scrypt(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(secret, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const hash = await scrypt(secret, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 1 << 20) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length < 16) return false;
  const actual = await scrypt(secret, salt, expected.length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

/** { keyId, secret } of an `Authorization: Basic …` header, or null when absent or malformed. */
export function parseBasicAuth(header: string | null | undefined): { keyId: string; secret: string } | null {
  if (!header || header.length > 1024) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const keyId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (!KEY_ID_PATTERN.test(keyId) || secret.length === 0 || secret.length > MAX_SECRET_LENGTH) return null;
  return { keyId, secret };
}

/**
 * scrypt costs tens of milliseconds by design. A verified secret is remembered (as a SHA-256
 * digest, keyed by key id and the stored hash) so the next request with the same key skips it;
 * revocation still takes effect at once because the key row is read on every request.
 */
const verified = new Map<string, Buffer>();
const VERIFIED_MAX = 1000;

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * Failed logins per client address (and per key id from that address) in 15 minutes. Past them the
 * caller gets 429 before any scrypt run, so guesses cannot burn the server's CPU; a dealer's own
 * system, calling from its own address, is not locked out by someone else's guesses.
 */
export const LOGIN_FAILURES_PER_IP = 30;
export const LOGIN_FAILURES_PER_KEY_AND_IP = 10;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_LIMIT_MESSAGE = (retryAfterSeconds: number) => `Too many failed logins. Try again in ${waitPhrase(retryAfterSeconds)}.`;

function loginFailureLimits(keyId: string, ip: string | null): RateLimit[] {
  if (!ip) return [];
  return [
    { key: `dashboard-login-ip:${ip}`, max: LOGIN_FAILURES_PER_IP, durationMs: LOGIN_WINDOW_MS, message: LOGIN_LIMIT_MESSAGE },
    { key: `dashboard-login-key:${keyId}:${ip}`, max: LOGIN_FAILURES_PER_KEY_AND_IP, durationMs: LOGIN_WINDOW_MS, message: LOGIN_LIMIT_MESSAGE },
  ];
}

/**
 * The principal for an Authorization header, or null (missing, malformed, unknown, wrong or
 * revoked). A client over its failed-login limit is refused with RateLimitedError (429).
 */
export async function authenticate(header: string | null | undefined, ip: string | null = null): Promise<DealerPrincipal | null> {
  const credentials = parseBasicAuth(header);
  if (!credentials) return null;
  const db = await getDb();
  const failureLimits = loginFailureLimits(credentials.keyId, ip);
  const failed = async () => {
    await consumeLimits(db, failureLimits);
    return null;
  };
  const [key] = await db
    .select({ id: apiKeys.id, keyId: apiKeys.keyId, websiteId: apiKeys.websiteId, dealershipId: apiKeys.dealershipId, secretHash: apiKeys.secretHash })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyId, credentials.keyId), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!key) return failed();
  const cacheKey = `${key.keyId}$${key.secretHash}`;
  const presented = digest(credentials.secret);
  const remembered = verified.get(cacheKey);
  let ok = remembered !== undefined && timingSafeEqual(remembered, presented);
  if (!ok) {
    throwIfRefused(await peekLimits(db, failureLimits));
    ok = await verifySecret(credentials.secret, key.secretHash);
    if (ok) {
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
      verified.set(cacheKey, presented);
    }
  }
  if (!ok) return failed();
  return { apiKeyId: key.id, keyId: key.keyId, websiteId: key.websiteId, dealershipId: key.dealershipId };
}

export type CreatedApiKey = { keyId: string; secret: string; websiteId: number; dealershipId: number; dealershipSlug: string };

/** Creates a key for the dealership with this slug; null when there is none. The secret is only in the result. */
export async function createApiKey(dealershipSlug: string): Promise<CreatedApiKey | null> {
  const db = await getDb();
  const [dealership] = await db
    .select({ id: dealerships.id, websiteId: dealerships.websiteId, slug: dealerships.slug })
    .from(dealerships)
    .where(eq(dealerships.slug, dealershipSlug))
    .limit(1);
  if (!dealership) return null;
  const keyId = `dk_${randomBytes(12).toString('hex')}`;
  const secret = randomBytes(32).toString('base64url');
  await db.insert(apiKeys).values({
    websiteId: dealership.websiteId,
    dealershipId: dealership.id,
    keyId,
    secretHash: await hashSecret(secret),
  });
  return { keyId, secret, websiteId: dealership.websiteId, dealershipId: dealership.id, dealershipSlug: dealership.slug };
}

/** Revokes a key; true when a live key was revoked. */
export async function revokeApiKey(keyId: string, now: Date = new Date()): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.keyId, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}
