import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { canonicalContentPath } from '@/modules/tenancy/tenancy.links';
import type { ContentPage, ContentResolution } from './content.types';

/**
 * Listing pages served at fixed top-level paths (SPEC §2 Contact and location pages): they list
 * the website's career pages, with the page of the same slug, if any, as their introduction.
 */
export const CAREER_LISTING_SLUGS = ['careers', 'current-positions'] as const;

export function isCareerListingSlug(slug: string): slug is (typeof CAREER_LISTING_SLUGS)[number] {
  return (CAREER_LISTING_SLUGS as readonly string[]).includes(slug);
}

/**
 * The path a content page answers at: its canonical path, except that the page of a career
 * listing's slug is the introduction of /careers or /current-positions, which live at the top level.
 */
export function contentPagePath(config: Pick<WebsiteConfig, 'usePagesPath'>, page: { slug: string; kind?: string }): string {
  return page.kind !== 'blog' && isCareerListingSlug(page.slug) ? `/${page.slug}` : canonicalContentPath(config, page);
}

/** The decision behind every content URL; see resolveContentRequest. */
export function contentRouteDecision(
  config: Pick<WebsiteConfig, 'usePagesPath'>,
  page: ContentPage | null,
  requestedPath: string,
): ContentResolution {
  if (!page) return { status: 'not-found' };
  const canonicalPath = canonicalContentPath(config, page);
  if (canonicalPath !== requestedPath) return { status: 'redirect', location: canonicalPath };
  return { status: 'found', page, canonicalPath };
}
