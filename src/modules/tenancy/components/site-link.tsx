import Link from 'next/link';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { EXTERNAL_LINK_REL, type ResolvedLink } from '../tenancy.links';

type SiteLinkProps = Omit<ComponentPropsWithoutRef<'a'>, 'href' | 'target' | 'rel'> & {
  link: ResolvedLink;
  children: ReactNode;
  /** Screen-reader note on links that open a new tab. */
  newTabLabel?: string;
};

/**
 * An anchor for a link resolved by the SPEC §2 link rules: internal paths through next/link
 * (no prefetch: phones should not download pages nobody opens), tel:/mailto:/maps as plain
 * anchors, other sites in a new tab with rel="noopener noreferrer". Usable on server and client.
 */
export function SiteLink({ link, children, newTabLabel = '(opens in a new tab)', ...props }: SiteLinkProps) {
  if (link.kind === 'internal') {
    return (
      <Link href={link.href} prefetch={false} {...props}>
        {children}
      </Link>
    );
  }
  if (link.kind === 'external') {
    return (
      <a href={link.href} target="_blank" rel={EXTERNAL_LINK_REL} {...props}>
        {children}
        <span className="sr-only"> {newTabLabel}</span>
      </a>
    );
  }
  return (
    <a href={link.href} {...props}>
      {children}
    </a>
  );
}
