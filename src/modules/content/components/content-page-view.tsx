import { PageHeader, type Crumb } from '@/components/ui/page-header';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { renderFaq, renderMarkdown } from '../content.render';
import type { ContentPage } from '../content.types';
import { ContentLayout } from './content-layout';
import { ContentBody } from './content-body';
import { FaqAccordion } from './faq-accordion';
import { formatPublishedDate } from './format-date';

/** A content page, FAQ or career page; blog posts add their date and a trail through /blog. */
export function ContentPageView({ tenant, page }: { tenant: Tenant; page: ContentPage }) {
  const breadcrumbs: Crumb[] = [{ label: 'Home', href: '/' }];
  if (page.kind === 'blog') breadcrumbs.push({ label: 'News', href: '/blog' });
  if (page.kind === 'career') breadcrumbs.push({ label: 'Careers', href: '/careers' });
  breadcrumbs.push({ label: page.title });

  const lead =
    page.kind === 'blog' ? (
      <p className="text-base text-gray-600">
        <time dateTime={page.publishedAt.toISOString()}>{formatPublishedDate(tenant.config, page.publishedAt)}</time>
      </p>
    ) : null;

  if (page.kind === 'faq') {
    const faq = renderFaq(page.body, { tenant });
    return (
      <>
        <PageHeader title={page.title} breadcrumbs={breadcrumbs} />
        <ContentLayout tenant={tenant}>
          <ContentBody html={faq.introHtml} className="mb-8" />
          {faq.items.length > 0 ? <FaqAccordion items={faq.items} /> : null}
        </ContentLayout>
      </>
    );
  }

  return (
    <>
      <PageHeader title={page.title} breadcrumbs={breadcrumbs} lead={lead} />
      <ContentLayout tenant={tenant}>
        <article>
          <ContentBody html={renderMarkdown(page.body, { tenant })} />
        </article>
      </ContentLayout>
    </>
  );
}
