import { carTypeSearchPath } from '../tenancy.paths';
import { resolveLink, type LinkTenant, type ResolvedLink } from '../tenancy.links';
import type { NavigationItem } from '../tenancy.types';

/** Navigation as the header and footer render it: links resolved, empty entries dropped. */
export type NavEntry = {
  id: number;
  label: string;
  /** Null for a dropdown heading without a page of its own. */
  link: ResolvedLink | null;
  children: NavEntry[];
};

export function buildNavEntries(tenant: LinkTenant, items: NavigationItem[]): NavEntry[] {
  const entries: NavEntry[] = [];
  for (const item of items) {
    const label = item.name.trim();
    if (!label) continue;
    const children = buildNavEntries(tenant, item.dropdownItems);
    const link = resolveLink(tenant, item.url);
    if (!link && children.length === 0) continue;
    entries.push({ id: item.id, label, link, children });
  }
  return entries;
}

export type CarTypeQuickLink = { carType: 'new' | 'used' | 'demo'; label: string; href: string };

function* walk(entries: NavEntry[]): Generator<NavEntry> {
  for (const entry of entries) {
    yield entry;
    yield* walk(entry.children);
  }
}

/**
 * Quick links by car type for the home page: a car type counts when the dealer's own navigation
 * links its stock page (/search/new-cars, /search/used-cars, /search/demo-cars), labelled as the
 * dealer labels it (a menu's own items before a dropdown heading). They are relevant only where
 * there is a choice: a dealer linking fewer than two types (a used-car yard) gets none.
 */
export function carTypeQuickLinks(entries: NavEntry[]): CarTypeQuickLink[] {
  const found = new Map<CarTypeQuickLink['carType'], CarTypeQuickLink>();
  const all = [...walk(entries)];
  const leavesFirst = [...all.filter((e) => e.children.length === 0), ...all.filter((e) => e.children.length > 0)];
  for (const entry of leavesFirst) {
    if (entry.link?.kind !== 'internal') continue;
    const path = entry.link.href.split(/[?#]/)[0];
    for (const carType of ['new', 'used', 'demo'] as const) {
      if (path === carTypeSearchPath(carType) && !found.has(carType)) {
        found.set(carType, { carType, label: entry.label, href: entry.link.href });
      }
    }
  }
  const links = (['new', 'used', 'demo'] as const).flatMap((type) => found.get(type) ?? []);
  return links.length >= 2 ? links : [];
}
