'use client';

import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { EnquiryForm, RequestPhotosForm, TestDriveForm, type CarFormProps } from './car-forms';

/**
 * The car page's forms as modals. `trigger` is the element that opens the dialog (a button); the
 * dialog traps focus, closes on Escape and returns focus to the trigger.
 */

type DialogProps = Omit<CarFormProps, 'showHeading'> & { trigger: ReactNode };

function FormDialog({ title, description, trigger, children }: { title: string; description: string; trigger: ReactNode; children: ReactNode }) {
  return (
    <Dialog>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
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
