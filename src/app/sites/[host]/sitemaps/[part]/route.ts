import { sitemapPartResponse } from '@/modules/content/sitemap.route';

export const dynamic = 'force-dynamic';

/** One part of a sitemap index: /sitemaps/pages-1.xml, /sitemaps/cars-2.xml. */
export async function GET(_request: Request, { params }: { params: Promise<{ host: string; part: string }> }) {
  const { host, part } = await params;
  return sitemapPartResponse(decodeURIComponent(host), part);
}
