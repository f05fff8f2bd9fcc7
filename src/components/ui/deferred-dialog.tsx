'use client';

import dynamic from 'next/dynamic';
import { cloneElement, useRef, useState, type ComponentProps, type MouseEvent, type ReactElement } from 'react';
import type { ControlledDialog as ControlledDialogType } from './dialog';

const loadDialog = () => import('./dialog');
const ControlledDialog = dynamic(() => loadDialog().then((m) => m.ControlledDialog));

type TriggerProps = {
  ref?: unknown;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
};

type Props = Omit<ComponentProps<typeof ControlledDialogType>, 'returnFocus'> & {
  /**
   * A link or button made in a client component; a plain click opens the dialog instead (a link
   * with a modifier key still navigates). A server page passes a TriggerLink to the dialogs below
   * instead: an element it sends may reach the browser as a lazy reference, which cloneElement turns
   * into an element of no type (the page then fails to render).
   */
  trigger: ReactElement;
};

/** The trigger link as data, for dialogs a server page offers. */
export type TriggerLink = { href: string; label: string; className?: string; action?: string };

/** The <a> of a TriggerLink: without JavaScript it goes to the form's own page. */
export function triggerAnchor({ href, label, className, action }: TriggerLink): ReactElement {
  return (
    <a href={href} className={className} data-action={action}>
      {label}
    </a>
  );
}

/**
 * The Radix dialog (components/ui/dialog), loaded when it is first wanted rather than with the
 * page: the trigger is the caller's own element, so pages that merely offer a dialog ship and
 * hydrate none of Radix's code. Pointing at or focusing the trigger starts the download, so the
 * dialog usually opens at once. Focus returns to the trigger when it closes.
 */
export function DeferredDialog({ trigger, open, onOpenChange, ...content }: Props) {
  const triggerRef = useRef<HTMLElement>(null);
  // Stays mounted after the first opening, so the closing focus return and animation run.
  const [wanted, setWanted] = useState(false);
  const openInPlace = (event: MouseEvent<HTMLElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setWanted(true);
    onOpenChange(true);
  };
  const preload = () => void loadDialog();
  return (
    <>
      {cloneElement(trigger as ReactElement<TriggerProps>, {
        ref: triggerRef,
        onClick: openInPlace,
        onPointerEnter: preload,
        onFocus: preload,
        'aria-haspopup': 'dialog',
        'aria-expanded': open,
      } as TriggerProps)}
      {wanted ? <ControlledDialog {...content} open={open} onOpenChange={onOpenChange} returnFocus={triggerRef} /> : null}
    </>
  );
}
