import { feedResponse } from '@/modules/feeds/feeds.route';

export const dynamic = 'force-dynamic';

/** The website's vehicle-ad feeds: /feeds/meta-vehicles.csv and /feeds/google-vehicles.xml (decision 038). */
export async function GET(_request: Request, { params }: { params: Promise<{ host: string; file: string }> }) {
  const { host, file } = await params;
  return feedResponse(decodeURIComponent(host), file);
}
