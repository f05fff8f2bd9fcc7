import http from 'node:http';
import { newRequestState, requestStorage, type RequestState } from './request-context';
import { PAGE_CACHE_HEADER, PageCache, pageCacheKey, recordBody, replay, type Entry, type PageCacheOptions } from './page-cache';
import { statusForResponse } from './service-unavailable';
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from './client-address';
import { refusal, type Refusal } from './request-refusals';
import { contentSecurityPolicy, OPENER_POLICY_HEADER, securityHeaders, type CspSources } from './security-headers';
import { acceptsGzip, rewriteDocumentResponse } from './deferred-scripts';
import { inlineScriptHashes } from './platform-scripts';
import { logger } from './logger';
import { answerWithin } from './answer-deadline';

/**
 * Wraps the 'request' event of every HTTP server in the process (Next's included) so that each
 * request renders inside its own RequestState, its status can become 503 (service-unavailable.ts)
 * and pages that opt in are answered from the page cache (page-cache.ts). Installed once per server
 * process by src/instrumentation.ts.
 */

const INSTALLED = Symbol.for('dealer-platform.request-hooks-installed');

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

export type RequestHookOptions = { pageCache: PageCacheOptions | null; trustedProxyHops: number; development: boolean };

/**
 * A request's headers must arrive within HEADERS_TIMEOUT_MS and its whole body within
 * REQUEST_TIMEOUT_MS (25 MB of photos on a slow phone connection fits); a slow or partial request
 * is not held open longer.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 120_000;
const TIMEOUTS_SET = Symbol.for('dealer-platform.server-timeouts');

function applyTimeouts(server: http.Server): void {
  const marked = server as http.Server & { [TIMEOUTS_SET]?: boolean };
  if (marked[TIMEOUTS_SET]) return;
  marked[TIMEOUTS_SET] = true;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
}

function isHttps(request: http.IncomingMessage, trustedProxyHops: number): boolean {
  if ((request.socket as { encrypted?: boolean } | undefined)?.encrypted) return true;
  if (trustedProxyHops === 0) return false;
  const proto = request.headers['x-forwarded-proto'];
  const last = (Array.isArray(proto) ? proto.join(',') : (proto ?? '')).split(',').pop()?.trim().toLowerCase();
  return last === 'https';
}

/**
 * The headers every response starts with depend only on https and development: built once per pair
 * instead of per request (the Content-Security-Policy was a tenth of a cached page's CPU, decision 055).
 */
const baseHeaders = new Map<string, [string, string][]>();
function baseHeadersFor(https: boolean, development: boolean): [string, string][] {
  const key = `${https}/${development}`;
  let headers = baseHeaders.get(key);
  if (!headers) baseHeaders.set(key, (headers = Object.entries(securityHeaders({ https, development }))));
  return headers;
}

/**
 * The build's own files (scripts, styles, fonts under /_next/static/, immutable) keep only the
 * headers a browser reads on such a file. A page's policy (CSP, framing, opener, permissions) means
 * nothing on a script, and repeated on each of a page's 10 or so chunks it was about 7 KB of every
 * page load (decision 033's measure counts it). An answer there that is not a file (a redirect,
 * a 400 or 404 page) keeps them all.
 */
const BUILD_FILES = '/_next/static/';
const BUILD_FILE_KEEPS = new Set(['x-content-type-options', 'strict-transport-security']);
const PAGE_ONLY_HEADERS = Object.keys(securityHeaders({ https: true, development: false }))
  .map((name) => name.toLowerCase())
  .filter((name) => !BUILD_FILE_KEEPS.has(name));
function isServedBuildFile(request: http.IncomingMessage, statusCode: number): boolean {
  return (statusCode === 200 || statusCode === 206 || statusCode === 304) && (request.url ?? '').startsWith(BUILD_FILES);
}

/**
 * A page the same for every visitor (one the page cache may keep) goes out without an opener
 * policy: there it guards nothing of the visitor's, and it makes the browser start the page in a
 * new process (decision 074). Every other response keeps it.
 */
function replayPublicPage(entry: Entry, response: http.ServerResponse): void {
  response.removeHeader(OPENER_POLICY_HEADER);
  replay(entry, response);
}

function refuse(response: http.ServerResponse, { status, message, headers }: Refusal): void {
  // Closed after: a refused request's body may not be parseable (TRACE with a body), and the
  // connection must not carry its leftovers into the next request.
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close', ...headers });
  response.end(message);
}

export function installRequestHooks({ pageCache, trustedProxyHops, development }: RequestHookOptions): void {
  const proto = http.Server.prototype as unknown as Record<symbol, boolean> & { emit: Emit };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const cache = pageCache && pageCache.maxBytes > 0 ? new PageCache(pageCache) : null;
  const emit = proto.emit;

  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'connection') applyTimeouts(this);
    if (event !== 'request') return emit.call(this, event, ...args);
    const request = args[0] as http.IncomingMessage;
    const response = args[1] as http.ServerResponse;
    answerWithin(request, response, REQUEST_TIMEOUT_MS);
    const https = isHttps(request, trustedProxyHops);
    for (const [name, value] of baseHeadersFor(https, development)) response.setHeader(name, value);
    const refused = refusal(request);
    if (refused) {
      request.resume();
      refuse(response, refused);
      return true;
    }
    // Route handlers cannot see the socket: they read the address from this header, which only
    // this hook may set (a copy sent by the client is dropped first).
    const address = resolveClientAddress(request.socket?.remoteAddress, request.headers['x-forwarded-for'], trustedProxyHops);
    delete request.headers[CLIENT_ADDRESS_HEADER];
    if (address) request.headers[CLIENT_ADDRESS_HEADER] = address;
    const key = cache ? pageCacheKey(request) : null;
    const render = () => renderWithState(this, emit, args, cache, key, !development, (extra, scriptHashes) => contentSecurityPolicy(extra, { https, development, scriptHashes }));
    if (!cache || !key) return render();
    const found = cache.current(key);
    // Known at once on a hit whose version the process holds (decision 055): answered without a tick.
    if (!(found instanceof Promise)) return found ? (replayPublicPage(found, response), true) : render();
    found.then(
      (entry) => (entry ? replayPublicPage(entry, response) : render()),
      () => render(),
    );
    return true;
  };
}

function renderWithState(
  server: http.Server,
  emit: Emit,
  args: unknown[],
  cache: PageCache | null,
  key: string | null,
  rewriteDocuments: boolean,
  csp: (extra: CspSources, scriptHashes: string[]) => string,
): boolean {
  const request = args[0] as http.IncomingMessage;
  const response = args[1] as http.ServerResponse;
  const state: RequestState = newRequestState();
  let sentStatus = 0;
  let sentHeaders: http.OutgoingHttpHeaders = {};
  let scriptHashes: string[] = [];
  const writeHead = response.writeHead;
  response.writeHead = function (this: http.ServerResponse, statusCode: number, ...rest: unknown[]) {
    statusCode = statusForResponse(state, this, statusCode);
    sentStatus = statusCode;
    if (isServedBuildFile(request, statusCode)) for (const name of PAGE_ONLY_HEADERS) this.removeHeader(name);
    if (state.pageCache) this.removeHeader(OPENER_POLICY_HEADER);
    // The page named its widgets' origins while rendering (allowCspSources), and its own inline
    // scripts are known once it is complete (rewriteDocumentResponse): the policy allows both.
    if (state.cspExtra || scriptHashes.length > 0) this.setHeader('Content-Security-Policy', csp(state.cspExtra ?? {}, scriptHashes));
    // Headers given to writeHead itself are not all visible through getHeaders() afterwards.
    const given = rest.find((value) => value !== null && typeof value === 'object' && !Array.isArray(value)) as Record<string, unknown> | undefined;
    sentHeaders = { ...this.getHeaders(), ...(given as http.OutgoingHttpHeaders | undefined) };
    return (writeHead as (...a: unknown[]) => http.ServerResponse).call(this, statusCode, ...rest);
  } as typeof response.writeHead;

  if (cache && key) {
    response.setHeader(PAGE_CACHE_HEADER, 'miss');
    const body = recordBody(response, cache.maxEntryBytes);
    response.once('finish', () => {
      const mark = state.pageCache;
      if (!mark || sentStatus !== 200 || state.serviceUnavailable || sentHeaders['set-cookie'] !== undefined) return;
      const bytes = body();
      if (bytes) cache.store(key, mark, sentStatus, sentHeaders, bytes, state.pageCacheUntil);
    });
  }
  // After recordBody, so that the page cache keeps the rewritten page (and its header, the hashes).
  if (rewriteDocuments && isDocumentRequest(request)) {
    // Next would compress the page as it streams it, and the rewrite would unpack it to rewrite it
    // and compress it again (about a fifth of an uncached render's CPU): a page a browser navigates
    // to is handed over plain and compressed once, at the end. (The page cache keyed the request
    // with its header already.) Anything else keeps Next's compression.
    const compress = isPageNavigation(request) && acceptsGzip(request.headers['accept-encoding']);
    if (compress) delete request.headers['accept-encoding'];
    rewriteDocumentResponse(response, (html) => {
      const scripts = inlineScriptHashes(html);
      scriptHashes = scripts.hashes;
      if (scripts.foreign.length > 0) {
        logger.warn({ url: request.url, count: scripts.foreign.length, first: scripts.foreign[0].slice(0, 120) }, 'inline script that is not the platform\'s: blocked by the Content-Security-Policy');
      }
    }, { compress });
  }
  return requestStorage().run(state, () => emit.call(server, 'request', ...args));
}

/** Where no page is: the framework's files, the visitor API, photos, and files such as robots.txt or a feed. */
const NOT_A_PAGE = /^\/(?:_next|api|media)\/|\.[a-z0-9]+$/i;

/** A browser navigating to a page: it asks for HTML, at an address that names no file. */
function isPageNavigation(request: http.IncomingMessage): boolean {
  return String(request.headers.accept ?? '').includes('text/html') && !NOT_A_PAGE.test((request.url ?? '').split('?')[0]);
}

/** A browser loading a page, not the router fetching its RSC payload. */
function isDocumentRequest(request: http.IncomingMessage): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.headers.rsc === undefined;
}
