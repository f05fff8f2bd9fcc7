import 'server-only';
import sharp from 'sharp';
import { isDatabaseUnavailable } from '@/db/errors';
import { logger } from '@/lib/logger';
import { isValidMediaKey, readMedia } from '@/lib/media';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { isOptimizable } from './components/car-image';
import { getCarBySlug } from './stock.queries';
import { isValidCarSlug } from './stock.rules';
import type { CarImage } from './stock.types';

/** SPEC §9 social image: 1200×630. */
export const SOCIAL_IMAGE = { width: 1200, height: 630 } as const;
const MEDIA_PREFIX = '/media/';

/** The media key of a photo the server can read and crop, or null (an outside address). */
export function socialImageKey(image: Pick<CarImage, 'url'> | null | undefined): string | null {
  if (!image || !isOptimizable(image.url)) return null;
  const key = image.url.slice(MEDIA_PREFIX.length);
  return isValidMediaKey(key) ? key : null;
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * GET {car page}/social-image: the car's first photo cropped to 1200×630 JPEG for Open Graph
 * cards. 404 for anything the car page would not show, or a car without a stored photo.
 */
export async function carSocialImageResponse(params: Promise<{ host: string; slug: string }>): Promise<Response> {
  const { host, slug } = await params;
  if (!isValidCarSlug(slug)) return notFound();
  try {
    const tenant = await findTenantByHost(decodeURIComponent(host));
    if (!tenant) return notFound();
    const car = await getCarBySlug(tenant, slug);
    const key = socialImageKey(car?.images[0] ?? car?.image);
    const file = key ? await readMedia(key) : null;
    if (!file) return notFound();
    const jpeg = await sharp(file.bytes)
      .resize(SOCIAL_IMAGE.width, SOCIAL_IMAGE.height, { fit: 'cover', position: 'attention' })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
    return new Response(new Uint8Array(jpeg), {
      headers: {
        'Content-Type': 'image/jpeg',
        'Content-Length': String(jpeg.length),
        'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      return new Response('Unavailable', { status: 503, headers: { 'Retry-After': '30', 'Cache-Control': 'no-store' } });
    }
    // An unreadable stored photo: the card goes without an image rather than erroring.
    logger.error({ err: error, host, slug }, 'social image failed');
    return notFound();
  }
}
