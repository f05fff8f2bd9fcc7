import 'server-only';
import { RateLimitedError } from '@/lib/rate-limit';
import { UnauthorizedError, type HttpError } from './errors';

/** JSON answers: every route's success and error bodies. */

/**
 * JSON whose text never holds <, >, & or the two JavaScript line separators raw (they are
 * \\u-escaped, which every JSON parser reads back to the same string), so dealer-supplied text
 * like `<script>` cannot be sniffed or embedded as markup.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function jsonResponse(value: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(safeJson(value), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', ...init.headers },
  });
}

export function errorResponse(error: HttpError): Response {
  const body: { error: string; fields?: Record<string, string> } = { error: error.message };
  if (error.fields) body.fields = error.fields;
  const headers: Record<string, string> = {};
  // Only the Dashboard API asks for Basic credentials: on a visitor's signed-out 401 the header
  // would make the browser prompt for a user name and password over the page (and hold the fetch).
  if (error instanceof UnauthorizedError) headers['WWW-Authenticate'] = 'Basic realm="dashboard", charset="UTF-8"';
  if (error instanceof RateLimitedError) headers['Retry-After'] = String(error.retryAfterSeconds);
  return jsonResponse(body, { status: error.status, headers });
}

/** A cacheable stock lookup: ETag and revalidation headers; 304 when If-None-Match names the ETag. */
export function versionedResponse(request: Request, value: unknown, etag: string, init: { status?: number } = {}): Response {
  const headers = { ETag: etag, 'Cache-Control': 'private, max-age=0, must-revalidate' };
  if (etagMatches(request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers });
  }
  return jsonResponse(value, { status: init.status, headers });
}

export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
}
