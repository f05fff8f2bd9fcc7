/**
 * The security headers of every response (decision 028), set by the request hook before anything
 * else writes, so pages, API answers and page-cache replays all carry them; the build's static
 * files, when served, keep only nosniff and HSTS (request-hooks.ts PAGE_ONLY_HEADERS).
 *
 * Scripts run only from the platform, the origins named, and, inline, only the platform's own
 * scripts by their SHA-256 (decision 040): a rendered page's header names the hashes of its inline
 * scripts (request-hooks.ts and platform-scripts.ts), any other response allows none. Styles keep
 * 'unsafe-inline' (React and the components write style attributes). The policy also gives no
 * plugin content, no foreign <base>, forms that post only to the website, no framing by other
 * sites. `contentSecurityPolicy(extra)` takes more origins: each website's widget origins
 * (decision 037) through it. Development (`next dev`, whose pages are not rewritten and whose
 * React evaluates code) allows inline scripts and eval.
 */

export type CspSources = Partial<Record<'script' | 'style' | 'img' | 'connect' | 'frame' | 'font' | 'form' | 'worker', string[]>>;

/** Google Maps, loaded when a visitor asks for the interactive map (locations.maps.ts). */
const MAPS: CspSources = {
  script: ['https://maps.googleapis.com', 'https://maps.gstatic.com'],
  connect: ['https://maps.googleapis.com'],
  font: ['https://fonts.gstatic.com'],
  style: ['https://fonts.googleapis.com'],
  frame: ['https://www.google.com'],
};

function merge(...lists: (string[] | undefined)[]): string {
  return [...new Set(lists.flatMap((list) => list ?? []))].join(' ');
}

export type CspOptions = { development?: boolean; https?: boolean; scriptHashes?: string[] };

export function contentSecurityPolicy(extra: CspSources = {}, options: CspOptions = {}): string {
  const directives = [
    "default-src 'self'",
    `script-src ${merge(["'self'"], options.development ? ["'unsafe-inline'", "'unsafe-eval'"] : options.scriptHashes, MAPS.script, extra.script)}`,
    `style-src ${merge(["'self'", "'unsafe-inline'"], MAPS.style, extra.style)}`,
    // Dealers' photos may be hosted elsewhere (https only); the optimiser and placeholders use data: and blob:.
    `img-src ${merge(["'self'", 'data:', 'blob:', 'https:'], extra.img)}`,
    `font-src ${merge(["'self'", 'data:'], MAPS.font, extra.font)}`,
    `connect-src ${merge(["'self'"], options.development ? ['ws:'] : [], MAPS.connect, extra.connect)}`,
    `frame-src ${merge(["'self'"], MAPS.frame, extra.frame)}`,
    // Only where a website's widgets need one (Partytown's service worker, decision 043); otherwise script-src's rule applies.
    ...(extra.worker?.length ? [`worker-src ${merge(extra.worker)}`] : []),
    "frame-ancestors 'none'",
    // A hosted payment page reached by a form post (St George's Connect) is named by its checkout page.
    `form-action ${merge(["'self'"], extra.form)}`,
    "base-uri 'self'",
    "object-src 'none'",
  ];
  if (options.https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), usb=(), browsing-topics=(), geolocation=(self), payment=(self)';

/** Left off the pages rendered alike for every visitor (decision 074, src/lib/request-hooks.ts). */
export const OPENER_POLICY_HEADER = 'Cross-Origin-Opener-Policy';

export function securityHeaders(options: { https: boolean; development?: boolean; extra?: CspSources }): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(options.extra, options),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    [OPENER_POLICY_HEADER]: 'same-origin',
  };
  // Not includeSubDomains: a dealer's other subdomains are theirs to decide.
  if (options.https) headers['Strict-Transport-Security'] = 'max-age=31536000';
  return headers;
}
