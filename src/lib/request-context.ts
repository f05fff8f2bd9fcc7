import { AsyncLocalStorage } from 'node:async_hooks';
import type { PageCacheMark } from './page-cache';
import type { CspSources } from './security-headers';

/**
 * What a render tells the HTTP layer about its own response: the App Router gives pages no
 * handle on the response, so each request runs in an AsyncLocalStorage context that pages write to
 * and src/lib/request-hooks.ts reads when the response goes out.
 */
export type RequestState = {
  /** The database could not be reached: the response goes out as 503 (service-unavailable.ts). */
  serviceUnavailable: boolean;
  /** The page may be served again from the page cache while this version holds (page-cache.ts). */
  pageCache: PageCacheMark | null;
  /** The instant (ms) from which a cached copy of this page would read wrong on the clock alone ('open now'). */
  pageCacheUntil: number | null;
  /** More CSP origins for this response: the website's widgets (decision 037), a payment step's provider (decision 041). */
  cspExtra: CspSources | null;
};

const STORAGE = Symbol.for('dealer-platform.request-state');

// One instance per process, even if the module is bundled into more than one server chunk.
export function requestStorage(): AsyncLocalStorage<RequestState> {
  const holder = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestState> | undefined>;
  holder[STORAGE] ??= new AsyncLocalStorage<RequestState>();
  return holder[STORAGE];
}

export function currentRequestState(): RequestState | undefined {
  return requestStorage().getStore();
}

export function newRequestState(): RequestState {
  return { serviceUnavailable: false, pageCache: null, pageCacheUntil: null, cspExtra: null };
}

/** This response shows something for this request alone (e.g. a revealed phone number): never keep it in the page cache. */
export function skipPageCache(): void {
  const state = currentRequestState();
  if (state) state.pageCache = null;
}

/**
 * This page runs third-party code from these origins (widgets, a payment provider's script): its
 * Content-Security-Policy allows them. Added to what the render allowed already, so the layout's
 * widgets and the page's payment step both count, whichever renders first.
 */
export function allowCspSources(extra: CspSources): void {
  const state = currentRequestState();
  if (!state) return;
  const merged: CspSources = { ...state.cspExtra };
  for (const [directive, origins] of Object.entries(extra) as [keyof CspSources, string[] | undefined][]) {
    merged[directive] = [...new Set([...(merged[directive] ?? []), ...(origins ?? [])])];
  }
  state.cspExtra = merged;
}
