import 'server-only';
import { siteOrigin, garagePath } from '@/modules/tenancy/tenancy.paths';
import { DATABASE_UNAVAILABLE, lookupTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { stockListingVersion } from '@/modules/stock/server';
import { parsePartName, partEntries, partPath, singleFileEntries, sitemapPlan } from './sitemap.queries';
import { sitemapIndexXml, urlsetChunks, xmlStream } from './sitemap.xml';

/**
 * The responses of /sitemap.xml, /sitemaps/{part}.xml and /robots.txt (thin route files under
 * app/(site) call these with requestHost()). The website comes from the host (null: the Host header
 * is not a host name, 404); URLs use its canonical origin (siteOrigin), the same origin as the
 * pages' canonical links.
 */

const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' };
const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=600' };

function notFound(): Response {
  return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

function unavailable(): Response {
  return new Response('The service is unavailable; try again shortly.\n', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30', 'Cache-Control': 'no-store' },
  });
}

async function withTenant(host: string | null, respond: (tenant: Tenant, host: string) => Promise<Response>): Promise<Response> {
  if (!host) return notFound();
  const tenant = await lookupTenant(host);
  if (tenant === DATABASE_UNAVAILABLE) return unavailable();
  if (!tenant) return notFound();
  // Route handlers run inside the same request hooks as pages: served from the page cache until
  // the website's data or cars change (a sitemap lists both).
  await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
  return respond(tenant, host);
}

/** /sitemap.xml: every URL in one <urlset>, or past the limit a <sitemapindex> of the parts. */
export function sitemapResponse(requestHost: string | null, options: { maxUrls?: number } = {}): Promise<Response> {
  return withTenant(requestHost, async (tenant, host) => {
    const now = new Date();
    const plan = await sitemapPlan(tenant, { now, maxUrls: options.maxUrls });
    const origin = siteOrigin(tenant, host);
    if (plan.parts) {
      const index = plan.parts.map((part) => ({
        path: partPath(part),
        lastModified: part.kind === 'cars' ? plan.carsLastModified : null,
      }));
      return new Response(sitemapIndexXml(origin, index), { headers: XML_HEADERS });
    }
    return new Response(xmlStream(urlsetChunks(origin, await singleFileEntries(tenant, plan, now))), { headers: XML_HEADERS });
  });
}

/** /sitemaps/{kind}-{n}.xml: one part of the index; 404 for a part the index does not list. */
export function sitemapPartResponse(requestHost: string | null, name: string, options: { maxUrls?: number } = {}): Promise<Response> {
  const part = parsePartName(name);
  if (!part) return Promise.resolve(notFound());
  return withTenant(requestHost, async (tenant, host) => {
    const now = new Date();
    const plan = await sitemapPlan(tenant, { now, maxUrls: options.maxUrls });
    const entries = await partEntries(tenant, plan, part, now);
    if (!entries) return notFound();
    return new Response(xmlStream(urlsetChunks(siteOrigin(tenant, host), [entries])), { headers: XML_HEADERS });
  });
}

/** robots.txt of a website: crawl the site, not its APIs and private pages; where the sitemap is. */
export function robotsTxt(tenant: Tenant, host: string): string {
  const origin = siteOrigin(tenant, host);
  const disallow = ['/api/', '/checkout', '/success', garagePath(tenant)];
  return [
    'User-agent: *',
    'Allow: /',
    ...disallow.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', origin).toString()}`,
    '',
  ].join('\n');
}

export function robotsResponse(requestHost: string | null): Promise<Response> {
  return withTenant(requestHost, async (tenant, host) => new Response(robotsTxt(tenant, host), { headers: TEXT_HEADERS }));
}
