import http from 'node:http';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { isDatabaseUnavailable } from '@/db/errors';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { markServiceUnavailable } from '@/lib/service-unavailable';
import { feedResponse } from '@/modules/feeds/feeds.route';
import { stockListingVersion } from '@/modules/stock/stock.queries';
import { cars } from '@/modules/stock/stock.schema';
import { searchStock } from '@/modules/stock/search/search.service';
import { searchRequestSchema } from '@/modules/stock/search/search.validation';
import { normalizeHost } from '@/lib/host';
import { DATABASE_UNAVAILABLE, lookupTenant } from '@/modules/tenancy/tenancy.request';

/**
 * The application's stock answers without Next's renderer, for tests that run it behind the real
 * request hooks and page cache (database-faults, two-servers; decision 055):
 * - `/cars`: a stock page as the site's pages make one: the tenant lookup (503 with the friendly
 *   text when the database is unavailable), the page cache's stock version, then the website's cars
 *   with their prices and the make facet's counts from the search engine;
 * - `/feeds/{file}`: the vehicle-ad feeds (the real feed handler);
 * anything else 404.
 */
export async function serveStock(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = request.url ?? '/';
  const host = normalizeHost(request.headers.host);
  if (url.startsWith('/feeds/') && host) {
    const answer = await feedResponse(host, url.slice('/feeds/'.length));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body) Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream).pipe(response);
    else response.end();
    return;
  }
  if (!url.startsWith('/cars') || !host) {
    response.writeHead(404).end();
    return;
  }
  try {
    const tenant = await lookupTenant(host);
    if (tenant === DATABASE_UNAVAILABLE) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('Back shortly');
      return;
    }
    if (!tenant) {
      response.writeHead(404).end();
      return;
    }
    await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
    const listed = await (await getDb()).select({ slug: cars.slug, price: cars.price }).from(cars).where(eq(cars.websiteId, tenant.id)).orderBy(cars.id);
    const facets = (await searchStock(tenant, searchRequestSchema.parse({ facets: ['make'] }))).facetDistribution?.make ?? {};
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<h1>${tenant.name}</h1>${listed.map((car) => `<p>${car.slug} ${Number(car.price)}</p>`).join('')}` +
          `<ul>${Object.entries(facets).map(([make, count]) => `<li>make ${make}: ${count}</li>`).join('')}</ul>`,
      );
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    markServiceUnavailable();
    response.writeHead(200, { 'content-type': 'text/html' }).end('Back shortly');
  }
}
