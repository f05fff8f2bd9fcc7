/**
 * Sitemap XML (sitemaps.org protocol 0.9), written as a sequence of string chunks so a response
 * can stream it. Pure and client-safe; the URLs come from sitemap.queries.ts.
 */

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** The protocol's limits for one file: 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 52_428_800;

export type SitemapEntry = {
  /** A path of the website (/cars/x) or an absolute URL. */
  path: string;
  lastModified?: Date | null;
};

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Text for an XML element: the five characters XML reserves, escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/** W3C Datetime in UTC to the second, e.g. 2026-03-01T09:00:00Z. */
export function w3cDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Paths that need neither percent-encoding nor XML escaping (every car and slug path). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~/]*$/;

/** The absolute URL of a path, XML-escaped. Plain paths skip the URL parser: 50,000 of them add up. */
function loc(origin: URL, path: string): string {
  return PLAIN_PATH.test(path) && !path.startsWith('//') ? `${origin.origin}${path}` : escapeXml(new URL(path, origin).toString());
}

function urlElement(origin: URL, entry: SitemapEntry): string {
  const location = loc(origin, entry.path);
  const lastmod = entry.lastModified && !Number.isNaN(entry.lastModified.getTime()) ? `<lastmod>${w3cDateTime(entry.lastModified)}</lastmod>` : '';
  return `<url><loc>${location}</loc>${lastmod}</url>\n`;
}

/**
 * A <urlset> of the entries, chunk by chunk: the opening, then one chunk per batch of URLs, then
 * the closing tag. `batches` may be an async source (database pages), so nothing waits for all rows.
 */
export async function* urlsetChunks(origin: URL, batches: AsyncIterable<SitemapEntry[]> | Iterable<SitemapEntry[]>): AsyncGenerator<string> {
  yield `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}">\n`;
  for await (const batch of batches) {
    if (batch.length > 0) yield batch.map((entry) => urlElement(origin, entry)).join('');
  }
  yield '</urlset>\n';
}

/** A <sitemapindex> naming each part's URL. */
export function sitemapIndexXml(origin: URL, parts: SitemapEntry[]): string {
  const items = parts
    .map((part) => {
      const lastmod = part.lastModified ? `<lastmod>${w3cDateTime(part.lastModified)}</lastmod>` : '';
      return `<sitemap><loc>${loc(origin, part.path)}</loc>${lastmod}</sitemap>\n`;
    })
    .join('');
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${items}</sitemapindex>\n`;
}

/** A streamed XML response body from string chunks. */
export function xmlStream(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}

export async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
