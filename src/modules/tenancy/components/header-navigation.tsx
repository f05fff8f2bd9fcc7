import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { ChevronDownIcon } from '@/components/ui/icons';
import { NavigationEnhancer } from './navigation-enhancer';
import type { NavEntry } from './navigation-model';
import { SiteLink } from './site-link';

/**
 * The header's main navigation from md up, with dropdowns, rendered on the server: without
 * JavaScript a dropdown opens on hover and on keyboard focus by CSS, so the menu works, and is
 * crawlable, as it is. NavigationEnhancer then makes each dropdown a disclosure (click or
 * Enter/Space toggles it with aria-expanded, arrow keys move through its links, Escape closes it
 * and returns focus) without hydrating the menu.
 */

type Props = { entries: NavEntry[]; align?: 'start' | 'center' | 'end'; label?: string; id?: string };

const topLink =
  'inline-flex min-h-11 items-center gap-1 rounded-site px-3 text-[0.95rem] font-semibold whitespace-nowrap ' +
  'text-header-foreground hover:bg-current/10';
// Open: on hover, or (without JavaScript) while focus is inside, or (with it) when toggled.
const panel =
  'absolute top-full z-40 mt-1 hidden min-w-60 rounded-site border border-gray-200 bg-white py-2 text-gray-900 shadow-xl ' +
  'group-hover:block not-in-data-js:group-focus-within:block group-data-open:block';
const panelLink = 'block px-4 py-2.5 text-[0.95rem] font-medium hover:bg-gray-100 focus-visible:bg-gray-100';

function DropdownLinks({ entry }: { entry: NavEntry }) {
  const overview = entry.link && !entry.children.some((child) => child.link?.href === entry.link?.href);
  return (
    <ul>
      {overview && entry.link ? (
        <li>
          <SiteLink link={entry.link} className={panelLink}>
            {entry.label}
          </SiteLink>
        </li>
      ) : null}
      {entry.children.map((child) =>
        child.link ? (
          <li key={child.id}>
            <SiteLink link={child.link} className={panelLink}>
              {child.label}
            </SiteLink>
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

export function HeaderNavigation({ entries, align = 'start', label = 'Main', id = 'site-navigation' }: Props): ReactNode {
  const listClass = cn('flex flex-wrap items-center gap-x-1', align === 'center' && 'justify-center', align === 'end' && 'xl:justify-end');
  return (
    <nav aria-label={label} id={id}>
      <ul className={listClass}>
        {entries.map((entry, index) =>
          entry.children.length > 0 ? (
            <li key={entry.id} className="group relative" data-nav-item>
              <button type="button" aria-expanded="false" className={cn(topLink, 'group-data-open:bg-current/10')}>
                {entry.label}
                <ChevronDownIcon size={16} className="transition-transform duration-150 group-data-open:rotate-180" />
              </button>
              <div className={cn(panel, panelSide(index, entries.length))}>
                <DropdownLinks entry={entry} />
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
      <NavigationEnhancer id={id} />
    </nav>
  );
}
