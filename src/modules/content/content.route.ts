import type { Metadata } from 'next';
import type { ContentPage } from './content.types';

/** Helpers shared by the content routes (app/(site)/…). Pure. */

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A redirect target keeping the request's query string. */
export async function withQuery(path: string, searchParams?: SearchParams): Promise<string> {
  if (!searchParams) return path;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    for (const v of Array.isArray(value) ? value : value == null ? [] : [value]) query.append(key, v);
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Title, meta description and canonical path of a content page. */
export function contentMetadata(page: Pick<ContentPage, 'title' | 'metaDescription'>, canonicalPath: string): Metadata {
  return {
    title: page.title,
    description: page.metaDescription || undefined,
    alternates: { canonical: canonicalPath },
  };
}

/**
 * Metadata of a content URL that answers 404 (the not-found page keeps the dealer's title
 * template). No robots entry: Next adds <meta name="robots" content="noindex"> to every 404
 * itself, and a second one would only repeat it.
 */
export const NOT_FOUND_METADATA: Metadata = { title: 'Page not found' };
