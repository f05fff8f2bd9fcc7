'use client';

import dynamic from 'next/dynamic';
import { useState, type ReactElement, type ReactNode } from 'react';
import { DeferredDialog } from '@/components/ui/deferred-dialog';
import type { CarFormProps } from './car-forms';

/**
 * The car page's forms as modals. `trigger` is a link to the form's own page: without JavaScript
 * it goes there; with it, a plain click opens the dialog instead (a click with a modifier key still
 * opens the page in a new tab). The dialog traps focus, closes on Escape and returns focus to the
 * trigger. The dialog and the forms (validation, phone rules) load only when a dialog is first
 * wanted, so the car page's JavaScript stays small.
 */

const loading = () => <p className="py-6 text-center text-slate-600">Loading</p>;
const EnquiryForm = dynamic(() => import('./car-forms').then((m) => m.EnquiryForm), { loading });
const TestDriveForm = dynamic(() => import('./car-forms').then((m) => m.TestDriveForm), { loading });
const RequestPhotosForm = dynamic(() => import('./car-forms').then((m) => m.RequestPhotosForm), { loading });

type DialogProps = Omit<CarFormProps, 'showHeading'> & { trigger: ReactElement };

function FormDialog({ title, description, trigger, children }: { title: string; description: string; trigger: ReactElement; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <DeferredDialog open={open} onOpenChange={setOpen} trigger={trigger} title={title} description={description}>
      <div className="px-5 py-5">{children}</div>
    </DeferredDialog>
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
