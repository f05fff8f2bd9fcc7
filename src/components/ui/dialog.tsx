'use client';

import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode, RefObject } from 'react';
import { cn } from './cn';
import { CloseIcon } from './icons';

/**
 * Modal dialog on Radix: focus is trapped and returned, Escape and the close button dismiss it,
 * the title names it for screen readers. `variant="sheet"` slides in from the right (menus).
 */

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

type DialogContentProps = {
  title: ReactNode;
  /** Shown under the title; when absent the dialog has no aria-describedby. */
  description?: ReactNode;
  /** Keep the title for screen readers only. */
  hideTitle?: boolean;
  variant?: 'modal' | 'sheet';
  closeLabel?: string;
  className?: string;
  /** Where focus goes when the dialog closes, for a dialog opened without a DialogTrigger. */
  returnFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
};

export function DialogContent({
  title,
  description,
  hideTitle = false,
  variant = 'modal',
  closeLabel = 'Close',
  className,
  returnFocus,
  children,
}: DialogContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-[site-fade-in_150ms_ease-out]" />
      <RadixDialog.Content
        {...(description ? {} : { 'aria-describedby': undefined })}
        onCloseAutoFocus={
          returnFocus
            ? (event) => {
                event.preventDefault();
                returnFocus.current?.focus();
              }
            : undefined
        }
        className={cn(
          'fixed z-50 flex flex-col bg-white text-gray-900 shadow-2xl focus:outline-none',
          variant === 'sheet'
            ? 'inset-y-0 right-0 h-full w-[min(22rem,88vw)] data-[state=open]:animate-[site-slide-in_200ms_ease-out]'
            : 'top-1/2 left-1/2 max-h-[90vh] w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-site data-[state=open]:animate-[site-fade-in_150ms_ease-out]',
          className,
        )}
      >
        <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-5 py-4">
          <div>
            <RadixDialog.Title className={cn('text-lg font-bold', hideTitle && 'sr-only')}>{title}</RadixDialog.Title>
            {description ? (
              <RadixDialog.Description className="mt-1 text-sm text-gray-600">{description}</RadixDialog.Description>
            ) : null}
          </div>
          <RadixDialog.Close
            className="-mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-site text-gray-700 hover:bg-gray-100"
            aria-label={closeLabel}
          >
            <CloseIcon />
          </RadixDialog.Close>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

/** A dialog its caller opens and closes (see DeferredDialog, which loads this module on first use). */
export function ControlledDialog({
  open,
  onOpenChange,
  ...content
}: DialogContentProps & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent {...content} />
    </Dialog>
  );
}
