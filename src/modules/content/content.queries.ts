import 'server-only';
import { cache } from 'react';
import { and, asc, desc, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { contentPages } from './content.schema';
import { markdownExcerpt } from './content.render';
import { contentRouteDecision } from './content.routing';
import type { ContentKind, ContentPage, ContentResolution, ContentSummary } from './content.types';

type ContentTenant = Pick<Tenant, 'id' | 'config'>;

const pageColumns = {
  id: contentPages.id,
  slug: contentPages.slug,
  kind: contentPages.kind,
  title: contentPages.title,
  metaDescription: contentPages.metaDescription,
  publishedAt: contentPages.publishedAt,
  updatedAt: contentPages.updatedAt,
};

/**
 * One content page of this website by slug, or null (another website's page never answers).
 * Cached for the request: a page's metadata and body share one query.
 */
export const getContentPage = cache(async (tenant: Pick<Tenant, 'id'>, slug: string): Promise<ContentPage | null> => {
  if (!/^[a-z0-9][a-z0-9-_]*$/i.test(slug)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ ...pageColumns, body: contentPages.body })
    .from(contentPages)
    .where(and(eq(contentPages.websiteId, tenant.id), eq(contentPages.slug, slug.toLowerCase())))
    .limit(1);
  return row ?? null;
});

/**
 * This website's pages of one kind: blog posts and careers newest first, others by title.
 * Published dates in the future are kept (a dealer may date a post ahead); nothing is hidden.
 */
export async function listContent(
  tenant: Pick<Tenant, 'id'>,
  kind: ContentKind,
  options: { limit?: number } = {},
): Promise<ContentSummary[]> {
  const db = await getDb();
  const order =
    kind === 'blog' || kind === 'career'
      ? [desc(contentPages.publishedAt), desc(contentPages.id)]
      : [asc(contentPages.title), asc(contentPages.id)];
  const query = db
    .select({ ...pageColumns, body: contentPages.body })
    .from(contentPages)
    .where(and(eq(contentPages.websiteId, tenant.id), eq(contentPages.kind, kind)))
    .orderBy(...order);
  const rows = await (options.limit ? query.limit(options.limit) : query);
  return rows.map(({ body, ...row }) => ({
    ...row,
    excerpt: row.metaDescription.trim() || markdownExcerpt(body),
  }));
}

/**
 * What a content URL answers: the page when `requestedPath` is its canonical path, a redirect to
 * the canonical path when it is another form of it (/pages/about-us → /about-us), else not found.
 */
export async function resolveContentRequest(
  tenant: ContentTenant,
  slug: string,
  requestedPath: string,
): Promise<ContentResolution> {
  return contentRouteDecision(tenant.config, await getContentPage(tenant, slug), requestedPath);
}
