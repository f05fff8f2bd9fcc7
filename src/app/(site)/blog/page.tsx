import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/page-header';
import { Container } from '@/components/ui/container';
import { listContent } from '@/modules/content/content.queries';
import { ContentList } from '@/modules/content/components/content-list';
import { cachePageWhileWebsiteHolds, requireTenant } from '@/modules/tenancy/tenancy.request';

/** /blog: the dealer's blog posts, newest first. */

export async function generateMetadata(): Promise<Metadata> {
  const tenant = await requireTenant();
  return {
    title: 'News',
    description: `News, reviews and offers from ${tenant.name}.`,
    alternates: { canonical: '/blog' },
  };
}

export default async function BlogIndexPage() {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const posts = await listContent(tenant, 'blog');
  return (
    <>
      <PageHeader
        title="News"
        lead={`News, reviews and offers from ${tenant.name}.`}
        breadcrumbs={[{ label: 'Home', href: '/' }, { label: 'News' }]}
      />
      <Container className="py-10 md:py-14">
        {posts.length > 0 ? (
          <ContentList tenant={tenant} items={posts} showDate readMoreLabel="Read more" />
        ) : (
          <p className="rounded-site border border-dashed border-gray-300 bg-gray-50 p-6 text-gray-700">
            No news yet. Check back soon.
          </p>
        )}
      </Container>
    </>
  );
}
