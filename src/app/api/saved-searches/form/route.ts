import { HttpError, readFormFields, visitorRoute } from '@/lib/http';
import { saveSearch, SavedSearchRefusal } from '@/modules/alerts/alerts.saved-searches';
import { requireGarageCustomer } from '@/modules/identity/identity.http';

export const dynamic = 'force-dynamic';

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/**
 * POST /api/saved-searches/form (href=…): 'Save this search' posted before the page's scripts ran
 * (or without them). Saved, the visitor lands on their garage, which lists it (or, when the search
 * could not be kept, the searches they have); signed out, on sign-in, which brings them back to the
 * search to save it again.
 */
export const POST = visitorRoute(
  async ({ request, tenant }) => {
    const { href = '' } = await readFormFields(request, 4 * 1024);
    let customerId: string;
    try {
      customerId = await requireGarageCustomer(tenant, request);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) return seeOther(`/sign-in?next=${encodeURIComponent(href.startsWith('/') ? href : '/')}`);
      throw error;
    }
    try {
      await saveSearch(tenant, customerId, href);
    } catch (error) {
      if (!(error instanceof SavedSearchRefusal)) throw error;
    }
    return seeOther(`${tenant.config.garage.path}#saved-searches`);
  },
  { accepted: ['form'] },
);
