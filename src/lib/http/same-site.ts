import 'server-only';
import { HttpError } from './errors';
import { normalizeHost } from '@/lib/host';

/**
 * Same-site writes only (ARCHITECTURE rule 7). A browser sends a cross-site form or fetch with an
 * Origin header (and Sec-Fetch-Site) that names the other site; a page of one dealer website must
 * not write to another website either, even under the same parent domain ('same-site' in the
 * browser's terms). Requests without either header (server-to-server clients, curl) carry no
 * visitor's cookies or trust and pass. Bodies must be JSON (or multipart where documented), which a
 * plain HTML form on another site cannot send without a CORS preflight.
 */

export const SAME_SITE_MESSAGES = {
  crossSite: 'Requests from other websites are not accepted.',
  mediaType: (types: string) => `Content-Type must be ${types}.`,
} as const;

export class CrossSiteRequestError extends HttpError {
  constructor() {
    super(403, SAME_SITE_MESSAGES.crossSite);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(types: string) {
    super(415, SAME_SITE_MESSAGES.mediaType(types), { 'Content-Type': `must be ${types}` });
  }
}

const MEDIA_TYPES = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
  /** navigator.sendBeacon's string body: no CORS preflight, so only for beacons (the events API). */
  text: 'text/plain',
} as const;
export type BodyKind = keyof typeof MEDIA_TYPES;

/** Refuses (403) a request that a browser sent from another origin than the Host it is addressed to. */
export function assertSameSite(request: Request): void {
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') throw new CrossSiteRequestError();
  const origin = request.headers.get('origin');
  if (origin === null) return;
  let originHost: string | null = null;
  try {
    originHost = normalizeHost(new URL(origin).host);
  } catch {
    // 'null' (a sandboxed frame, a file) or garbage: not this website.
  }
  if (!originHost || originHost !== normalizeHost(request.headers.get('host'))) throw new CrossSiteRequestError();
}

/** The body kind of a request's Content-Type among those accepted; 415 naming them otherwise. */
export function assertBodyKind(request: Request, accepted: readonly BodyKind[]): BodyKind {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const kind = accepted.find((k) => MEDIA_TYPES[k] === type);
  if (!kind) throw new UnsupportedMediaTypeError(accepted.map((k) => MEDIA_TYPES[k]).join(' or '));
  return kind;
}

/**
 * Whether the request says it carries a body (a DELETE, or a POST that only names its action, says
 * nothing): a type, a length above 0, or chunked transfer. A browser always sends the type of what
 * it posts, and what says nothing is read as no body.
 */
export function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  return request.headers.has('content-type') || (length !== null && length !== '0') || request.headers.has('transfer-encoding');
}

/** Both checks, for a state-changing endpoint; a request without a body has no kind to check. */
export function assertSameSiteWrite(request: Request, accepted: readonly BodyKind[] = ['json']): BodyKind | null {
  assertSameSite(request);
  return hasBody(request) ? assertBodyKind(request, accepted) : null;
}
