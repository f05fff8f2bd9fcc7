'use client';

import dynamic from 'next/dynamic';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import type { CarFormProps } from './car-forms';

/**
 * The car page's forms as modals. `trigger` is a link to the form's own page: without JavaScript
 * it goes there; with it, a plain click opens the dialog instead (a click with a modifier key still
 * opens the page in a new tab). The dialog traps focus, closes on Escape and returns focus to the
 * trigger. The forms (validation, phone rules) load only when a dialog first opens, so the car
 * page's JavaScript stays small.
 */

const loading = () => <p className="py-6 text-center text-slate-600">Loading</p>;
const EnquiryForm = dynamic(() => import('./car-forms').then((m) => m.EnquiryForm), { loading });
const TestDriveForm = dynamic(() => import('./car-forms').then((m) => m.TestDriveForm), { loading });
const RequestPhotosForm = dynamic(() => import('./car-forms').then((m) => m.RequestPhotosForm), { loading });

type DialogProps = Omit<CarFormProps, 'showHeading'> & { trigger: ReactNode };

function FormDialog({ title, description, trigger, children }: { title: string; description: string; trigger: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const openInPlace = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // Keeps the link from navigating; Radix then leaves the toggle to us.
    event.preventDefault();
    setOpen(true);
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild onClickCapture={openInPlace}>
        {trigger}
      </DialogTrigger>
      <DialogContent title={title} description={description}>
        <div className="px-5 py-5">{children}</div>
      </DialogContent>
    </Dialog>
  );
}

export function EnquiryDialog({ trigger, submitLabel, ...props }: DialogProps & { submitLabel: string }) {
  return (
    <FormDialog title="Enquire Now" description={props.car.name} trigger={trigger}>
      <EnquiryForm {...props} submitLabel={submitLabel} showHeading={false} />
    </FormDialog>
  );
}

export function TestDriveDialog({ trigger, ...props }: DialogProps) {
  return (
    <FormDialog title="Book a Test Drive" description={props.car.name} trigger={trigger}>
      <TestDriveForm {...props} showHeading={false} />
    </FormDialog>
  );
}

export function RequestPhotosDialog({ trigger, ...props }: DialogProps) {
  return (
    <FormDialog title="Request Photos" description={props.car.name} trigger={trigger}>
      <RequestPhotosForm {...props} showHeading={false} />
    </FormDialog>
  );
}
