'use client';

import { useState } from 'react';
import { DeferredDialog } from '@/components/ui/deferred-dialog';
import { cn } from '@/components/ui/cn';
import { MenuIcon, PhoneIcon } from '@/components/ui/icons';
import type { NavEntry } from './navigation-model';
import { SiteLink } from './site-link';
import { useHydrated } from '@/components/ui/use-hydrated';

/**
 * The menu below md: a button opening a side sheet (Radix Dialog, loaded on first use: focus
 * trapped, Escape closes, focus returns to the button). In the server HTML it is a <details>
 * disclosure with the same links, so the menu works before hydration and without JavaScript.
 */

type Props = {
  entries: NavEntry[];
  siteName: string;
  phone: { display: string; href: string } | null;
  labels: { menu: string; close: string; call: string };
};

const triggerClass =
  'inline-flex size-11 cursor-pointer list-none items-center justify-center rounded-site text-header-foreground ' +
  'hover:bg-current/10 [&::-webkit-details-marker]:hidden';

function MenuLinks({ entries, onNavigate }: { entries: NavEntry[]; onNavigate?: () => void }) {
  return (
    <ul className="divide-y divide-gray-200">
      {entries.map((entry) => (
        <li key={entry.id} className="py-1">
          {entry.link ? (
            <SiteLink
              link={entry.link}
              onClick={onNavigate}
              className="flex min-h-12 items-center px-5 text-base font-semibold text-gray-900 hover:bg-gray-50"
            >
              {entry.label}
            </SiteLink>
          ) : (
            <p className="flex min-h-12 items-center px-5 text-base font-semibold text-gray-900">{entry.label}</p>
          )}
          {entry.children.length > 0 ? (
            <ul className="pb-2">
              {entry.children.map((child) =>
                child.link ? (
                  <li key={child.id}>
                    <SiteLink
                      link={child.link}
                      onClick={onNavigate}
                      className="flex min-h-11 items-center pr-5 pl-9 text-[0.95rem] text-gray-700 hover:bg-gray-50"
                    >
                      {child.label}
                    </SiteLink>
                  </li>
                ) : null,
              )}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function CallLink({ phone, label }: { phone: NonNullable<Props['phone']>; label: string }) {
  return (
    <a
      href={phone.href}
      className="m-5 flex min-h-12 items-center justify-center gap-2 rounded-site bg-brand px-4 font-semibold text-brand-foreground"
    >
      <PhoneIcon size={18} />
      {label} {phone.display}
    </a>
  );
}

export function MobileMenu({ entries, siteName, phone, labels }: Props) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);

  if (!hydrated) {
    return (
      <details className="group">
        <summary className={triggerClass} aria-label={labels.menu}>
          <MenuIcon size={24} />
        </summary>
        <div
          className={cn(
            'absolute inset-x-0 top-full z-40 max-h-[80vh] overflow-y-auto border-t border-gray-200 bg-white shadow-xl',
          )}
        >
          <nav aria-label="Main">
            <MenuLinks entries={entries} />
          </nav>
          {phone ? <CallLink phone={phone} label={labels.call} /> : null}
        </div>
      </details>
    );
  }

  return (
    <DeferredDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className={triggerClass} aria-label={labels.menu}>
          <MenuIcon size={24} />
        </button>
      }
      title={siteName}
      variant="sheet"
      closeLabel={labels.close}
    >
      <nav aria-label="Main">
        <MenuLinks entries={entries} onNavigate={() => setOpen(false)} />
      </nav>
      {phone ? <CallLink phone={phone} label={labels.call} /> : null}
    </DeferredDialog>
  );
}
