'use client';

import type { ReactNode } from 'react';
import { NavigationMenu } from 'radix-ui';
import { cn } from '@/components/ui/cn';
import { ChevronDownIcon } from '@/components/ui/icons';
import type { NavEntry } from './navigation-model';
import { SiteLink } from './site-link';
import { useHydrated } from './use-hydrated';

/**
 * The header's main navigation from md up, with dropdowns. Once hydrated it is a Radix
 * NavigationMenu (Enter/Space/arrow keys open a dropdown, Escape closes it and returns focus,
 * aria-expanded on the triggers). The server HTML is the same menu with every dropdown link in
 * it, opening on hover and keyboard focus by CSS, so it works, and is crawlable, without JavaScript.
 */

type Props = { entries: NavEntry[]; align?: 'start' | 'center' | 'end'; label?: string };

const topLink =
  'inline-flex min-h-11 items-center gap-1 rounded-site px-3 text-[0.95rem] font-semibold whitespace-nowrap ' +
  'text-header-foreground hover:bg-current/10 data-[state=open]:bg-current/10';
const panel =
  'absolute top-full z-40 mt-1 min-w-60 rounded-site border border-gray-200 bg-white py-2 text-gray-900 shadow-xl';
const panelLink = 'block px-4 py-2.5 text-[0.95rem] font-medium hover:bg-gray-100 focus-visible:bg-gray-100';

function DropdownLinks({ entry, Wrap }: { entry: NavEntry; Wrap: (props: { children: ReactNode }) => ReactNode }) {
  const overview = entry.link && !entry.children.some((child) => child.link?.href === entry.link?.href);
  return (
    <ul>
      {overview && entry.link ? (
        <li>
          <Wrap>
            <SiteLink link={entry.link} className={panelLink}>
              {entry.label}
            </SiteLink>
          </Wrap>
        </li>
      ) : null}
      {entry.children.map((child) =>
        child.link ? (
          <li key={child.id}>
            <Wrap>
              <SiteLink link={child.link} className={panelLink}>
                {child.label}
              </SiteLink>
            </Wrap>
          </li>
        ) : null,
      )}
    </ul>
  );
}

/** Dropdowns of the last two items open leftwards so they stay on screen. */
function panelSide(index: number, count: number): string {
  return count > 2 && index >= count - 2 ? 'right-0' : 'left-0';
}

const Plain = ({ children }: { children: ReactNode }) => children;
const RadixLink = ({ children }: { children: ReactNode }) => (
  <NavigationMenu.Link asChild>{children}</NavigationMenu.Link>
);

export function HeaderNavigation({ entries, align = 'start', label = 'Main' }: Props) {
  const hydrated = useHydrated();
  const listClass = cn('flex flex-wrap items-center gap-x-1', align === 'center' && 'justify-center', align === 'end' && 'xl:justify-end');

  if (!hydrated) {
    return (
      <nav aria-label={label}>
        <ul className={listClass}>
          {entries.map((entry, index) =>
            entry.children.length > 0 ? (
              <li key={entry.id} className="group relative">
                <button type="button" aria-expanded="false" className={topLink}>
                  {entry.label}
                  <ChevronDownIcon size={16} />
                </button>
                <div className={cn(panel, panelSide(index, entries.length), 'hidden group-focus-within:block group-hover:block')}>
                  <DropdownLinks entry={entry} Wrap={Plain} />
                </div>
              </li>
            ) : (
              <li key={entry.id}>
                <SiteLink link={entry.link!} className={topLink}>
                  {entry.label}
                </SiteLink>
              </li>
            ),
          )}
        </ul>
      </nav>
    );
  }

  return (
    <NavigationMenu.Root aria-label={label} delayDuration={80} skipDelayDuration={300}>
      <NavigationMenu.List className={listClass}>
        {entries.map((entry, index) =>
          entry.children.length > 0 ? (
            <NavigationMenu.Item key={entry.id} value={String(entry.id)} className="relative">
              <NavigationMenu.Trigger className={cn(topLink, 'group')}>
                {entry.label}
                <ChevronDownIcon
                  size={16}
                  className="transition-transform duration-150 group-data-[state=open]:rotate-180"
                />
              </NavigationMenu.Trigger>
              <NavigationMenu.Content className={cn(panel, panelSide(index, entries.length))}>
                <DropdownLinks entry={entry} Wrap={RadixLink} />
              </NavigationMenu.Content>
            </NavigationMenu.Item>
          ) : (
            <NavigationMenu.Item key={entry.id}>
              <NavigationMenu.Link asChild>
                <SiteLink link={entry.link!} className={topLink}>
                  {entry.label}
                </SiteLink>
              </NavigationMenu.Link>
            </NavigationMenu.Item>
          ),
        )}
      </NavigationMenu.List>
    </NavigationMenu.Root>
  );
}
