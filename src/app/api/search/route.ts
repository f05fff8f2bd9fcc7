import { BadRequestError, fieldErrors, jsonResponse, readJsonBody, visitorRoute } from '@/lib/http';
import { searchResponseJson } from '@/modules/stock/search/search.api';
import { searchStock } from '@/modules/stock/search/search.service';
import { searchRequestSchema } from '@/modules/stock/search/search.validation';

export const dynamic = 'force-dynamic';

const MAX_SEARCH_BODY_BYTES = 16 * 1024;

/**
 * POST /api/search: the SPEC §7 search response for the website of the request's Host. The body
 * chooses text, filters, facets, sort, limit and offset; it can never choose the website.
 */
export const POST = visitorRoute(
  async ({ request, tenant }) => {
    const parsed = searchRequestSchema.safeParse(await readJsonBody(request, MAX_SEARCH_BODY_BYTES));
    if (!parsed.success) throw new BadRequestError('Invalid search request', fieldErrors(parsed.error));
    return jsonResponse(searchResponseJson(await searchStock(tenant, parsed.data)), {
      headers: { 'Cache-Control': 'no-store' },
    });
  },
  { messages: { unavailable: 'Search is unavailable just now. Please try again shortly.', failed: 'An unexpected error occurred' } },
);
