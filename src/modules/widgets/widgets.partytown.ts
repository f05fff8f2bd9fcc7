import 'server-only';
import fs from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { libDirPath } from '@qwik.dev/partytown/utils';
import { getDb } from '@/db';
import { clientAddress } from '@/lib/client-address';
import { logger } from '@/lib/logger';
import { consumeLimits, HOUR_MS, RateLimitedError } from '@/lib/rate-limit';
import { normalizeHost } from '@/lib/host';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { widgetPlan } from './widgets.plan';

/**
 * Partytown on this origin (decision 043): its two files the pages need, read from the installed
 * package (nothing copied into the repository, nothing fetched from elsewhere), and a proxy for the
 * tag scripts whose hosts send no CORS headers, which the worker cannot fetch directly.
 */

/** The files of Partytown's service-worker mode: the main-thread snippet and the service worker (the sandbox and the worker are made by these). */
const LIB_FILES: Record<string, { cacheControl: string; adapt?: (text: string) => string }> = {
  'partytown.js': { cacheControl: 'public, max-age=3600' },
  // A service worker script is checked for updates on every registration; no-cache keeps that cheap and current.
  'partytown-sw.js': { cacheControl: 'no-cache', adapt: withoutNoStore },
};

/**
 * The service worker answers the sandbox page and the worker's calls itself, marked
 * `Cache-Control: no-store`. Responses a service worker makes never enter the HTTP cache, so the
 * mark does nothing but keep every page with a tag in Partytown out of the browser's back/forward
 * cache (Chromium: MainResourceHasCacheControlNoStore on the sandbox frame, and
 * JsNetworkRequestReceivedCacheControlNoStoreResource). Served as `no-cache` instead, so that going
 * back from a car to the results is instant (decision 050). Throws when the package no longer
 * holds that header, so an upgrade is looked at again rather than silently served unchanged.
 */
export function withoutNoStore(sw: string): string {
  const header = '"Cache-Control":"no-store"';
  if (sw.split(header).length !== 2 || sw.split('no-store').length !== 2) throw new Error("partytown-sw.js: expected its one Cache-Control: no-store header; look at decision 050 again");
  return sw.replace(header, '"Cache-Control":"no-cache"');
}

const files = new Map<string, Promise<string>>();

/** GET /api/partytown/{file}: one of LIB_FILES from the installed @qwik.dev/partytown, else 404. */
export async function partytownFile(name: string): Promise<Response> {
  const file = Object.hasOwn(LIB_FILES, name) ? LIB_FILES[name] : null;
  if (!file) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  let text = files.get(name);
  if (!text) {
    const read = fs.readFile(path.join(libDirPath(), name), 'utf8');
    files.set(name, (text = file.adapt ? read.then(file.adapt) : read));
  }
  return new Response(await text, {
    headers: { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': file.cacheControl, 'X-Content-Type-Options': 'nosniff' },
  });
}

/** upstreamPerAddressPerHour: scripts one visitor address may have fetched from the provider (those not kept already). */
export const PROXY_LIMITS = { maxBytes: 3 * 1024 * 1024, timeoutMs: 10_000, upstreamPerAddressPerHour: 60 };

/**
 * Where the proxy connects for a host: the host itself, or what WIDGET_PROXY_RESOLVE says, as curl's
 * --resolve does ('host:port:address,…'; the name, SNI and certificate check stay the host's). Set
 * by the benchmark and tests, whose providers are local stand-ins; never needed in production.
 */
export function resolveOverride(host: string, env: string | undefined = process.env.WIDGET_PROXY_RESOLVE): { address: string; port: number } | null {
  for (const entry of (env ?? '').split(',')) {
    const [name, port, ...address] = entry.trim().split(':');
    if (name === host && port && address.length) return { address: address.join(':'), port: Number(port) };
  }
  return null;
}

/** A DNS lookup that answers one address, in both of the shapes Node asks for (all: true since its Happy Eyeballs). */
function overrideLookup(address: string): NonNullable<https.RequestOptions['lookup']> {
  const family = address.includes(':') ? 6 : 4;
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
    options?.all ? callback(null, [{ address, family }]) : callback(null, address, family)) as unknown as NonNullable<https.RequestOptions['lookup']>;
}

/** The script at an https address, as text: GET, no cookies, no redirects, JavaScript only, size and time limited. */
function fetchScript(target: URL): Promise<{ status: number; body?: Buffer; cacheControl?: string }> {
  const override = resolveOverride(target.hostname);
  return new Promise((resolve) => {
    const request = https.request(
      {
        host: target.hostname,
        servername: target.hostname,
        port: override?.port ?? (target.port || 443),
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        // The provider's name, not the port an override connects to.
        headers: { host: target.host, accept: 'application/javascript, */*;q=0.1', 'user-agent': 'dealer-site-widget-proxy' },
        timeout: PROXY_LIMITS.timeoutMs,
        ...(override ? { lookup: overrideLookup(override.address) } : {}),
      },
      (response) => {
        const type = String(response.headers['content-type'] ?? '');
        if (response.statusCode !== 200 || !/javascript|ecmascript/i.test(type) || response.headers['content-encoding']) {
          response.resume();
          return resolve({ status: 502 });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > PROXY_LIMITS.maxBytes) {
            request.destroy();
            resolve({ status: 502 });
          } else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: 200, body: Buffer.concat(chunks), cacheControl: String(response.headers['cache-control'] ?? '') }));
        response.on('error', () => resolve({ status: 502 }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => {
      logger.warn({ err: error, host: target.hostname }, 'widget proxy: upstream failed');
      resolve({ status: 502 });
    });
    request.end();
  });
}

/** The address a proxy request names, if it may be fetched for this website: https, default port, one of its proxied hosts. */
export function proxyTarget(raw: string | null, proxyHosts: readonly string[]): URL | null {
  if (!raw || raw.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.port || url.username || url.password) return null;
  return proxyHosts.includes(url.hostname) ? url : null;
}

/**
 * GET /api/partytown/proxy?url=: a tag script for the worker, from one of the hosts this website's
 * own tags need proxied (Meta's connect.facebook.net where the pixel is configured), nothing else:
 * not an open proxy. The website comes from the Host header.
 */
export async function proxyWidgetScript(request: Request): Promise<Response> {
  const refuse = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
  // The worker's fetch() only: a <script src> pointing here (Partytown's main-thread fallback, or
  // anyone's page) is refused, so a proxied tag never runs on the main thread without its bootstrap.
  const destination = request.headers.get('sec-fetch-dest');
  if (destination && destination !== 'empty') return refuse(403);
  const host = normalizeHost(request.headers.get('host'));
  const tenant = host ? await findTenantByHost(host).catch(() => null) : null;
  if (!tenant) return refuse(404);
  // Only the tags' part of the plan matters here; it needs no secrets.
  const plan = widgetPlan(tenant.config, {}, { production: process.env.NODE_ENV === 'production' });
  const target = proxyTarget(new URL(request.url).searchParams.get('url'), plan.worker?.proxyHosts ?? []);
  if (!target) return refuse(403);
  let answer = keptScript(target.href);
  if (!answer) {
    // Only a fetch from the provider costs anything: those are limited per visitor address.
    const address = clientAddress(request);
    if (address) {
      try {
        await consumeLimits(await getDb(), [{ key: `widget-proxy:${tenant.id}:${address}`, max: PROXY_LIMITS.upstreamPerAddressPerHour, durationMs: HOUR_MS, message: () => 'Too many requests' }]);
      } catch (error) {
        if (error instanceof RateLimitedError) return refuse(429, { 'Retry-After': String(error.retryAfterSeconds) });
        throw error;
      }
    }
    answer = await fetchKept(target);
  }
  if (answer.status !== 200 || !answer.body) return refuse(502);
  return new Response(new Uint8Array(answer.body), {
    headers: {
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': answer.maxAge > 0 ? `public, max-age=${answer.maxAge}` : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

type Fetched = { status: number; body?: Buffer; maxAge: number };
/**
 * Scripts fetched for the worker, kept in this process for as long as the provider says they may be
 * cached (at most a day), so the provider is asked once per script and process, not once per page
 * view. The addresses are the visitors' to choose within the proxied hosts, hence a bound on count.
 */
const kept = new Map<string, { settled: Fetched; until: number }>();
const MAX_KEPT = 32;

function keptScript(href: string): Fetched | null {
  const entry = kept.get(href);
  if (!entry || entry.until <= Date.now()) return null;
  return entry.settled;
}

async function fetchKept(target: URL): Promise<Fetched> {
  const fetched = await fetchScript(target);
  // The provider's own caching, at most a day.
  const maxAge = Math.min(Number(/max-age=(\d+)/.exec(fetched.cacheControl ?? '')?.[1] ?? 0), 86_400);
  const answer: Fetched = { status: fetched.status, body: fetched.body, maxAge };
  if (answer.status === 200 && maxAge > 0) {
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(target.href, { settled: answer, until: Date.now() + maxAge * 1000 });
  }
  return answer;
}
