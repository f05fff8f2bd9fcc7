import type { Metadata } from 'next';
import { CareersEnquirySection } from '@/modules/leads/components/careers-enquiry';
import { cachePageWhileWebsiteHolds, requireTenant } from '@/modules/tenancy/tenancy.request';
import { getContentPage, listContent } from '@/modules/content/content.queries';
import { contentMetadata } from '@/modules/content/content.route';
import type { CAREER_LISTING_SLUGS } from '@/modules/content/content.routing';
import { CareersListing } from '@/modules/content/components/careers-listing';

/**
 * /careers and /current-positions: the career pages listed under the introduction page of that
 * slug, with the careers enquiry form under them. Routes of their own rather than branches of the
 * catch-all route, so the form's JavaScript loads only here (Turbopack ships every client
 * component a route segment can import; decision 033).
 */

type ListingSlug = (typeof CAREER_LISTING_SLUGS)[number];

const LISTING_TITLES: Record<ListingSlug, string> = { careers: 'Careers', 'current-positions': 'Current positions' };

export async function careersMetadata(slug: ListingSlug): Promise<Metadata> {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const intro = await getContentPage(tenant, slug);
  return contentMetadata({ title: intro?.title ?? LISTING_TITLES[slug], metaDescription: intro?.metaDescription ?? '' }, `/${slug}`);
}

export async function CareersPage({ slug }: { slug: ListingSlug }) {
  const tenant = await requireTenant();
  await cachePageWhileWebsiteHolds(tenant);
  const [intro, positions] = await Promise.all([getContentPage(tenant, slug), listContent(tenant, 'career')]);
  return (
    <>
      <CareersListing tenant={tenant} title={intro?.title ?? LISTING_TITLES[slug]} intro={intro} positions={positions} />
      <CareersEnquirySection tenant={tenant} />
    </>
  );
}
