import { carSocialImageResponse } from '@/modules/stock/car-social-image';
import { requestHost } from '@/modules/tenancy/tenancy.request';

export const dynamic = 'force-dynamic';

/** The car's Open Graph image, 1200×630 (see carSocialImageResponse). */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  return carSocialImageResponse(request, await requestHost(), (await params).slug);
}
