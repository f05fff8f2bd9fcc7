import 'server-only';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { stockListingVersion } from '@/modules/stock/server';
import { DATABASE_UNAVAILABLE, lookupTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { FEED_CONTENT_TYPES, feedChunks } from './feeds.stream';
import { FEED_FILES, type FeedKind } from './feeds.types';

/**
 * GET /feeds/{file} of a website (thin route: app/(site)/feeds/[file]/route.ts): the website
 * from the request's host, like the sitemap (decision 015); 404 for an unknown host (or null: a
 * Host header that is not a host name), an unknown file or a feed the website turned off; the body
 * streamed a page of cars at a time; served again from the page cache while the website's stock
 * and configuration stay the same (decision 016).
 */

function notFound(): Response {
  return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

function unavailable(): Response {
  return new Response('The service is unavailable; try again shortly.\n', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30', 'Cache-Control': 'no-store' },
  });
}

export function feedKind(file: string): FeedKind | null {
  return Object.hasOwn(FEED_FILES, file) ? FEED_FILES[file as keyof typeof FEED_FILES] : null;
}

export function feedEnabled(tenant: Pick<Tenant, 'config'>, kind: FeedKind): boolean {
  return tenant.config.feeds[kind].enabled;
}

/** A response body from string chunks; `first` (already read) goes out before the rest. */
function textStream(chunks: AsyncGenerator<string>, first: string | null): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending = first;
  return new ReadableStream({
    async pull(controller) {
      if (pending !== null) {
        controller.enqueue(encoder.encode(pending));
        pending = null;
        return;
      }
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

export async function feedResponse(host: string | null, file: string, options: { now?: Date; batchSize?: number } = {}): Promise<Response> {
  const kind = feedKind(file);
  if (!kind || !host) return notFound();
  const tenant = await lookupTenant(host);
  if (tenant === DATABASE_UNAVAILABLE) return unavailable();
  if (!tenant || !feedEnabled(tenant, kind)) return notFound();
  await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
  const chunks = feedChunks(tenant, host, kind, options);
  // The first chunk (the head and the first page of cars) is read before answering, so a failing
  // query is an error status rather than a 200 cut off mid-file.
  const first = await chunks.next();
  const body = textStream(chunks, first.done ? null : first.value);
  return new Response(body, {
    headers: {
      'Content-Type': FEED_CONTENT_TYPES[kind],
      'Cache-Control': 'public, max-age=600',
      'X-Content-Type-Options': 'nosniff',
      // For the ad platforms, not for search results.
      'X-Robots-Tag': 'noindex',
    },
  });
}
