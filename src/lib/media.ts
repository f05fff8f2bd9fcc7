import 'server-only';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { env } from '@/lib/env';

/**
 * Media storage. The local default keeps files under MEDIA_DIR (default `${DATA_DIR}/media`) and
 * serves them at /media/{key} (src/app/media/[...path]/route.ts). A key is a safe relative path:
 * lowercase letters, digits, '-' and '_' in '/'-separated segments, and one allowed extension. No
 * dots elsewhere, so '..', hidden files, absolute paths, backslashes and NUL can never get through.
 */

export const MEDIA_CONTENT_TYPES = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
} as const;

export type MediaExtension = keyof typeof MEDIA_CONTENT_TYPES;

const MEDIA_KEY = /^[a-z0-9_-]+(?:\/[a-z0-9_-]+)*\.(jpg|jpeg|png|webp|svg|pdf)$/;
const MAX_KEY_LENGTH = 255;

export class InvalidMediaKeyError extends Error {
  constructor(key: string) {
    super(`Invalid media key: ${JSON.stringify(key.slice(0, 80))}`);
    this.name = 'InvalidMediaKeyError';
  }
}

export function isValidMediaKey(key: unknown): key is string {
  return typeof key === 'string' && key.length <= MAX_KEY_LENGTH && MEDIA_KEY.test(key);
}

function assertKey(key: string): void {
  if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
}

/** The content type a key is served with (its extension decides; keys are validated first). */
export function mediaContentType(key: string): string {
  assertKey(key);
  const extension = key.slice(key.lastIndexOf('.') + 1) as MediaExtension;
  return MEDIA_CONTENT_TYPES[extension];
}

/**
 * Response headers for a stored file. SVG may carry script, so it is served with a policy that
 * lets nothing run or load; nosniff keeps browsers from second-guessing any type.
 */
export function mediaResponseHeaders(key: string): Record<string, string> {
  const contentType = mediaContentType(key);
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  };
  if (contentType === MEDIA_CONTENT_TYPES.svg) {
    headers['Content-Security-Policy'] = "default-src 'none'; style-src 'unsafe-inline'";
  }
  return headers;
}

/** Public URL of a stored file (same origin, any tenant host). */
export function mediaUrl(key: string): string {
  assertKey(key);
  return `/media/${key}`;
}

export type StoredMedia = { bytes: Buffer; contentType: string };

/** The media-storage adapter. The local default below is what runs unless another is configured. */
export interface MediaStore {
  put(key: string, bytes: Uint8Array | string): Promise<void>;
  read(key: string): Promise<StoredMedia | null>;
  exists(key: string): Promise<boolean>;
  url(key: string): string;
}

/** Files under `dir`. Writes are atomic (temp file + rename), so a reader never sees half a file. */
export function localMediaStore(dir: string): MediaStore {
  const root = path.resolve(dir);
  const fileFor = (key: string) => {
    assertKey(key);
    const file = path.join(root, ...key.split('/'));
    // Belt and braces: the key pattern already rules this out.
    if (!file.startsWith(root + path.sep)) throw new InvalidMediaKeyError(key);
    return file;
  };
  return {
    async put(key, bytes) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.writeFile(temp, bytes);
        await fs.rename(temp, file);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    async read(key) {
      const file = fileFor(key);
      try {
        const bytes = await fs.readFile(file);
        return { bytes, contentType: mediaContentType(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      const file = fileFor(key);
      try {
        return (await fs.stat(file)).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    url: mediaUrl,
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** Where local media lives: MEDIA_DIR, default `${DATA_DIR}/media` (default `.data/media`). */
export function mediaDir(): string {
  return env().mediaDir;
}

export function mediaStore(): MediaStore {
  return localMediaStore(mediaDir());
}

export function putMedia(key: string, bytes: Uint8Array | string): Promise<void> {
  return mediaStore().put(key, bytes);
}

/** The file and its content type, or null when there is none (an invalid key throws). */
export function readMedia(key: string): Promise<StoredMedia | null> {
  return mediaStore().read(key);
}
