import type { WebsiteConfig } from './tenancy.config';
import type { Tenant } from './tenancy.types';

/**
 * SPEC §2 link rules, for navigation items, content links and anything else a dealer configures.
 * Client-safe and pure.
 *
 * - The /pages prefix is stripped for privacy-policy, terms, about-us and parts-and-accessories
 *   pages, and for every /pages/ link when the website does not use a pages path.
 * - tel:, mailto: and maps links are plain anchors (no new tab: they hand over to an app).
 * - Other external links open in a new tab with rel="noopener noreferrer".
 * - Internal links get the resolved path (links to the dealer's own domain count as internal).
 */

export type ResolvedLink =
  /** A path on this website, for next/link. */
  | { kind: 'internal'; href: string }
  /** tel:, mailto:, sms: and maps links: a plain anchor in the same tab. */
  | { kind: 'plain'; href: string }
  /** Another site: a new tab, rel="noopener noreferrer". */
  | { kind: 'external'; href: string };

export type LinkTenant = { config: Pick<WebsiteConfig, 'usePagesPath'>; url?: Tenant['url'] };

export const EXTERNAL_LINK_REL = 'noopener noreferrer';

/**
 * Page slugs canonical without /pages even where the website uses a pages path. A slug matches
 * when it contains the key as whole hyphen-separated words, so `terms` covers terms and
 * terms-and-conditions, and `parts-and-accessories` covers vehicle-parts-and-accessories.
 */
export const UNPREFIXED_PAGE_KEYS = ['privacy-policy', 'terms', 'about-us', 'parts-and-accessories'] as const;

export function isUnprefixedPageSlug(slug: string): boolean {
  const words = `-${slug.toLowerCase()}-`;
  return UNPREFIXED_PAGE_KEYS.some((key) => words.includes(`-${key}-`));
}

/** Where a content page of this website lives: /pages/{slug}, /{slug} or /blog/{slug}. */
export function canonicalContentPath(
  config: Pick<WebsiteConfig, 'usePagesPath'>,
  page: { slug: string; kind?: string },
): string {
  if (page.kind === 'blog') return `/blog/${page.slug}`;
  return config.usePagesPath && !isUnprefixedPageSlug(page.slug) ? `/pages/${page.slug}` : `/${page.slug}`;
}

const PLAIN_SCHEMES = new Set(['tel:', 'mailto:', 'sms:']);
const SAFE_SCHEMES = new Set(['http:', 'https:', ...PLAIN_SCHEMES]);
const SCHEME_PATTERN = /^([a-z][a-z0-9+.-]*):/i;

/** Maps links: maps.google.(any), google.(any)/maps, maps.apple.com, goo.gl/maps and maps.app.goo.gl. */
export function isMapsUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const path = url.pathname.toLowerCase();
  if (/^maps\.google\.[a-z.]+$/.test(host)) return true;
  if (/^google\.[a-z.]+$/.test(host) && (path === '/maps' || path.startsWith('/maps/'))) return true;
  if (host === 'maps.apple.com' || host === 'maps.app.goo.gl') return true;
  return host === 'goo.gl' && (path === '/maps' || path.startsWith('/maps/'));
}

/** The path rule alone: /pages/about-us → /about-us; trailing slashes dropped. */
export function resolveInternalPath(config: Pick<WebsiteConfig, 'usePagesPath'>, path: string): string {
  const match = /^([^?#]*)(.*)$/.exec(path)!;
  let pathname = match[1].replace(/\/{2,}/g, '/');
  const rest = match[2];
  if (pathname.length > 1) pathname = pathname.replace(/\/+$/, '');
  const pages = /^\/pages\/([^/]+)(\/.*)?$/i.exec(pathname);
  if (pages && (!config.usePagesPath || isUnprefixedPageSlug(pages[1]))) {
    pathname = `/${pages[1]}${pages[2] ?? ''}`;
  }
  return `${pathname || '/'}${rest}`;
}

function ownHosts(tenant: LinkTenant): Set<string> {
  const hosts = new Set<string>();
  if (!tenant.url) return hosts;
  try {
    const host = new URL(/^https?:\/\//i.test(tenant.url) ? tenant.url : `https://${tenant.url}`).hostname;
    const bare = host.replace(/^www\./, '');
    hosts.add(bare);
    hosts.add(`www.${bare}`);
  } catch {
    // An unparsable website URL: no domain counts as the dealer's own.
  }
  return hosts;
}

/**
 * Resolves one configured link. Null for an empty link or an unsafe one (javascript:, data:, …),
 * which the caller renders as text or leaves out.
 */
export function resolveLink(tenant: LinkTenant, raw: string | null | undefined): ResolvedLink | null {
  // As a browser's URL parser does: tabs and newlines anywhere, and control characters and spaces
  // at either end, are dropped, so 'java\tscript:' is read as the javascript: scheme it is.
  const value = (raw ?? '').replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (!value) return null;
  if (value.startsWith('#')) return { kind: 'plain', href: value };
  if (value.startsWith('/') && !value.startsWith('//')) {
    return { kind: 'internal', href: resolveInternalPath(tenant.config, value) };
  }

  const scheme = SCHEME_PATTERN.exec(value)?.[1]?.toLowerCase();
  let absolute = value;
  if (!scheme) {
    if (value.startsWith('//')) absolute = `https:${value}`;
    // A host without a scheme, as dealers type them: www.facebook.com/dealer.
    else if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(\/|\?|#|$)/i.test(value)) absolute = `https://${value}`;
    // A bare relative path such as 'about-us'.
    else return { kind: 'internal', href: resolveInternalPath(tenant.config, `/${value}`) };
  } else if (!SAFE_SCHEMES.has(`${scheme}:`)) {
    return null;
  }

  if (scheme && PLAIN_SCHEMES.has(`${scheme}:`)) return { kind: 'plain', href: value };

  let url: URL;
  try {
    url = new URL(absolute);
  } catch {
    return null;
  }
  if (isMapsUrl(url)) return { kind: 'plain', href: url.toString() };
  if (ownHosts(tenant).has(url.hostname.toLowerCase())) {
    return { kind: 'internal', href: resolveInternalPath(tenant.config, `${url.pathname}${url.search}${url.hash}`) };
  }
  return { kind: 'external', href: url.toString() };
}

/** Anchor attributes for a resolved link. */
export function linkAttributes(link: ResolvedLink): { href: string; target?: '_blank'; rel?: string } {
  return link.kind === 'external' ? { href: link.href, target: '_blank', rel: EXTERNAL_LINK_REL } : { href: link.href };
}

/** tel: link for a displayed phone number: digits and a leading plus only. */
export function telHref(phone: string): string | null {
  const digits = phone.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return digits.replace(/\D/g, '').length >= 3 ? `tel:${digits}` : null;
}
