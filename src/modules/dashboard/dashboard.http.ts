import 'server-only';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { logger } from '@/lib/logger';
import { RateLimitedError } from '@/lib/rate-limit';
import { clientAddress } from '@/lib/client-address';
import { assertSameSiteWrite } from '@/lib/same-site';
import { authenticate, type DashboardPrincipal } from './dashboard.auth';
import { DASHBOARD_MESSAGES, DashboardError, NotFoundError, PayloadTooLargeError, BadRequestError, UnauthorizedError } from './dashboard.errors';

/** Request plumbing shared by the Dashboard API route handlers: auth, params, bodies, responses, errors. */

export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_DB_ID = 2_147_483_647;

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

export function errorResponse(error: DashboardError): Response {
  const body: { error: string; fields?: Record<string, string> } = { error: error.message };
  if (error.fields) body.fields = error.fields;
  const headers: Record<string, string> = {};
  if (error.status === 401) headers['WWW-Authenticate'] = 'Basic realm="dashboard", charset="UTF-8"';
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

/** A path segment `<name>.json` → name; anything else is not a resource here. */
export const jsonSegmentSchema = z
  .string()
  .max(300)
  .regex(/^[^/]+\.json$/)
  .transform((segment) => segment.slice(0, -'.json'.length));

/** A database id in a path segment. */
export const pathIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .refine((id) => id <= MAX_DB_ID);

/** Route params parsed with a schema; 404 when they cannot name a resource. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new NotFoundError();
  return parsed.data;
}

/** A database id from a query parameter; 400 naming it when absent or malformed. */
export function parseQueryId(value: string | null, name: string): number {
  if (value == null || value === '') throw new BadRequestError(DASHBOARD_MESSAGES.badRequest, { [name]: 'is required' });
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_DB_ID) {
    throw new BadRequestError(DASHBOARD_MESSAGES.badRequest, { [name]: 'must be a positive whole number' });
  }
  return Number(value);
}

/** The raw body, refused over maxBytes (413) whether or not Content-Length says so. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw new PayloadTooLargeError();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new PayloadTooLargeError();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** The request body parsed as JSON, refused over MAX_BODY_BYTES (413) or when not UTF-8 JSON (400). */
/** A plain form post's fields (application/x-www-form-urlencoded), at most maxBytes; a repeated name keeps its first value. */
export async function readFormFields(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(new TextDecoder().decode(await readBodyBytes(request, maxBytes)))) {
    if (!(key in fields)) fields[key] = value;
  }
  return fields;
}

export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const body = await readBodyBytes(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new BadRequestError(DASHBOARD_MESSAGES.malformedJson);
  }
  if (text.trim() === '') throw new BadRequestError(DASHBOARD_MESSAGES.malformedJson);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError(DASHBOARD_MESSAGES.malformedJson);
  }
}

export type DashboardContext<P> = { request: Request; params: P; principal: DashboardPrincipal };

/**
 * Wraps a route handler: authenticates (401 otherwise), resolves params, and turns any thrown
 * DashboardError into its JSON answer. Anything else is a server fault: logged with a reference,
 * answered 500 with no detail.
 */
export function dashboardRoute<P>(handler: (context: DashboardContext<P>) => Promise<Response>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') assertSameSiteWrite(request, ['json']);
      const principal = await authenticate(request.headers.get('authorization'), clientAddress(request));
      if (!principal) throw new UnauthorizedError();
      const params = await context.params;
      return await handler({ request, params, principal });
    } catch (error) {
      if (error instanceof DashboardError) return errorResponse(error);
      const reference = randomUUID();
      logger.error({ err: error, reference, method: request.method, url: request.url }, 'dashboard API request failed');
      return jsonResponse({ error: `${DASHBOARD_MESSAGES.internal} (reference ${reference})` }, { status: 500 });
    }
  };
}
