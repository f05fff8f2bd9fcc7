import type { Metadata } from 'next';
import { requireHost, requireTenant } from '@/modules/tenancy/tenancy.request';
import { requireSearchListing, SearchPage, searchMetadata, type RawSearchParams } from '@/screens/search-page';

type Props = { params: Promise<{ segments: string[] }>; searchParams: Promise<RawSearchParams> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const tenant = await requireTenant();
  const listing = await requireSearchListing(tenant, (await params).segments);
  return searchMetadata(tenant, await requireHost(), listing, await searchParams);
}

export default async function Page({ params, searchParams }: Props) {
  const tenant = await requireTenant();
  const listing = await requireSearchListing(tenant, (await params).segments);
  return <SearchPage tenant={tenant} listing={listing} raw={await searchParams} />;
}
