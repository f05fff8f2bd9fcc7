import { sitemapPartResponse } from '@/modules/content/sitemap.route';
import { requestHost } from '@/modules/tenancy/tenancy.request';

export const dynamic = 'force-dynamic';

/** One part of a sitemap index: /sitemaps/pages-1.xml, /sitemaps/cars-2.xml. */
export async function GET(_request: Request, { params }: { params: Promise<{ part: string }> }) {
  return sitemapPartResponse(await requestHost(), (await params).part);
}
