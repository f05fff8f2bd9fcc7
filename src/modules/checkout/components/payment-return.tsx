'use client';

import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { FormAlert } from '@/modules/leads';
import { RETURN_OUTCOMES, type ReturnOutcome } from '../payment-step';
import { readReservations, RESERVATION_TOKEN_HEADER } from './checkout-storage';

/**
 * /checkout?reservation={id}&outcome=…: the visitor back from a hosted payment page (Till, St
 * George) or Stripe's 3-D Secure redirect (decision 041). The page asks the reservation endpoint
 * (which asks the provider) until the provider's notification has moved the reservation, and says
 * what happened. The outcome in the address only chooses the words while waiting: the server's
 * state decides.
 */

type View = { id: string; status: string; amount_display: string; message: string | null; refund_terms: string; car: { slug: string; name: string } };
type State = { kind: 'waiting' } | { kind: 'slow' } | { kind: 'unknown' } | { kind: 'settled'; view: View };

const POLL_MS = 2000;
const POLLS = 30;

export const RETURN_MESSAGES = {
  waiting: 'We are waiting for the payment provider to confirm your payment. This usually takes a few seconds; please keep this page open.',
  waitingAfterCancel: 'You left the payment page. We are checking with the payment provider whether a payment was made.',
  slow: 'Your payment is still being confirmed. We will email you as soon as it is, and your reservations below show it too.',
  unknown: 'We could not find this reservation in this browser. If you paid, we will email you the confirmation.',
  cancelled: 'The payment was cancelled and the car has been released. Your card has not been charged.',
  failed: 'Your payment did not go through and the car has been released. Your card has not been charged.',
} as const;

const noSubscription = () => () => {};

function parse(search: string | null): { id: string; outcome: ReturnOutcome } | null {
  if (!search) return null;
  const params = new URLSearchParams(search);
  const id = params.get('reservation');
  if (!id) return null;
  const given = params.get('outcome');
  return { id, outcome: RETURN_OUTCOMES.includes(given as ReturnOutcome) ? (given as ReturnOutcome) : 'success' };
}

export function PaymentReturn({ carBasePath }: { carBasePath: string }) {
  // null on the server (and while hydrating): the address is read in the browser only.
  const search = useSyncExternalStore(noSubscription, () => window.location.search, () => null);
  const target = useMemo(() => parse(search), [search]);
  const [state, setState] = useState<State>({ kind: 'waiting' });
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!target) return;
    const found = target;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (polls: number) => {
      const stored = readReservations().find((r) => r.id === found.id);
      if (!stored) return setState({ kind: 'unknown' });
      let view: View | null = null;
      try {
        const response = await fetch(`/api/checkout/reservations/${encodeURIComponent(found.id)}`, { headers: { Accept: 'application/json', [RESERVATION_TOKEN_HEADER]: stored.token } });
        if (response.status === 404) {
          if (!stop) setState({ kind: 'unknown' });
          return;
        }
        if (response.ok) view = ((await response.json()) as { reservation: View }).reservation;
      } catch {
        // Offline for a moment: asked again below.
      }
      if (stop) return;
      if (view && view.status !== 'pending_payment') return setState({ kind: 'settled', view });
      if (polls + 1 >= POLLS) return setState({ kind: 'slow' });
      timer = setTimeout(() => void ask(polls + 1), POLL_MS);
    };
    void ask(0);
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [target]);

  // The outcome is news: its heading takes the focus (screen readers hear it).
  useEffect(() => {
    if (state.kind !== 'waiting') headingRef.current?.focus();
  }, [state.kind]);

  if (!target) return null;
  const heading = (text: string) => (
    <h2 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-gray-900 outline-none">
      {text}
    </h2>
  );

  let body;
  if (state.kind === 'settled' && (state.view.status === 'held' || state.view.status === 'completed')) {
    const { view } = state;
    body = (
      <>
        {heading(`${view.car.name} is reserved for you`)}
        <FormAlert tone="success">{`Your deposit of ${view.amount_display} is paid and the car is held for you.`}</FormAlert>
        <p className="text-gray-800">We have emailed you a confirmation with what happens next. The dealer will call you shortly to arrange an inspection.</p>
        <div>
          <h3 className="font-semibold text-gray-900">Refund terms</h3>
          <p className="mt-2 text-gray-800">{view.refund_terms}</p>
        </div>
      </>
    );
  } else if (state.kind === 'settled') {
    const { view } = state;
    const fallback = view.status === 'cancelled' ? RETURN_MESSAGES.cancelled : RETURN_MESSAGES.failed;
    body = (
      <>
        {heading('Your payment did not go through')}
        <FormAlert tone="destructive">{view.message ?? fallback}</FormAlert>
        <p>
          <a className="font-semibold text-brand-text underline" href={`${carBasePath}/${view.car.slug}`}>
            Back to the {view.car.name}
          </a>
        </p>
      </>
    );
  } else if (state.kind === 'unknown') {
    body = (
      <>
        {heading('We could not find this reservation')}
        <p className="text-gray-800">{RETURN_MESSAGES.unknown}</p>
      </>
    );
  } else {
    body = (
      <>
        {heading(state.kind === 'slow' ? 'Still confirming your payment' : 'Confirming your payment')}
        <p className="text-gray-800" role="status">
          {state.kind === 'slow' ? RETURN_MESSAGES.slow : target.outcome === 'success' ? RETURN_MESSAGES.waiting : RETURN_MESSAGES.waitingAfterCancel}
        </p>
      </>
    );
  }

  return (
    <section className="mb-8 space-y-4 rounded-site border border-gray-200 bg-white p-5 shadow-sm sm:p-8" aria-live="polite" data-payment-return={state.kind === 'settled' ? state.view.status : state.kind}>
      {body}
    </section>
  );
}
