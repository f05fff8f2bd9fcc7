import Link from 'next/link';
import { Container } from '@/components/ui/container';
import { ArrowRightIcon } from '@/components/ui/icons';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import type { ContentSummary } from '../content.types';
import { ContentList } from './content-list';

/** The home page's newest blog posts; nothing when the dealer has none. */
export function LatestPosts({ tenant, posts }: { tenant: Pick<Tenant, 'config'>; posts: ContentSummary[] }) {
  if (posts.length === 0) return null;
  return (
    <section aria-labelledby="latest-posts" className="border-t border-gray-200 bg-gray-50 py-10 md:py-14">
      <Container>
        <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
          <h2 id="latest-posts" className="text-2xl font-extrabold tracking-tight text-gray-900 md:text-3xl">
            Latest news
          </h2>
          <Link
            href="/blog"
            prefetch={false}
            className="inline-flex items-center gap-1 rounded-sm font-semibold text-brand-text hover:underline"
          >
            All news
            <ArrowRightIcon size={18} />
          </Link>
        </div>
        <ContentList tenant={tenant} items={posts} showDate readMoreLabel="Read more" headingLevel="h3" />
      </Container>
    </section>
  );
}
