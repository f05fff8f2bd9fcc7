/**
 * /_next/static/… that is not a file of the build (a stale chunk after a deploy): the plain 404
 * Next itself answers when no route matches. Next serves the build's files before any route, so
 * only misses come here; without this route the site's catch-all at the root ([page]/[...rest],
 * decision 045) would render the dealer's whole 404 page for each of them. (%5F is how a folder
 * name starting with '_' becomes a route segment: '_next' alone would be a private folder.)
 */
export function GET(): Response {
  return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-cache, no-store, max-age=0, must-revalidate' } });
}
