import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { getContentPage, listContent, resolveContentRequest } from '@/modules/content/content.queries';
import { contentMetadata, NOT_FOUND_METADATA, withQuery, type SearchParams } from '@/modules/content/content.route';
import { isCareerListingSlug } from '@/modules/content/content.routing';
import { CareersListing } from '@/modules/content/components/careers-listing';
import { ContentPageView } from '@/modules/content/components/content-page-view';
import { cachePageWhileWebsiteHolds, hostFromParams, requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { GARAGE_METADATA, isGaragePath } from '@/modules/identity/identity.route';
import { FINANCE_METADATA } from '@/modules/finance/finance.route';

/**
 * Top-level content pages: /about-us, /terms-and-conditions, /privacy-policy, … and, on websites
 * without a pages path, every page. A page whose canonical path is /pages/{slug} redirects there.
 * /careers and /current-positions list the career pages, with the careers enquiry form under them. A website's configured top-level
 * all-stock path (search.allStockPath, e.g. /pre-owned) is its stock list.
 */

type Props = { params: Promise<{ host: string; page: string }>; searchParams: SearchParams };

function isAllStockPath(tenant: Tenant, slug: string): boolean {
  return tenant.config.search.allStockPath === `/${slug}`;
}

/**
 * This route serves content pages, the careers list, the garage, a finance page and the all-stock
 * list: each branch loads its own page module, so a content page does not ship the search, garage
 * or form islands of the others (decision 032).
 */
const searchPageModule = () => import('@/modules/stock/components/search-page');

/** The all-stock path lists what /search/{that slug} lists, under its own URL. */
async function allStockListing(tenant: Tenant, slug: string) {
  const { requireSearchListing } = await searchPageModule();
  return requireSearchListing(tenant, [slug], `/${slug}`);
}

const LISTING_TITLES = { careers: 'Careers', 'current-positions': 'Current positions' } as const;

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const tenant = await requireTenant(params);
  const { page: slug } = await params;
  if (isGaragePath(tenant, `/${slug}`)) return GARAGE_METADATA;
  // A template's own pre-approval path (the SPEC §2 finance paths have routes of their own).
  if (tenant.config.finance.preApprovalPath === `/${slug}`) return FINANCE_METADATA;
  if (isAllStockPath(tenant, slug)) {
    const { searchMetadata } = await searchPageModule();
    return searchMetadata(tenant, await hostFromParams(params), await allStockListing(tenant, slug), await searchParams);
  }
  // Content and careers pages (the stock list and the finance page opt in themselves; the garage is the visitor's own).
  await cachePageWhileWebsiteHolds(tenant);
  if (isCareerListingSlug(slug)) {
    const intro = await getContentPage(tenant, slug);
    return contentMetadata(
      { title: intro?.title ?? LISTING_TITLES[slug], metaDescription: intro?.metaDescription ?? '' },
      `/${slug}`,
    );
  }
  const result = await resolveContentRequest(tenant, slug, `/${slug}`);
  if (result.status === 'not-found') return NOT_FOUND_METADATA;
  return result.status === 'found' ? contentMetadata(result.page, result.canonicalPath) : {};
}

export default async function TopLevelContentPage({ params, searchParams }: Props) {
  const tenant = await requireTenant(params);
  const { page: slug } = await params;
  if (isGaragePath(tenant, `/${slug}`)) {
    const { GaragePage } = await import('@/modules/identity/components/garage-page');
    return <GaragePage tenant={tenant} />;
  }
  if (tenant.config.finance.preApprovalPath === `/${slug}`) {
    const { FinancePage } = await import('@/modules/finance/components/finance-page');
    return <FinancePage tenant={tenant} query={await searchParams} />;
  }

  if (isAllStockPath(tenant, slug)) {
    const { SearchPage } = await searchPageModule();
    return <SearchPage tenant={tenant} listing={await allStockListing(tenant, slug)} raw={await searchParams} />;
  }

  await cachePageWhileWebsiteHolds(tenant);
  if (isCareerListingSlug(slug)) {
    const [intro, positions, { CareersEnquirySection }] = await Promise.all([
      getContentPage(tenant, slug),
      listContent(tenant, 'career'),
      import('@/modules/leads/components/careers-enquiry'),
    ]);
    return (
      <>
        <CareersListing tenant={tenant} title={intro?.title ?? LISTING_TITLES[slug]} intro={intro} positions={positions} />
        <CareersEnquirySection tenant={tenant} />
      </>
    );
  }

  const result = await resolveContentRequest(tenant, slug, `/${slug}`);
  if (result.status === 'not-found') notFound();
  if (result.status === 'redirect') permanentRedirect(await withQuery(result.location, searchParams));
  return <ContentPageView tenant={tenant} page={result.page} />;
}
