import Link from 'next/link';
import { ArrowRightIcon } from '@/components/ui/icons';
import { canonicalContentPath } from '@/modules/tenancy/tenancy.links';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import type { ContentSummary } from '../content.types';
import { formatPublishedDate } from './format-date';

type Props = {
  tenant: Pick<Tenant, 'config'>;
  items: ContentSummary[];
  /** Show the publication date (blog posts). */
  showDate?: boolean;
  readMoreLabel: string;
  headingLevel?: 'h2' | 'h3';
};

/** Cards linking to content pages at their canonical paths: the blog index, careers, latest posts. */
export function ContentList({ tenant, items, showDate = false, readMoreLabel, headingLevel = 'h2' }: Props) {
  const Heading = headingLevel;
  return (
    <ul className="grid gap-5 md:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => {
        const href = canonicalContentPath(tenant.config, item);
        return (
          <li key={item.id}>
            <article className="relative flex h-full flex-col rounded-site border border-gray-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-brand hover:shadow-md">
              {showDate ? (
                <p className="text-sm font-medium text-gray-600">
                  <time dateTime={item.publishedAt.toISOString()}>
                    {formatPublishedDate(tenant.config, item.publishedAt)}
                  </time>
                </p>
              ) : null}
              <Heading className="mt-1 text-xl leading-snug font-bold text-gray-900">
                <Link href={href} prefetch={false} className="rounded-sm after:absolute after:inset-0 hover:underline">
                  {item.title}
                </Link>
              </Heading>
              {item.excerpt ? <p className="mt-3 flex-1 text-gray-700">{item.excerpt}</p> : null}
              <p aria-hidden="true" className="mt-4 inline-flex items-center gap-1 font-semibold text-brand-text">
                {readMoreLabel}
                <ArrowRightIcon size={18} />
              </p>
            </article>
          </li>
        );
      })}
    </ul>
  );
}
