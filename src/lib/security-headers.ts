/**
 * The security headers of every response (decision 028), set by the request hook before anything
 * else writes, so pages, API answers, static files and page-cache replays all carry them.
 *
 * The Content-Security-Policy allows the platform's own scripts and styles, inline ones included:
 * Next writes its payload as inline scripts and the stylesheet is inlined (decision 017), and a
 * nonce per request would make every page unique, which the page cache (decision 016) cannot
 * serve. What the policy still buys: no plugin content, no foreign <base>, forms that post only to
 * the website, no framing by other sites, scripts only from the platform and the origins named.
 * `contentSecurityPolicy(extra)` takes more origins: the widgets issue adds each website's widget
 * origins through it.
 */

export type CspSources = Partial<Record<'script' | 'style' | 'img' | 'connect' | 'frame' | 'font', string[]>>;

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

export function contentSecurityPolicy(extra: CspSources = {}, options: { development?: boolean; https?: boolean } = {}): string {
  const directives = [
    "default-src 'self'",
    // React's development build evaluates code; production never does.
    `script-src ${merge(["'self'", "'unsafe-inline'"], options.development ? ["'unsafe-eval'"] : [], MAPS.script, extra.script)}`,
    `style-src ${merge(["'self'", "'unsafe-inline'"], MAPS.style, extra.style)}`,
    // Dealers' photos may be hosted elsewhere (https only); the optimiser and placeholders use data: and blob:.
    `img-src ${merge(["'self'", 'data:', 'blob:', 'https:'], extra.img)}`,
    `font-src ${merge(["'self'", 'data:'], MAPS.font, extra.font)}`,
    `connect-src ${merge(["'self'"], options.development ? ['ws:'] : [], MAPS.connect, extra.connect)}`,
    `frame-src ${merge(["'self'"], MAPS.frame, extra.frame)}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ];
  if (options.https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), usb=(), browsing-topics=(), geolocation=(self), payment=(self)';

export function securityHeaders(options: { https: boolean; development?: boolean; extra?: CspSources }): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(options.extra, options),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  // Not includeSubDomains: a dealer's other subdomains are theirs to decide.
  if (options.https) headers['Strict-Transport-Security'] = 'max-age=31536000';
  return headers;
}
