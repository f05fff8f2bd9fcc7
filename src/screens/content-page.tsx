import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { resolveContentRequest } from '@/modules/content/content.queries';
import { contentMetadata, NOT_FOUND_METADATA, withQuery, type SearchParams } from '@/modules/content/content.route';
import { ContentPageView } from '@/modules/content/components/content-page-view';
import { cachePageWhileWebsiteHolds } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';

/**
 * A top-level content page (/about-us, /privacy-policy, …) of a route that also serves something
 * else at a website's configured path: [page] and my-garage. A page whose canonical path is
 * /pages/{slug} redirects there.
 */

export async function topLevelContentMetadata(tenant: Tenant, slug: string): Promise<Metadata> {
  await cachePageWhileWebsiteHolds(tenant);
  const result = await resolveContentRequest(tenant, slug, `/${slug}`);
  if (result.status === 'not-found') return NOT_FOUND_METADATA;
  return result.status === 'found' ? contentMetadata(result.page, result.canonicalPath) : {};
}

export async function TopLevelContentPage({ tenant, slug, searchParams }: { tenant: Tenant; slug: string; searchParams: SearchParams }) {
  await cachePageWhileWebsiteHolds(tenant);
  const result = await resolveContentRequest(tenant, slug, `/${slug}`);
  if (result.status === 'not-found') notFound();
  if (result.status === 'redirect') permanentRedirect(await withQuery(result.location, searchParams));
  return <ContentPageView tenant={tenant} page={result.page} />;
}
