import { jsonResponse } from '@/lib/http';

/**
 * Any /api/… path no handler claims answers as an API does, 404 in JSON, whatever the method. The
 * site's routes sit at the app's root (decision 045), so without this the site's catch-all
 * ([page]/[...rest]) would render the dealer's 404 page for it.
 */
function notFound(): Response {
  return jsonResponse({ error: 'Not found' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
