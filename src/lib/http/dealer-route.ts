import 'server-only';
import { randomUUID } from 'node:crypto';
import { logger } from '@/lib/logger';
import { clientAddress } from '@/lib/client-address';
import { authenticate, type DealerPrincipal } from './dealer-auth';
import { HTTP_MESSAGES, HttpError, UnauthorizedError } from './errors';
import { errorResponse, jsonResponse } from './response';
import { assertSameSiteWrite } from './same-site';

/** The dealer route: every Dashboard API handler, behind a dealership's API key. */

export type DealerContext<P> = { request: Request; params: P; principal: DealerPrincipal };

/**
 * Wraps a route handler: authenticates (401 otherwise), resolves params, and turns any thrown
 * HttpError into its JSON answer. Anything else is a server fault: logged with a reference,
 * answered 500 with no detail.
 */
export function dealerRoute<P>(handler: (context: DealerContext<P>) => Promise<Response>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') assertSameSiteWrite(request, ['json']);
      const principal = await authenticate(request.headers.get('authorization'), clientAddress(request));
      if (!principal) throw new UnauthorizedError();
      const params = await context.params;
      return await handler({ request, params, principal });
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error);
      const reference = randomUUID();
      logger.error({ err: error, reference, method: request.method, url: request.url }, 'dashboard API request failed');
      return jsonResponse({ error: `${HTTP_MESSAGES.internal} (reference ${reference})` }, { status: 500 });
    }
  };
}
