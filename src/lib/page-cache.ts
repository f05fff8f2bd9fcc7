import type http from 'node:http';
import { currentRequestState } from './request-context';
import { normalizeHost } from '@/lib/host';
import { isDatabaseUnavailable } from '@/db/errors';
import { databaseKnownUnavailable } from '@/db/health';

/**
 * A cache of whole rendered pages, checked against the database on every hit.
 *
 * Rendering a stock list costs tens of milliseconds of CPU, and most visitors ask for the same few
 * pages (a dealer's search landing page above all). A page opts in while it renders by calling
 * cachePageWhileVersionHolds() with a function that reads its data's version from the database
 * (for stock: the website's car generation, bumped by triggers in the same transaction as every
 * change). The finished response is kept in memory; a later request for the same host, URL and
 * encoding is answered from it only after that version function returns the same version again,
 * so every replica serves what the database holds, never a page older than the last stock change.
 * Entries also expire after maxAgeMs, for what changes with time alone (the sold-car window), and
 * at the instant a page named with cachePageUntil() (the next opening or closing time it shows).
 *
 * Only anonymous document requests are cached: a request with a cookie, an RSC or router header,
 * or a method other than GET always renders, and only a 200 without Set-Cookie is kept.
 * See docs/decisions/016-page-cache.md.
 *
 * Stale-if-error (decision 055): while the database is unavailable, a page is served as it was
 * stored: when its version cannot be read for that reason, and up to staleIfErrorMs past its age
 * while the process knows the database is not answering (src/db/health.ts). The versions
 * themselves are kept in the process (src/modules/tenancy/tenancy.generations.ts), so a hit
 * normally asks the database nothing.
 */

/** A page's data version: at once when the process knows it (a cache hit then awaits nothing), else read. */
export type VersionOf = () => string | Promise<string>;
export type PageCacheMark = { version: string; versionOf: VersionOf };

export type Entry = {
  version: string;
  versionOf: VersionOf;
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
  expiresAt: number;
};

export type PageCacheOptions = {
  maxBytes: number;
  maxEntryBytes: number;
  maxAgeMs: number;
  /** How long past its age a page is still served while the database is unavailable (0: never). */
  staleIfErrorMs?: number;
  now?: () => number;
  /** Whether the database is known not to be answering (src/db/health.ts). */
  databaseUnavailable?: () => boolean;
};

/** Request headers of client-side navigations and server actions: their answers are not pages. */
const ROUTER_HEADERS = ['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'next-action'];
/** Headers that belong to one connection or one response, never replayed from the cache. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-page-cache']);

export const PAGE_CACHE_HEADER = 'x-page-cache';

/** The cache key of a request, or null when the request must always be rendered. */
export function pageCacheKey(request: http.IncomingMessage): string | null {
  if (request.method !== 'GET') return null;
  const headers = request.headers;
  if (headers.cookie || headers.authorization) return null;
  if (ROUTER_HEADERS.some((name) => headers[name] !== undefined)) return null;
  const url = request.url ?? '';
  if (url.startsWith('/_next/') || url.startsWith('/api/') || /[?&]_rsc=/.test(url)) return null;
  // One key per website however its host is spelt (case, port, trailing dot).
  return `${normalizeHost(headers.host) ?? ''}\n${url}\n${headers['accept-encoding'] ?? ''}`;
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly now: () => number;
  private readonly databaseUnavailable: () => boolean;

  constructor(private readonly options: PageCacheOptions) {
    this.now = options.now ?? (() => Date.now());
    this.databaseUnavailable = options.databaseUnavailable ?? databaseKnownUnavailable;
  }

  get maxEntryBytes(): number {
    return this.options.maxEntryBytes;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The entry for key if it is still current: not expired and its version unchanged; or, while
   * the database is unavailable, as it is (stale-if-error).
   */
  current(key: string): Entry | null | Promise<Entry | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    const now = this.now();
    if (now >= entry.expiresAt) {
      const staleUntil = entry.expiresAt + (this.options.staleIfErrorMs ?? 0);
      if (now < staleUntil && this.databaseUnavailable()) return this.used(key, entry);
      // Kept for stale-if-error until then (a render that succeeds replaces it).
      if (now >= staleUntil) this.delete(key);
      return null;
    }
    let version: string | Promise<string>;
    try {
      version = entry.versionOf();
    } catch (error) {
      return this.unreadable(key, entry, error);
    }
    if (typeof version === 'string') return this.compared(key, entry, version);
    return version.then(
      (read) => this.compared(key, entry, read),
      (error: unknown) => this.unreadable(key, entry, error),
    );
  }

  private compared(key: string, entry: Entry, version: string): Entry | null {
    if (version === entry.version) return this.used(key, entry);
    if (this.entries.get(key) === entry) this.delete(key);
    return null;
  }

  /** The version could not be read: served as it is if that is because the database is unavailable. */
  private unreadable(key: string, entry: Entry, error: unknown): Entry | null {
    return isDatabaseUnavailable(error) && this.entries.get(key) === entry ? this.used(key, entry) : null;
  }

  private used(key: string, entry: Entry): Entry {
    // Least recently used goes first: re-inserting moves the entry to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps a response; `until` (ms) ends its life earlier than maxAgeMs (cachePageUntil). */
  store(key: string, mark: PageCacheMark, status: number, headers: http.OutgoingHttpHeaders, body: Buffer, until: number | null = null): void {
    if (body.length > this.options.maxEntryBytes) return;
    const now = this.now();
    const expiresAt = Math.min(now + this.options.maxAgeMs + 1, until ?? Infinity);
    if (expiresAt <= now) return;
    this.delete(key);
    const kept: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined && !NOT_REPLAYED.has(name.toLowerCase())) kept[name.toLowerCase()] = value;
    }
    this.entries.set(key, { ...mark, status, headers: kept, body, expiresAt });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}

/**
 * Lets the page being rendered be served again from the cache while versionOf() returns what it
 * returns now. Call it before reading the data the page shows: a change in between then only
 * makes the stored page look older than it is, and it is rendered again. Later calls in the same
 * request (a page's metadata and its body both resolving the data) keep the first version, the
 * one read before any of it.
 */
export async function cachePageWhileVersionHolds(versionOf: VersionOf): Promise<void> {
  const state = currentRequestState();
  if (!state || state.pageCache) return;
  const version = await versionOf();
  state.pageCache ??= { version, versionOf };
}

/**
 * The page being rendered reads differently from instantMs on the clock alone (a location turns
 * 'open now' at 8:30, 'Today' moves at midnight): a cached copy is not served from then on. The
 * earliest of several calls wins.
 */
export function cachePageUntil(instantMs: number): void {
  const state = currentRequestState();
  if (state) state.pageCacheUntil = Math.min(state.pageCacheUntil ?? Infinity, instantMs);
}

/** Writes a cached page as the response. */
export function replay(entry: Entry, response: http.ServerResponse): void {
  response.writeHead(entry.status, {
    ...entry.headers,
    'content-length': String(entry.body.length),
    [PAGE_CACHE_HEADER]: 'hit',
  });
  response.end(entry.body);
}

/**
 * Copies what a response writes, for storing once it has finished. Gives up (and keeps nothing)
 * past maxBytes. Sees the bytes after compression, which is why the key includes Accept-Encoding.
 */
export function recordBody(response: http.ServerResponse, maxBytes: number): () => Buffer | null {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (overflow || chunk == null || typeof chunk === 'function') return;
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      overflow = true;
      chunks.length = 0;
      return;
    }
    chunks.push(buffer);
  };
  const write = response.write;
  const end = response.end;
  response.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof response.write;
  response.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (end as (...a: unknown[]) => http.ServerResponse).call(this, chunk, ...rest);
  } as typeof response.end;
  return () => (overflow ? null : Buffer.concat(chunks));
}
