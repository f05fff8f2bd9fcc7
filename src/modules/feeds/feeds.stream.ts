import 'server-only';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { GOOGLE_TAIL, googleHead, googleItem } from './feeds.google';
import { metaHeader, metaRecord } from './feeds.meta';
import { feedCarBatches, feedContext } from './feeds.queries';
import type { FeedCar, FeedContext, FeedKind } from './feeds.types';

/**
 * A feed's text as a sequence of chunks (the route streams them; bench:feeds times them). Free of
 * Next's request machinery, so scripts can import it.
 */

const WRITERS: Record<FeedKind, { contentType: string; head: (c: FeedContext) => string; item: (car: FeedCar, c: FeedContext) => string; tail: string }> = {
  meta: { contentType: 'text/csv; charset=utf-8', head: () => metaHeader(), item: metaRecord, tail: '' },
  google: { contentType: 'application/xml; charset=utf-8', head: googleHead, item: googleItem, tail: GOOGLE_TAIL },
};

export const FEED_CONTENT_TYPES: Record<FeedKind, string> = { meta: WRITERS.meta.contentType, google: WRITERS.google.contentType };

/** The feed's text, chunk by chunk: the head, one chunk per page of cars, the tail. */
export async function* feedChunks(tenant: Tenant, host: string, kind: FeedKind, options: { now?: Date; batchSize?: number } = {}): AsyncGenerator<string> {
  const writer = WRITERS[kind];
  const context = await feedContext(tenant, host);
  const write = (batch: FeedCar[]) => batch.map((car) => writer.item(car, context)).join('');
  const batches = feedCarBatches(tenant, kind, options);
  // The head goes out with the first page of cars, so a failing query fails the response before it starts.
  const first = await batches.next();
  yield writer.head(context) + (first.done ? '' : write(first.value));
  for await (const batch of batches) {
    if (batch.length > 0) yield write(batch);
  }
  if (writer.tail) yield writer.tail;
}
