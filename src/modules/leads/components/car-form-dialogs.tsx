'use client';

import dynamic from 'next/dynamic';
import { useState, type ReactNode } from 'react';
import { DeferredDialog, triggerAnchor, type TriggerLink } from '@/components/ui/deferred-dialog';
import { spell } from '@/lib/format';
import type { CarFormProps } from './car-forms';

/**
 * The car page's forms as modals. `link` is a link to the form's own page: without JavaScript
 * it goes there; with it, a plain click opens the dialog instead (a click with a modifier key still
 * opens the page in a new tab). The dialog traps focus, closes on Escape and returns focus to the
 * trigger. The dialog and the forms (validation, phone rules) load only when a dialog is first
 * wanted, so the car page's JavaScript stays small.
 */

const loading = () => <p className="py-6 text-center text-slate-600">Loading</p>;
const EnquiryForm = dynamic(() => import('./car-forms').then((m) => m.EnquiryForm), { loading });
const TestDriveForm = dynamic(() => import('./car-forms').then((m) => m.TestDriveForm), { loading });
const RequestPhotosForm = dynamic(() => import('./car-forms').then((m) => m.RequestPhotosForm), { loading });

type DialogProps = Omit<CarFormProps, 'showHeading'> & { link: TriggerLink };

function FormDialog({ title, description, link, children }: { title: string; description: string; link: TriggerLink; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <DeferredDialog open={open} onOpenChange={setOpen} trigger={triggerAnchor(link)} title={title} description={description}>
      <div className="px-5 py-5">{children}</div>
    </DeferredDialog>
  );
}

export function EnquiryDialog({ link, submitLabel, ...props }: DialogProps & { submitLabel: string }) {
  return (
    <FormDialog title={spell(props.site, 'Enquire Now')} description={props.car.name} link={link}>
      <EnquiryForm {...props} submitLabel={submitLabel} showHeading={false} />
    </FormDialog>
  );
}

export function TestDriveDialog({ link, ...props }: DialogProps) {
  return (
    <FormDialog title="Book a Test Drive" description={props.car.name} link={link}>
      <TestDriveForm {...props} showHeading={false} />
    </FormDialog>
  );
}

export function RequestPhotosDialog({ link, ...props }: DialogProps) {
  return (
    <FormDialog title="Request Photos" description={props.car.name} link={link}>
      <RequestPhotosForm {...props} showHeading={false} />
    </FormDialog>
  );
}
