import { isDatabaseUnavailable } from '@/db/errors';
import { logger } from '@/lib/logger';
import { BadRequestError, HttpError, errorResponse, fieldErrors, jsonResponse, readJsonBody } from '@/lib/http';
import { normalizeHost } from '@/lib/host';
import { searchResponseJson } from '@/modules/stock/search/search.api';
import { searchStock } from '@/modules/stock/search/search.service';
import { searchRequestSchema } from '@/modules/stock/search/search.validation';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';

export const dynamic = 'force-dynamic';

const MAX_SEARCH_BODY_BYTES = 16 * 1024;

/**
 * POST /api/search: the SPEC §7 search response for the website of the request's Host. The body
 * chooses text, filters, facets, sort, limit and offset; it can never choose the website.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const host = normalizeHost(request.headers.get('host'));
    const tenant = host ? await findTenantByHost(host) : null;
    if (!tenant) return jsonResponse({ error: 'Unknown website' }, { status: 404 });
    const parsed = searchRequestSchema.safeParse(await readJsonBody(request, MAX_SEARCH_BODY_BYTES));
    if (!parsed.success) throw new BadRequestError('Invalid search request', fieldErrors(parsed.error));
    return jsonResponse(searchResponseJson(await searchStock(tenant, parsed.data)), {
      headers: { 'Cache-Control': 'no-store' },
    });
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error);
    if (isDatabaseUnavailable(error)) {
      logger.error({ err: error }, 'search API: database unavailable');
      return jsonResponse({ error: 'Search is unavailable just now. Please try again shortly.' }, { status: 503, headers: { 'Retry-After': '30' } });
    }
    const reference = crypto.randomUUID();
    logger.error({ err: error, reference }, 'search API failed');
    return jsonResponse({ error: 'An unexpected error occurred', reference }, { status: 500 });
  }
}
