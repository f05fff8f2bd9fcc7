import { robotsResponse } from '@/modules/content/sitemap.route';
import { requestHost } from '@/modules/tenancy/tenancy.request';

export const dynamic = 'force-dynamic';

/** The website's robots.txt, naming its sitemap. */
export async function GET() {
  return robotsResponse(await requestHost());
}
