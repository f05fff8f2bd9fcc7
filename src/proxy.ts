import { NextResponse, type NextRequest } from 'next/server';
import { normalizeHost } from '@/modules/tenancy/tenancy.host';

/**
 * Host → tenant rewrite, nothing else (no database, no rules): every page request is served from
 * /sites/{host}/…, where the website is looked up. The Dashboard API's public paths are left as
 * they are: its handlers sit at those paths (app/(dashboard)) and answer on any host.
 */

const PASS_THROUGH_PREFIXES = ['/websites/', '/manufacturers/', '/dealerships/', '/api/v1/websites/', '/media/', '/_next/'];
const INVALID_HOST = '_invalid';

export function proxy(request: NextRequest) {
  const url = request.nextUrl.clone();
  const { pathname } = url;

  if (PASS_THROUGH_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
    return NextResponse.next();
  }
  const host = normalizeHost(request.headers.get('host')) ?? INVALID_HOST;
  // A stray '%' (e.g. /cars/abc$%) would make the route's parameter decoding fail with a 500;
  // escaped, it reaches the page as a literal '%' and the page answers 404.
  const path = pathname.replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  url.pathname = `/sites/${encodeURIComponent(host)}${path === '/' ? '' : path}`;
  return NextResponse.rewrite(url);
}

// Not the visitor API (/api/… but the Dashboard API's /api/v1/websites/): it needs nothing from
// here, running the proxy costs every call (a third of GET /api/auth's throughput), and a request
// the proxy sees has its body buffered by Next so that both could read it (up to 25 MB with files).
export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|api/(?!v1/websites/)).*)'],
};
