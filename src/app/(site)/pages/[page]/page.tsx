import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { resolveContentRequest } from '@/modules/content/content.queries';
import { contentMetadata, NOT_FOUND_METADATA, withQuery, type SearchParams } from '@/modules/content/content.route';
import { isCareerListingSlug } from '@/modules/content/content.routing';
import { ContentPageView } from '@/modules/content/components/content-page-view';
import { cachePageWhileWebsiteHolds, requireTenant } from '@/modules/tenancy/tenancy.request';

/**
 * /pages/{slug}: the canonical form of content pages on websites that use a pages path (except
 * privacy-policy, terms, about-us and parts-and-accessories pages); anywhere else it redirects
 * (308) to the page's canonical path.
 */

type Props = { params: Promise<{ page: string }>; searchParams: SearchParams };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  const { page: slug } = await params;
  await cachePageWhileWebsiteHolds(tenant);
  const result = await resolveContentRequest(tenant, slug, `/pages/${slug}`);
  if (result.status === 'not-found') return NOT_FOUND_METADATA;
  return result.status === 'found' ? contentMetadata(result.page, result.canonicalPath) : {};
}

export default async function PagesContentPage({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  const { page: slug } = await params;
  if (isCareerListingSlug(slug)) permanentRedirect(await withQuery(`/${slug}`, searchParams));
  await cachePageWhileWebsiteHolds(tenant);

  const result = await resolveContentRequest(tenant, slug, `/pages/${slug}`);
  if (result.status === 'not-found') notFound();
  if (result.status === 'redirect') permanentRedirect(await withQuery(result.location, searchParams));
  return <ContentPageView tenant={tenant} page={result.page} />;
}
