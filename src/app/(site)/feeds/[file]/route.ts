import { feedResponse } from '@/modules/feeds/feeds.route';
import { requestHost } from '@/modules/tenancy/tenancy.request';

export const dynamic = 'force-dynamic';

/** The website's vehicle-ad feeds: /feeds/meta-vehicles.csv and /feeds/google-vehicles.xml (decision 038). */
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  return feedResponse(await requestHost(), (await params).file);
}
