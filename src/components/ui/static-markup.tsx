'use client';

import { createElement, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { useHydrated } from './use-hydrated';

type Tag = 'a' | 'form';
type Props<T extends Tag> = ComponentPropsWithoutRef<T> & { as: T; children: ReactNode };

const isServer = typeof window === 'undefined';
/** React leaves an element with inner HTML alone while hydrating: it neither reads nor replaces what the server drew in it. */
const AS_SERVED = { __html: '' };

/**
 * An element whose content the server draws and React does not hydrate (decision 073): while
 * hydrating it takes over the element and leaves everything in it as it is, with no work per
 * element inside (on a search page, most of the elements it would hydrate). Any later render with new children (a
 * client navigation) draws them as usual. For markup with no React behaviour inside: links, text,
 * images, and native form controls that need no handler of React's (their values are the visitor's,
 * untouched).
 */
export function StaticMarkup<T extends Tag>({ as, children, ...props }: Props<T>) {
  const hydrated = useHydrated();
  // The children this element was hydrated with, which React left as the server drew them; null
  // when it was drawn by the client.
  const [served] = useState(() => (isServer || hydrated ? null : { children }));
  if (served && served.children === children) return createElement(as, { ...props, suppressHydrationWarning: true, dangerouslySetInnerHTML: AS_SERVED });
  return createElement(as, props, children);
}
