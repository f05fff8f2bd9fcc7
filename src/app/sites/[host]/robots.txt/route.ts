import { robotsResponse } from '@/modules/content/sitemap.route';
import { hostFromParams, type HostParams } from '@/modules/tenancy/tenancy.request';

export const dynamic = 'force-dynamic';

/** The website's robots.txt, naming its sitemap. */
export async function GET(_request: Request, { params }: { params: HostParams }) {
  return robotsResponse(await hostFromParams(params));
}
