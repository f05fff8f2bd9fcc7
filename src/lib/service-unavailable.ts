import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';

/**
 * HTTP 503 for pages rendered while the database is unreachable. The App Router cannot set a
 * status of its own choosing (only 404, redirects and 500), so each request runs in an
 * AsyncLocalStorage context; a page or layout that meets an unreachable database calls
 * markServiceUnavailable() while it renders its friendly page, and the response goes out as 503
 * with Retry-After. Installed once per server process by src/instrumentation.ts.
 */

type RequestState = { serviceUnavailable: boolean };

const STORAGE = Symbol.for('dealer-platform.request-state');
const INSTALLED = Symbol.for('dealer-platform.service-unavailable-installed');
const RETRY_AFTER_SECONDS = '30';

function storage(): AsyncLocalStorage<RequestState> {
  const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestState> | undefined>;
  holder[STORAGE] ??= new AsyncLocalStorage<RequestState>();
  return holder[STORAGE];
}

export function markServiceUnavailable(): void {
  const state = storage().getStore();
  if (state) state.serviceUnavailable = true;
}

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

export function installServiceUnavailableStatus(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, boolean> & { emit: Emit };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const response = args[1] as http.ServerResponse;
    const state: RequestState = { serviceUnavailable: false };
    const writeHead = response.writeHead;
    response.writeHead = function (this: http.ServerResponse, statusCode: number, ...rest: unknown[]) {
      if (state.serviceUnavailable && (statusCode === 200 || statusCode >= 500)) {
        this.setHeader('Retry-After', RETRY_AFTER_SECONDS);
        this.setHeader('Cache-Control', 'no-store');
        statusCode = 503;
      }
      return (writeHead as (...a: unknown[]) => http.ServerResponse).call(this, statusCode, ...rest);
    } as typeof response.writeHead;
    return storage().run(state, () => emit.call(this, event, ...args));
  };
}
