import { carSocialImageResponse } from '@/modules/stock/car-social-image';

export const dynamic = 'force-dynamic';

/** The car's Open Graph image, 1200×630 (see carSocialImageResponse). */
export function GET(request: Request, context: { params: Promise<{ host: string; slug: string }> }): Promise<Response> {
  return carSocialImageResponse(request, context.params);
}
