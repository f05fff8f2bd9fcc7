import { PageHeader } from '@/components/ui/page-header';
import { spell } from '@/lib/format';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { renderMarkdown } from '../content.render';
import type { ContentPage, ContentSummary } from '../content.types';
import { ContentBody } from './content-body';
import { ContentList } from './content-list';
import { ContentLayout } from './content-layout';

type Props = {
  tenant: Tenant;
  title: string;
  /** The page of the listing's own slug, shown above the positions. */
  intro: ContentPage | null;
  positions: ContentSummary[];
};

/** /careers and /current-positions: the dealer's career pages. */
export function CareersListing({ tenant, title, intro, positions }: Props) {
  return (
    <>
      <PageHeader title={title} breadcrumbs={[{ label: 'Home', href: '/' }, { label: title }]} />
      <ContentLayout tenant={tenant}>
        {intro ? <ContentBody html={renderMarkdown(intro.body, { tenant })} className="mb-10" /> : null}
        <h2 className="mb-5 text-2xl font-extrabold tracking-tight text-gray-900">Current positions</h2>
        {positions.length > 0 ? (
          <ContentList tenant={tenant} items={positions} readMoreLabel="View position" headingLevel="h3" />
        ) : (
          <p className="rounded-site border border-dashed border-gray-300 bg-gray-50 p-6 text-gray-700">
            {spell(
              tenant.config,
              'There are no open positions right now. We are always happy to hear from good people: send us a careers enquiry.',
            )}
          </p>
        )}
      </ContentLayout>
    </>
  );
}
