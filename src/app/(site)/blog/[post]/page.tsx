import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { resolveContentRequest } from '@/modules/content/content.queries';
import { contentMetadata, NOT_FOUND_METADATA, withQuery, type SearchParams } from '@/modules/content/content.route';
import { ContentPageView } from '@/modules/content/components/content-page-view';
import { cachePageWhileWebsiteHolds, requireTenant } from '@/modules/tenancy/tenancy.request';

/** /blog/{slug}: one blog post. A slug of another kind of page redirects to that page's path. */

type Props = { params: Promise<{ post: string }>; searchParams: SearchParams };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  const { post } = await params;
  await cachePageWhileWebsiteHolds(tenant);
  const result = await resolveContentRequest(tenant, post, `/blog/${post}`);
  if (result.status === 'not-found') return NOT_FOUND_METADATA;
  if (result.status !== 'found') return {};
  return {
    ...contentMetadata(result.page, result.canonicalPath),
    openGraph: { type: 'article', title: result.page.title, publishedTime: result.page.publishedAt.toISOString() },
  };
}

export default async function BlogPostPage({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  const { post } = await params;
  await cachePageWhileWebsiteHolds(tenant);
  const result = await resolveContentRequest(tenant, post, `/blog/${post}`);
  if (result.status === 'not-found') notFound();
  if (result.status === 'redirect') permanentRedirect(await withQuery(result.location, searchParams));
  return <ContentPageView tenant={tenant} page={result.page} />;
}
