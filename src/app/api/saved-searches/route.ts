import { z } from 'zod';
import { ValidationError, jsonResponse, parseWith, readJsonBody, visitorRoute } from '@/lib/http';
import { listSavedSearches, saveSearch, SavedSearchRefusal } from '@/modules/alerts/alerts.saved-searches';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
const bodySchema = z.strictObject({ href: z.string().min(1).max(2_000) });

/** GET /api/saved-searches → {saved_searches}: the signed-in visitor's, with what each finds now and since their last look. */
export const GET = visitorRoute(async ({ request, tenant }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  return jsonResponse({ saved_searches: await listSavedSearches(tenant, customerId) }, { headers: NO_STORE });
});

/** POST /api/saved-searches {href: a search page's path and query} → 201 {saved_search}; 200 when it was saved already. */
export const POST = visitorRoute(async ({ request, tenant }) => {
  const customerId = await requireGarageCustomer(tenant, request);
  const { href } = parseWith(bodySchema, await readJsonBody(request, 4 * 1024));
  try {
    const { created, ...saved } = await saveSearch(tenant, customerId, href);
    return jsonResponse({ saved_search: saved }, { status: created ? 201 : 200, headers: NO_STORE });
  } catch (error) {
    if (error instanceof SavedSearchRefusal) throw new ValidationError({ [error.field]: error.message });
    throw error;
  }
});
