import { isValidMediaKey, mediaResponseHeaders, readMedia } from '@/lib/media';

// Files are read at request time from the media directory, never prerendered.
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ path?: string[] }> };

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' },
  });
}

/**
 * GET /media/{key}: a stored file with a year-long immutable cache. Anything that is not a valid
 * key (traversal, absolute paths, odd characters, unknown extensions) is a 404 before the file
 * system is touched.
 */
export async function GET(_request: Request, context: Context): Promise<Response> {
  const segments = (await context.params).path ?? [];
  const key = segments.join('/');
  if (!isValidMediaKey(key)) return notFound();
  const file = await readMedia(key);
  if (!file) return notFound();
  return new Response(new Uint8Array(file.bytes), {
    status: 200,
    headers: { ...mediaResponseHeaders(key), 'Content-Length': String(file.bytes.length) },
  });
}
