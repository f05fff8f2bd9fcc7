'use client';

import { useState } from 'react';
import { DeferredDialog } from '@/components/ui/deferred-dialog';
import { buttonClasses } from '@/components/ui/button';
import { useHydrated } from '@/components/ui/use-hydrated';
import type { HolidayRow } from '../locations.hours';

type Props = {
  locationName: string;
  rows: HolidayRow[];
  /** Appointment-only locations say so, with their phone. */
  appointmentOnly: boolean;
  phone: string;
  phoneHref: string | null;
  /** The website's special-hours notice, if any. */
  notice: string | null;
};

export const HOLIDAY_TEXT = {
  button: 'View Holiday Hours',
  title: 'Holiday Opening Hours',
  appointment: 'Site visits are by appointment only. Please call',
  appointmentEnd: 'to arrange a time.',
  none: 'No holiday hours are published for the coming months; our usual hours apply.',
} as const;

/**
 * 'View Holiday Hours' and its dialog: the location's upcoming special hours. Without JavaScript
 * (and until the page hydrates) the same content opens in place under a disclosure instead. The
 * dialog's code loads when it is first wanted (DeferredDialog), not with the contact page.
 */
export function HolidayHoursDialog(props: Props) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  if (!hydrated) {
    return (
      <details className="group">
        <summary className={`${buttonClasses('outline', 'sm')} cursor-pointer list-none`}>{HOLIDAY_TEXT.button}</summary>
        <div className="mt-3 rounded-site border border-gray-200">
          <h3 className="px-5 pt-4 text-lg font-bold">{HOLIDAY_TEXT.title}</h3>
          <HolidayHours {...props} />
        </div>
      </details>
    );
  }
  return (
    <DeferredDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className={buttonClasses('outline', 'sm')}>
          {HOLIDAY_TEXT.button}
        </button>
      }
      title={HOLIDAY_TEXT.title}
      description={props.locationName}
    >
      <HolidayHours {...props} />
    </DeferredDialog>
  );
}

function HolidayHours({ locationName, rows, appointmentOnly, phone, phoneHref, notice }: Props) {
  return (
    <div className="space-y-4 px-5 py-4">
      {appointmentOnly ? (
        <p className="rounded-site border border-amber-300 bg-amber-50 p-3 text-[0.95rem] text-amber-950">
          {HOLIDAY_TEXT.appointment}{' '}
          {phoneHref ? (
            <a href={phoneHref} className="font-bold underline underline-offset-2">
              {phone}
            </a>
          ) : (
            <strong>{phone}</strong>
          )}{' '}
          {HOLIDAY_TEXT.appointmentEnd}
        </p>
      ) : null}
      {notice ? <p className="text-[0.95rem] text-gray-700">{notice}</p> : null}
      {rows.length > 0 ? (
        <table className="w-full text-left text-[0.95rem]">
          <caption className="sr-only">{`${HOLIDAY_TEXT.title}: ${locationName}`}</caption>
          <thead>
            <tr className="border-b border-gray-200 text-sm text-gray-600">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Date
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Hours
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.date} className="border-b border-gray-100 last:border-0">
                <th scope="row" className="py-2 pr-3 align-top font-medium">
                  {row.label}
                  {row.name ? <span className="block text-sm font-normal text-gray-600">{row.name}</span> : null}
                </th>
                <td className={`py-2 text-right align-top ${row.kind === 'open' ? 'text-gray-900' : 'text-gray-700'}`}>{row.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-[0.95rem] text-gray-700">{HOLIDAY_TEXT.none}</p>
      )}
    </div>
  );
}
