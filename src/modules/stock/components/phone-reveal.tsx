'use client';

import { useState, type FormEvent } from 'react';
import { telHref } from '@/modules/tenancy/tenancy.links';

type Props = {
  /** The number with all but its first 5 characters hidden (maskPhone). */
  masked: string;
  /** Set when the page already shows the number (a reveal posted without JavaScript). */
  revealed: string | null;
  carId: number;
  dealershipId: number;
  websiteId: number;
  className: string;
};

/**
 * Call the dealer with a masked number (SPEC §2, §4): a click asks the phone-reveal call for the
 * full number (it records the reveal), posts the car_phone_call event and shows the number as a
 * call link. Without JavaScript the form posts to the same call, which sends the page back with
 * the number shown.
 */
export function PhoneReveal({ masked, revealed, carId, dealershipId, websiteId, className }: Props) {
  const [phone, setPhone] = useState<string | null>(revealed);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  const ids = { car_id: carId, dealership_id: dealershipId, website_id: websiteId };

  async function reveal(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state === 'loading') return;
    setState('loading');
    try {
      const response = await fetch('/api/phone-reveal', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(ids),
      });
      const body = (await response.json()) as { phone?: string };
      if (!response.ok || !body.phone) {
        // SPEC §8: a missing phone on reveal is a console warning only.
        console.warn('Phone reveal: no phone number for this car');
        setState('error');
        return;
      }
      setPhone(body.phone);
      setState('idle');
      void fetch('/api/events/car_phone_call', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...ids, url: window.location.href }),
        keepalive: true,
      }).catch(() => {});
    } catch {
      setState('error');
    }
  }

  if (phone) {
    return (
      <a href={telHref(phone) ?? undefined} className={className} id="call-dealer">
        Call {phone}
      </a>
    );
  }
  return (
    <form method="post" action="/api/phone-reveal" onSubmit={reveal} id="call-dealer">
      <input type="hidden" name="car_id" value={carId} />
      <input type="hidden" name="dealership_id" value={dealershipId} />
      <input type="hidden" name="website_id" value={websiteId} />
      <button type="submit" className={className} aria-busy={state === 'loading'}>
        <span>
          Call {masked} <span className="text-sm font-normal underline">Show number</span>
        </span>
      </button>
      {state === 'error' ? (
        <p role="alert" className="mt-1 text-sm text-red-700">
          The number could not be shown just now. Please try again.
        </p>
      ) : null}
    </form>
  );
}
