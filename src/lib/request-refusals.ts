import type http from 'node:http';
import { normalizeHost } from '@/lib/host';

/**
 * Requests answered before Next sees them (decision 028), because Next would answer them wrongly:
 * - TRACE, TRACK and CONNECT: 405 (Next answered 500).
 * - A path whose percent-encoding is not UTF-8 (/cars/%ff, /media/%E0%A4%A): 400 (Next's
 *   decodeURIComponent threw, a 500). In a page path a stray '%' alone (/cars/abc$%, /x%2) is
 *   escaped here, so the page sees a literal '%' and answers 404 (Next's own route matching answers
 *   it with a 500); in an API or media path it is a 400.
 * - An absolute-form request line naming another host (GET http://evil.example/about-us): 400,
 *   where Next redirected to that host; naming the Host header's own host, it is read as the path.
 * - A Host header that is not `name[:port]` (userinfo, a path, a second host, junk): 400, before
 *   anything reads a website or builds a URL from it.
 * - A page (anything outside the APIs) asked with POST, PUT, DELETE or PATCH: 405 with Allow
 *   (pages answered 200). Server actions (Next-Action header) are Next's to answer.
 * Mutates request.url for the absolute form it accepts and for a page path's stray '%'.
 */

export type Refusal = { status: number; message: string; headers?: Record<string, string> };

export const BAD_HOST = 'Bad request: the Host header is not a host name';

const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
/** A '%' that does not start an escape (%XX). */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/g;
const PAGE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Paths whose handlers take other methods: the product API, the Dashboard API's public paths. */
const API_PREFIXES = ['/api/', '/websites/', '/manufacturers/', '/dealerships/'];

export function refusal(request: http.IncomingMessage): Refusal | null {
  const method = (request.method ?? 'GET').toUpperCase();
  if (REFUSED_METHODS.has(method)) return { status: 405, message: 'Method not allowed', headers: { Allow: 'GET, HEAD, POST, PUT, DELETE' } };
  const hostHeader = request.headers.host;
  if (hostHeader !== undefined && hostHeader !== '' && normalizeHost(hostHeader) === null) return { status: 400, message: BAD_HOST };
  let url = request.url ?? '/';
  if (!url.startsWith('/')) {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { status: 400, message: 'Bad request' };
    }
    if (!/^https?:$/.test(target.protocol) || normalizeHost(target.host) !== normalizeHost(request.headers.host)) return { status: 400, message: 'Bad request' };
    url = `${target.pathname}${target.search}`;
    request.url = url;
  }
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const isApi = API_PREFIXES.some((prefix) => path.startsWith(prefix)) || path.startsWith('/_next/');
  const isPage = !isApi && !path.startsWith('/media/');
  const escaped = isPage ? path.replace(STRAY_PERCENT, '%25') : path;
  try {
    decodeURIComponent(escaped);
  } catch {
    return { status: 400, message: 'Bad request: the address is not valid' };
  }
  if (escaped !== path) request.url = `${escaped}${query < 0 ? '' : url.slice(query)}`;
  if (!isApi && !PAGE_METHODS.has(method) && request.headers['next-action'] === undefined) {
    return { status: 405, message: 'Method not allowed', headers: { Allow: 'GET, HEAD' } };
  }
  return null;
}
