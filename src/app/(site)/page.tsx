import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { env } from '@/lib/env';
import { listContent } from '@/modules/content/content.queries';
import { LatestPosts } from '@/modules/content/components/latest-posts';
import { ReviewsBlock } from '@/modules/locations/components/reviews-block';
import { FeaturedCars } from '@/screens/featured-cars';
import { DemoDirectory } from '@/modules/tenancy/components/demo-directory';
import { HomeHero } from '@/modules/tenancy/components/home-hero';
import { CarTypeLinks, HelpLinks } from '@/modules/tenancy/components/home-sections';
import { buildNavEntries, carTypeQuickLinks } from '@/modules/tenancy/components/navigation-model';
import { isLoopbackHost } from '@/lib/host';
import { findTenantByHost, getNavigation, listDemoSites } from '@/modules/tenancy/tenancy.queries';
import { requestHost } from '@/modules/tenancy/tenancy.request';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { stockListingVersion } from '@/modules/stock/stock.queries';

export async function generateMetadata(): Promise<Metadata> {
  const host = await requestHost();
  const tenant = host ? await findTenantByHost(host) : null;
  if (!tenant) return { title: env().demoMode && host && isLoopbackHost(host) ? 'Dealer websites' : 'Page not found' };
  // The layout's default title is the dealer's name; the home page keeps it.
  return { alternates: { canonical: '/' } };
}

/** The port of the request, for links to the demo sites on the same server. */
async function requestPort(): Promise<string | null> {
  const host = (await headers()).get('host') ?? '';
  const match = /:(\d+)$/.exec(host);
  return match ? match[1] : null;
}

export default async function HomePage() {
  const host = await requestHost();
  const tenant = host ? await findTenantByHost(host) : null;
  if (!tenant) {
    if (env().demoMode && host && isLoopbackHost(host)) {
      return <DemoDirectory sites={await listDemoSites()} port={await requestPort()} />;
    }
    notFound();
  }

  // The same for every visitor: served from the page cache until the website's data or cars change.
  await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
  const [navigation, posts] = await Promise.all([getNavigation(tenant), listContent(tenant, 'blog', { limit: 3 })]);
  const quickLinks = carTypeQuickLinks(buildNavEntries(tenant, [...navigation.header, ...navigation.footer]));

  return (
    <>
      <HomeHero tenant={tenant} />
      <CarTypeLinks tenant={tenant} links={quickLinks} />
      <FeaturedCars tenant={tenant} />
      <ReviewsBlock tenant={tenant} />
      <HelpLinks tenant={tenant} />
      <LatestPosts tenant={tenant} posts={posts} />
    </>
  );
}
