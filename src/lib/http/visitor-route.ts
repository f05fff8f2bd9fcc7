import 'server-only';
import { isDatabaseUnavailable } from '@/db/errors';
import { logger } from '@/lib/logger';
import { BAD_HOST } from '@/lib/request-refusals';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { BadRequestError, HttpError, ValidationError, VISITOR_MESSAGES } from './errors';
import { normalizeHost } from '@/lib/host';
import { errorResponse, jsonResponse } from './response';
import { assertSameSiteWrite, type BodyKind } from './same-site';

export type VisitorContext<P> = {
  request: Request;
  tenant: Tenant;
  params: P;
  /** The kind of body a write carries, among those accepted; null for a read or a write without a body. */
  bodyKind: BodyKind | null;
};

export type VisitorRouteOptions = {
  /** The body kinds a write may carry (415 naming them otherwise). */
  accepted?: readonly BodyKind[];
  /** What this route answers while the database is unavailable, and on an unexpected failure. */
  messages?: { unavailable?: string; failed?: string };
};

/**
 * The visitor route: every API a website's own pages call. Refuses cross-site writes and other
 * bodies than `accepted` (same-site.ts), finds the website by Host (404 when none) and maps errors
 * to JSON answers: 422 with the fields, the HttpError's own status, 503 while the database is
 * unavailable, 500 with a reference for anything else.
 */
export function visitorRoute<P = unknown>(handler: (context: VisitorContext<P>) => Promise<Response>, options: VisitorRouteOptions = {}) {
  const accepted = options.accepted ?? ['json'];
  const messages = { ...VISITOR_MESSAGES, ...options.messages };
  return async (request: Request, context?: { params: Promise<P> }): Promise<Response> => {
    try {
      const bodyKind = request.method !== 'GET' && request.method !== 'HEAD' ? assertSameSiteWrite(request, accepted) : null;
      const header = request.headers.get('host');
      const host = normalizeHost(header);
      if (header && !host) throw new BadRequestError(BAD_HOST, { host: 'is not a host name' });
      const tenant = host ? await findTenantByHost(host) : null;
      if (!tenant) return jsonResponse({ error: VISITOR_MESSAGES.unknownWebsite }, { status: 404 });
      return await handler({ request, tenant, params: (await context?.params) as P, bodyKind });
    } catch (error) {
      if (error instanceof ValidationError) return jsonResponse({ error: VISITOR_MESSAGES.invalid, fields: error.fields }, { status: 422 });
      if (error instanceof HttpError) return errorResponse(error);
      // The visitor went away mid-body (closed tab, dropped connection): nothing to answer, nothing stored.
      if (request.signal.aborted) return jsonResponse({ error: 'Request aborted' }, { status: 400 });
      if (isDatabaseUnavailable(error)) {
        logger.error({ err: error }, 'visitor API: database unavailable');
        return jsonResponse({ error: messages.unavailable }, { status: 503, headers: { 'Retry-After': '30' } });
      }
      const reference = crypto.randomUUID();
      logger.error({ err: error, reference, url: request.url }, 'visitor API failed');
      return jsonResponse({ error: messages.failed, reference }, { status: 500 });
    }
  };
}
