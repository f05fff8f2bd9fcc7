import 'server-only';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { etagMatches } from '@/lib/http';
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
 * Encoded social images by the SHA-256 of their photo's bytes: sharp takes ~85 ms a photo, and a
 * shared link brings every network's crawler at once. Keyed by content, an entry can never be
 * stale (a changed photo is another key); the oldest go first past MAX_ENCODED.
 */
const encoded = new Map<string, Promise<Buffer>>();
const MAX_ENCODED = 200;

function encodedSocialImage(version: string, bytes: Buffer): Promise<Buffer> {
  let jpeg = encoded.get(version);
  if (jpeg) {
    encoded.delete(version);
    encoded.set(version, jpeg);
    return jpeg;
  }
  jpeg = sharp(bytes)
    .resize(SOCIAL_IMAGE.width, SOCIAL_IMAGE.height, { fit: 'cover', position: 'attention' })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
  encoded.set(version, jpeg);
  jpeg.catch(() => encoded.delete(version));
  if (encoded.size > MAX_ENCODED) encoded.delete(encoded.keys().next().value as string);
  return jpeg;
}

/**
 * GET {car page}/social-image: the car's first photo cropped to 1200×630 JPEG for Open Graph
 * cards, on the request's host (null: a Host header that is not a host name). 404 for anything the
 * car page would not show, or a car without a stored photo. The ETag is the photo's content hash
 * (304 to If-None-Match).
 */
export async function carSocialImageResponse(request: Request, host: string | null, slug: string): Promise<Response> {
  if (!host || !isValidCarSlug(slug)) return notFound();
  try {
    const tenant = await findTenantByHost(host);
    if (!tenant) return notFound();
    const car = await getCarBySlug(tenant, slug);
    const key = socialImageKey(car?.images[0] ?? car?.image);
    const file = key ? await readMedia(key) : null;
    if (!file) return notFound();
    const version = createHash('sha256').update(file.bytes).digest('base64url');
    const etag = `"${version.slice(0, 27)}"`;
    const headers = { ETag: etag, 'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800', 'X-Content-Type-Options': 'nosniff' };
    if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    const jpeg = await encodedSocialImage(version, file.bytes);
    return new Response(new Uint8Array(jpeg), { headers: { ...headers, 'Content-Type': 'image/jpeg', 'Content-Length': String(jpeg.length) } });
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      return new Response('Unavailable', { status: 503, headers: { 'Retry-After': '30', 'Cache-Control': 'no-store' } });
    }
    // An unreadable stored photo: the card goes without an image rather than erroring.
    logger.error({ err: error, host, slug }, 'social image failed');
    return notFound();
  }
}
