import type { Metadata } from 'next';
import type { SearchParams } from '@/modules/content/content.route';
import { requireHost, requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { GARAGE_METADATA, isGaragePath } from '@/modules/identity/identity.route';
import { TopLevelContentPage, topLevelContentMetadata } from '@/screens/content-page';
import { GaragePage } from '@/screens/garage-page';
import { FINANCE_METADATA } from '@/modules/finance/finance.route';
import { FinancePage } from '@/screens/finance-page';
import { requireSearchListing, SearchPage, searchMetadata } from '@/screens/search-page';

/**
 * Top-level content pages: /about-us, /terms-and-conditions, /privacy-policy, … and, on websites
 * without a pages path, every page. A page whose canonical path is /pages/{slug} redirects there.
 * A website's configured top-level all-stock path (search.allStockPath, e.g. /pre-owned), garage
 * path and pre-approval path are its stock list, garage and finance page. (/careers,
 * /current-positions and the default garage path /my-garage have routes of their own.)
 */

type Props = { params: Promise<{ page: string }>; searchParams: SearchParams };

function isAllStockPath(tenant: Tenant, slug: string): boolean {
  return tenant.config.search.allStockPath === `/${slug}`;
}

/** The all-stock path lists what /search/{that slug} lists, under its own URL. */
function allStockListing(tenant: Tenant, slug: string) {
  return requireSearchListing(tenant, [slug], `/${slug}`);
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  const { page: slug } = await params;
  if (isGaragePath(tenant, `/${slug}`)) return GARAGE_METADATA;
  // A template's own pre-approval path (the SPEC §2 finance paths have routes of their own).
  if (tenant.config.finance.preApprovalPath === `/${slug}`) return FINANCE_METADATA;
  if (isAllStockPath(tenant, slug)) {
    return searchMetadata(tenant, await requireHost(), await allStockListing(tenant, slug), await searchParams);
  }
  // Content pages (the stock list and the finance page opt in to the page cache themselves; the garage is the visitor's own).
  return topLevelContentMetadata(tenant, slug);
}

export default async function TopLevelPage({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  const { page: slug } = await params;
  if (isGaragePath(tenant, `/${slug}`)) return <GaragePage tenant={tenant} />;
  if (tenant.config.finance.preApprovalPath === `/${slug}`) return <FinancePage tenant={tenant} query={await searchParams} />;

  if (isAllStockPath(tenant, slug)) {
    return <SearchPage tenant={tenant} listing={await allStockListing(tenant, slug)} raw={await searchParams} />;
  }
  return <TopLevelContentPage tenant={tenant} slug={slug} searchParams={searchParams} />;
}
