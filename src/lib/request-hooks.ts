import http from 'node:http';
import { newRequestState, requestStorage, type RequestState } from './request-context';
import { PAGE_CACHE_HEADER, PageCache, pageCacheKey, recordBody, replay, type PageCacheOptions } from './page-cache';
import { statusForResponse } from './service-unavailable';
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from './client-address';

/**
 * Wraps the 'request' event of every HTTP server in the process (Next's included) so that each
 * request renders inside its own RequestState, its status can become 503 (service-unavailable.ts)
 * and pages that opt in are answered from the page cache (page-cache.ts). Installed once per server
 * process by src/instrumentation.ts.
 */

const INSTALLED = Symbol.for('dealer-platform.request-hooks-installed');

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

export type RequestHookOptions = { pageCache: PageCacheOptions | null; trustedProxyHops: number };

export function installRequestHooks({ pageCache, trustedProxyHops }: RequestHookOptions): void {
  const proto = http.Server.prototype as unknown as Record<symbol, boolean> & { emit: Emit };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const cache = pageCache && pageCache.maxBytes > 0 ? new PageCache(pageCache) : null;
  const emit = proto.emit;

  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const request = args[0] as http.IncomingMessage;
    const response = args[1] as http.ServerResponse;
    // Route handlers cannot see the socket: they read the address from this header, which only
    // this hook may set (a copy sent by the client is dropped first).
    const address = resolveClientAddress(request.socket?.remoteAddress, request.headers['x-forwarded-for'], trustedProxyHops);
    delete request.headers[CLIENT_ADDRESS_HEADER];
    if (address) request.headers[CLIENT_ADDRESS_HEADER] = address;
    const key = cache ? pageCacheKey(request) : null;
    const render = () => renderWithState(this, emit, args, cache, key);
    if (!cache || !key) return render();
    cache.current(key).then(
      (entry) => (entry ? replay(entry, response) : render()),
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
): boolean {
  const response = args[1] as http.ServerResponse;
  const state: RequestState = newRequestState();
  let sentStatus = 0;
  let sentHeaders: http.OutgoingHttpHeaders = {};
  const writeHead = response.writeHead;
  response.writeHead = function (this: http.ServerResponse, statusCode: number, ...rest: unknown[]) {
    statusCode = statusForResponse(state, this, statusCode);
    sentStatus = statusCode;
    // Headers given to writeHead itself are not all visible through getHeaders() afterwards.
    const given = rest.find((value) => value !== null && typeof value === 'object' && !Array.isArray(value));
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
      if (bytes) cache.store(key, mark, sentStatus, sentHeaders, bytes);
    });
  }
  return requestStorage().run(state, () => emit.call(server, 'request', ...args));
}
