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

// Styles: the nav-link and nav-panel classes of globals.css (every page carries this markup twice,
// in the HTML and in the RSC payload).

function DropdownLinks({ entry }: { entry: NavEntry }) {
  const overview = entry.link && !entry.children.some((child) => child.link?.href === entry.link?.href);
  return (
    <ul>
      {overview && entry.link ? (
        <li>
          <SiteLink link={entry.link}>
            {entry.label}
          </SiteLink>
        </li>
      ) : null}
      {entry.children.map((child) =>
        child.link ? (
          <li key={child.id}>
            <SiteLink link={child.link}>
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
              <button type="button" aria-expanded="false" className="nav-link group-data-open:bg-current/10">
                {entry.label}
                <ChevronDownIcon size={16} className="transition-transform duration-150 group-data-open:rotate-180" />
              </button>
              <div className={cn('nav-panel', panelSide(index, entries.length))}>
                <DropdownLinks entry={entry} />
              </div>
            </li>
          ) : (
            <li key={entry.id}>
              <SiteLink link={entry.link!} className="nav-link">
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
