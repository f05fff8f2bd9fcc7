import type http from 'node:http';
import { currentRequestState, type RequestState } from './request-context';

/**
 * HTTP 503 for pages rendered while the database is unreachable. The App Router cannot set a
 * status of its own choosing (only 404, redirects and 500); a page or layout that meets an
 * unreachable database calls markServiceUnavailable() while it renders its friendly page, and the
 * response goes out as 503 with Retry-After (applied by src/lib/request-hooks.ts).
 */

const RETRY_AFTER_SECONDS = '30';

export function markServiceUnavailable(): void {
  const state = currentRequestState();
  if (state) state.serviceUnavailable = true;
}

/** The status a response goes out with: 503 instead of 200 or 5xx when the render marked it. */
export function statusForResponse(state: RequestState, response: http.ServerResponse, statusCode: number): number {
  if (!state.serviceUnavailable || (statusCode !== 200 && statusCode < 500)) return statusCode;
  response.setHeader('Retry-After', RETRY_AFTER_SECONDS);
  response.setHeader('Cache-Control', 'no-store');
  return 503;
}
