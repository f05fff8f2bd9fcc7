'use client';

import { useEffect } from 'react';

/**
 * Wires the server-rendered HeaderNavigation's dropdowns as disclosures: the button toggles its
 * panel (data-open, aria-expanded), Down/Up move through the panel's links, Escape closes it and
 * returns focus to the button, and a panel closes when focus or a click goes elsewhere or one of
 * its links is followed. Sets data-js on the nav, which stops the no-JavaScript open-on-focus
 * rule. Renders nothing.
 */
export function NavigationEnhancer({ id }: { id: string }) {
  useEffect(() => {
    const nav = document.getElementById(id);
    if (!nav) return;
    const items = [...nav.querySelectorAll<HTMLElement>('[data-nav-item]')];
    const controller = new AbortController();
    const { signal } = controller;
    const setOpen = (item: HTMLElement, open: boolean) => {
      item.toggleAttribute('data-open', open);
      item.querySelector(':scope > button')?.setAttribute('aria-expanded', String(open));
    };
    const closeAll = (except?: HTMLElement) => items.forEach((item) => item !== except && setOpen(item, false));

    nav.setAttribute('data-js', '');
    for (const item of items) {
      const button = item.querySelector<HTMLButtonElement>(':scope > button');
      const links = [...item.querySelectorAll<HTMLAnchorElement>('a[href]')];
      if (!button) continue;
      button.addEventListener(
        'click',
        () => {
          closeAll(item);
          setOpen(item, !item.hasAttribute('data-open'));
        },
        { signal },
      );
      links.forEach((link) => link.addEventListener('click', () => setOpen(item, false), { signal }));
      item.addEventListener('focusout', (event) => !item.contains(event.relatedTarget as Node | null) && setOpen(item, false), { signal });
      item.addEventListener(
        'keydown',
        (event) => {
          if (event.key === 'Escape' && item.hasAttribute('data-open')) {
            setOpen(item, false);
            button.focus();
          } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            const step = event.key === 'ArrowDown' ? 1 : -1;
            const at = links.indexOf(document.activeElement as HTMLAnchorElement);
            const next = at < 0 ? (step > 0 ? 0 : links.length - 1) : (at + step + links.length) % links.length;
            setOpen(item, true);
            links[next]?.focus();
          } else {
            return;
          }
          event.preventDefault();
        },
        { signal },
      );
    }
    document.addEventListener('pointerdown', (event) => !nav.contains(event.target as Node) && closeAll(), { signal });
    return () => {
      controller.abort();
      nav.removeAttribute('data-js');
      closeAll();
    };
  }, [id]);
  return null;
}
