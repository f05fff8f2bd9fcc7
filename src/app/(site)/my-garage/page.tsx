import type { Metadata } from 'next';
import type { SearchParams } from '@/modules/content/content.route';
import { GARAGE_METADATA, isGaragePath } from '@/modules/identity/identity.route';
import { requireTenant } from '@/modules/tenancy/tenancy.request';
import { TopLevelContentPage, topLevelContentMetadata } from '@/screens/content-page';
import { GaragePage } from '@/screens/garage-page';

/**
 * The default garage path has a route of its own: served by [page], the garage loaded the client
 * code of every page [page] can render (the finance page's dialog, the search page's save button
 * and filters). On a website whose garage is elsewhere or off, /my-garage is what [page] makes of
 * it: a content page of that slug, or the 404.
 */

const SLUG = 'my-garage';
type Props = { searchParams: SearchParams };

export async function generateMetadata(): Promise<Metadata> {
  const tenant = await requireTenant();
  return isGaragePath(tenant, `/${SLUG}`) ? GARAGE_METADATA : topLevelContentMetadata(tenant, SLUG);
}

export default async function MyGarageRoute({ searchParams }: Props) {
  const tenant = await requireTenant();
  if (isGaragePath(tenant, `/${SLUG}`)) return <GaragePage tenant={tenant} />;
  return <TopLevelContentPage tenant={tenant} slug={SLUG} searchParams={searchParams} />;
}
