'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';
import { DeferredDialog, triggerAnchor, type TriggerLink } from '@/components/ui/deferred-dialog';
import type { LeadSite } from '@/modules/leads';

/**
 * The finance page's and the car page's dialogs. Each trigger is a link that works without
 * JavaScript; the dialog and the instant finance form load only when first opened.
 */

export const INSTANT_FINANCE_TITLE = 'Instant Finance pre-approval with no impact on your credit score.';

/** What the popup needs of the chosen car (SPEC §7 quote and create-customer fields). */
export type InstantFinanceCar = { id: number; name: string; price: number; vin: string | null; nvic: string | null; year: number; carType: string; dealershipSlug: string };

const loading = () => <p className="py-6 text-center text-slate-600">Loading</p>;
const InstantFinanceForm = dynamic(() => import('./instant-finance-form').then((m) => m.InstantFinanceForm), { loading });

export function InstantFinanceDialog({
  link,
  car,
  site,
  initialPrice,
  whoIsHelping,
}: {
  link: TriggerLink;
  car: InstantFinanceCar | null;
  site: LeadSite;
  initialPrice?: number;
  whoIsHelping?: string | null;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DeferredDialog open={open} onOpenChange={setOpen} trigger={triggerAnchor(link)} title={INSTANT_FINANCE_TITLE} description={car ? car.name : 'Your personalised quote in a minute.'}>
      <div className="px-5 py-5">
        <InstantFinanceForm car={car} site={site} initialPrice={initialPrice ?? (car && car.price > 0 ? car.price : undefined)} whoIsHelping={whoIsHelping ?? null} />
      </div>
    </DeferredDialog>
  );
}

/** 'View disclaimer' (SPEC §2): without JavaScript the link goes to the text on the page. */
export function FinanceDisclaimerDialog({ link, text }: { link: TriggerLink; text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <DeferredDialog open={open} onOpenChange={setOpen} trigger={triggerAnchor(link)} title="Finance Disclaimer" description="How the estimates on this website are worked out.">
      <p className="px-5 py-5 text-sm leading-relaxed text-slate-700">{text}</p>
    </DeferredDialog>
  );
}
