import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { EDIT_TOKEN_HEADER } from './leads.edit-token';

/**
 * Edit tokens: the first step of a lead (or a valuation) answers a random secret with its id, and
 * only a request that presents it may change the record later (PUT /api/leads/{id},
 * PUT /api/valuations, POST /api/miscellaneous, a valuation linked to a lead). The id alone, which
 * shows in emails and the outbox, is not enough. Only the SHA-256 of the secret is stored.
 */


export function newEditToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashEditToken(token) };
}

export function hashEditToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token a request presents, if any. */
export function editTokenOf(request: Request): string | null {
  return request.headers.get(EDIT_TOKEN_HEADER);
}

/** Whether `token` is the secret whose hash is stored (never true for a record without one). */
export function editTokenMatches(token: string | null, storedHash: string | null): boolean {
  if (!storedHash || !token || token.length > 200) return false;
  const given = Buffer.from(hashEditToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
