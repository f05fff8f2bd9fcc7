import { sitemapResponse } from '@/modules/content/sitemap.route';
import { requestHost } from '@/modules/tenancy/tenancy.request';

export const dynamic = 'force-dynamic';

/** The website's sitemap: one urlset, or an index of /sitemaps/{part}.xml past 50,000 URLs. */
export async function GET() {
  return sitemapResponse(await requestHost());
}
