'use client';

import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { useInputBeforeHydration } from '@/components/ui/use-input-before-hydration';
import { FieldControl, fieldId, FormAlert, contactFields, type FieldDef, EDIT_TOKEN_HEADER } from '@/modules/leads';
import type { PhoneRule } from '@/lib/phone';
import type { FieldValue } from '@/modules/leads';
import { CHECKOUT_MESSAGES } from '../checkout.messages';
import type { PaymentStep } from '../payment-step';
import { newKey, RESERVATION_TOKEN_HEADER, storeReservation } from './checkout-storage';
import { HostedPayment } from './hosted-payment';
import { useStepHeading } from './use-step-heading';

// Stripe's step is wanted only where the website pays through Stripe, once the car is held: loaded
// then, not with the page (decision 033's budget for /checkout-journey).
const StripePayment = lazy(() => import('./stripe-payment').then((m) => ({ default: m.StripePayment })));

/**
 * The checkout page's island (decisions 034 and 041, issue 16): the visitor's details (the lead
 * form's fields and messages) and the terms → the reservation started (the hold) → the payment
 * step the provider's adapter gave (payment-step.ts: the sandbox card form and its confirmation
 * step, Stripe.js, or a hosted payment page that comes back to /checkout) → the confirmation. The
 * server page renders the car, the deposit and the terms; this is the only JavaScript of the page
 * besides the site's own (Stripe.js is loaded on a Stripe website's payment step only).
 */

type Step = 'details' | 'card' | 'authenticate' | 'done' | 'ended';
type Started = { id: string; token: string; payment: PaymentStep };
type SimilarCar = { id: number; slug: string; name: string; price: number };
type ReservationView = { id: string; status: string; amount_display: string; message: string | null; hold_expires_at: string };

export type CheckoutFlowProps = {
  car: { id: number; slug: string; name: string };
  kind: 'reserve' | 'buy_online';
  amountDisplay: string;
  holdMinutes: number;
  refundTerms: string;
  dealer: { name: string; phone: string };
  /** '/cars' (the website's vehicle path), for the similar cars' links. */
  carBasePath: string;
  /** The website's phone rule: its country gives the postcode field (a US ZIP code; issue 31). */
  phoneRule: PhoneRule;
  /** Online purchase (/checkout-journey): the buyer's choices, made on the steps before this one; null to reserve. */
  choices?: CheckoutChoices | null;
  /**
   * The online purchase's 'Go Back' (SPEC §2 multi-step form: Go Back, default text) to the step
   * before, offered on the details screen: before the car is held, so nothing is left behind.
   */
  onBack?: () => void;
};

/**
 * values: sent as the reservation's choices (they name the partial lead, lead_id); leadToken: that
 * lead's edit token, proving it is the visitor's; saveDetails: saves the details on it before the hold.
 */
export type CheckoutChoices = { values: Record<string, unknown>; leadToken: string | null; saveDetails: (details: Record<string, unknown>) => Promise<void> };

const FORM_ID = 'checkout';
const TERMS: FieldDef = { name: 'terms_accepted', label: 'I have read the refund terms above and accept them', kind: 'checkbox', required: true, wide: true };
const CARD_FIELDS = ['number', 'expiry', 'cvc'] as const;

const inputClasses =
  'block w-full rounded-site border bg-white px-3 py-2.5 text-base text-gray-900 shadow-sm placeholder:text-gray-500 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40';

async function call(url: string, init: { method?: string; token?: string | null; body?: unknown; key?: string; leadToken?: string | null }) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers[RESERVATION_TOKEN_HEADER] = init.token;
  if (init.leadToken) headers[EDIT_TOKEN_HEADER] = init.leadToken;
  if (init.key) headers['Idempotency-Key'] = init.key;
  try {
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    let body: Record<string, unknown> = {};
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      // Not JSON: treated as the unexpected error below.
    }
    return { status: response.status, body };
  } catch {
    return { status: 0, body: {} as Record<string, unknown> };
  }
}

function fieldsOf(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const fields = body.fields;
  if (!fields || typeof fields !== 'object') return out;
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value[0] : value;
    if (typeof message !== 'string') continue;
    const name = key.replace(/^(visitor|card|choices)\./, '');
    const mapped = name === 'exp_month' || name === 'exp_year' ? 'expiry' : name;
    out[mapped] ??= message;
  }
  return out;
}

const BACK_CLASSES =
  'inline-flex min-h-12 w-full items-center justify-center rounded-site border-2 border-slate-900 px-5 py-2 text-base font-semibold text-slate-900 disabled:opacity-60 sm:w-auto';

const TRY_AGAIN = 'Sorry, something went wrong. Your card has not been charged. Please try again.';

export function CheckoutFlow({ car, kind, amountDisplay, holdMinutes, refundTerms, dealer, carBasePath, phoneRule, choices = null, onBack }: CheckoutFlowProps) {
  const fields = contactFields({ phoneRule });
  const [step, setStep] = useState<Step>('details');
  const [values, setValues] = useState<Record<string, FieldValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [similar, setSimilar] = useState<SimilarCar[]>([]);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<Started | null>(null);
  const [visitor, setVisitor] = useState<Record<string, unknown> | null>(null);
  const [actionToken, setActionToken] = useState<string | null>(null);
  const [reservation, setReservation] = useState<ReservationView | null>(null);
  const [key, setKey] = useState(newKey);
  const headingRef = useStepHeading(step);
  const alertRef = useRef<HTMLDivElement>(null);
  const detailsRef = useRef<HTMLFormElement>(null);
  useInputBeforeHydration(detailsRef, (name) => values[name], (typed) => setValues((current) => ({ ...current, ...typed })));

  const setValue = (name: string, value: FieldValue) => setValues((v) => ({ ...v, [name]: value }));

  function showErrors(found: Record<string, string>, message: string | null, order: readonly string[]) {
    setErrors(found);
    setAlert(message);
    const first = order.find((name) => found[name]);
    requestAnimationFrame(() => {
      if (first) document.getElementById(fieldId(FORM_ID, first))?.focus();
      else alertRef.current?.focus();
    });
  }

  /** The reservation as it is now, asked again while the provider's answer is on its way. */
  async function settle(view: ReservationView, token: string) {
    let current = view;
    for (let i = 0; i < 20 && current.status === 'pending_payment'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { status, body } = await call(`/api/checkout/reservations/${view.id}`, { token });
      if (status === 200 && body.reservation) current = body.reservation as ReservationView;
    }
    setReservation(current);
    if (current.status === 'held' || current.status === 'completed') {
      setStep('done');
      return;
    }
    if (current.status === 'pending_payment') {
      setAlert('Your payment is still being confirmed. We will email you as soon as it is; you can follow it on the Your reservations page.');
      return;
    }
    setAlert(current.message ?? CHECKOUT_MESSAGES.notPending);
    setStep('ended');
  }

  /** Starts a reservation (the hold): the started payment, or the refusal shown where the visitor is. */
  async function begin(visitor: Record<string, unknown>, termsAccepted: boolean, idempotencyKey: string, order: readonly string[]): Promise<Started | null> {
    setBusy(true);
    setSimilar([]);
    const request = { car_id: car.id, kind, visitor, terms_accepted: termsAccepted, ...(choices ? { choices: choices.values } : {}) };
    const { status, body } = await call('/api/checkout/reservations', { method: 'POST', key: idempotencyKey, body: request, leadToken: choices?.leadToken });
    setBusy(false);
    if ((status === 200 || status === 201) && typeof body.token === 'string') {
      const view = body.reservation as ReservationView;
      const payment = (body.payment ?? null) as PaymentStep | null;
      storeReservation({ id: view.id, token: body.token, car_name: car.name, car_slug: car.slug, created_at: new Date().toISOString() });
      setReservation(view);
      if (!payment) {
        // A repeated start of a reservation no longer waiting for payment: it is on /checkout.
        setAlert(view.message ?? CHECKOUT_MESSAGES.notPending);
        setStep('ended');
        return null;
      }
      const next = { id: view.id, token: body.token, payment };
      setStarted(next);
      return next;
    }
    // The server answered (no reservation, or a failed one): the next start is a new request with a
    // new key, since the key is bound to this one's body (decision 056). Without an answer (status 0)
    // the key stays, so a retry finds the reservation a lost answer may have made.
    if (status !== 0) setKey(newKey());
    const message = typeof body.error === 'string' ? body.error : TRY_AGAIN;
    if (status === 409 && Array.isArray(body.similar_cars)) setSimilar(body.similar_cars as SimilarCar[]);
    if (status === 409 || status === 503) {
      setAlert(message);
      setStep('ended');
      return null;
    }
    setStep('details');
    showErrors(status === 422 ? fieldsOf(body) : {}, message, order);
    return null;
  }

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    // The server checks the details with the lead form's own rules and messages (422 names each
    // field, the terms included, and counts nothing against the visitor): the browser carries no
    // validation code, so the phone rules stay out of this page's JavaScript (decision 033's budget).
    const order = [...fields.map((f) => f.name), TERMS.name];
    const details: Record<string, unknown> = {};
    for (const field of fields) {
      const value = values[field.name];
      if (typeof value === 'string' && value.trim()) details[field.name] = value.trim();
    }
    setVisitor(details);
    if (choices) await choices.saveDetails(details);
    if (await begin(details, values[TERMS.name] === true, key, order)) {
      setErrors({});
      setAlert(null);
      setStep('card');
    }
  }

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const [month = '', year = ''] = text('expiry').split(/\s*\/\s*|\s+/);
    const found: Record<string, string> = {};
    if (!text('number')) found.number = 'Please enter your card number.';
    if (!month || !year) found.expiry = 'Please enter the expiry date as MM/YY.';
    if (!text('cvc')) found.cvc = 'Please enter the security code.';
    if (Object.keys(found).length) return showErrors(found, 'Please check the highlighted fields.', CARD_FIELDS);
    // After a declined card the reservation has ended: a new one holds the car again for this attempt.
    const current = started ?? (visitor ? await begin(visitor, true, newKey(), CARD_FIELDS) : null);
    if (current?.payment.kind !== 'card-form') return;
    setBusy(true);
    const { status, body } = await call(current.payment.card_url, {
      method: 'POST',
      token: current.token,
      body: { card: { number: text('number'), exp_month: month, exp_year: year, cvc: text('cvc') } },
    });
    setBusy(false);
    if (status === 200 && body.reservation) {
      setErrors({});
      setAlert(null);
      const next = body.next_action as { action_token?: string } | null;
      if (next?.action_token) {
        setActionToken(next.action_token);
        setStep('authenticate');
        return;
      }
      await settle(body.reservation as ReservationView, current.token);
      return;
    }
    const message = typeof body.error === 'string' ? body.error : TRY_AGAIN;
    // Declined (402): the provider's message, on the card step; that reservation has ended and the car is available again.
    if (status === 402) setStarted(null);
    if (status === 402 || status === 422 || status === 429) return showErrors(status === 422 ? fieldsOf(body) : {}, message, CARD_FIELDS);
    if (status === 409) {
      setAlert(message);
      setStep('ended');
      return;
    }
    showErrors({}, message, CARD_FIELDS);
  }

  async function authenticate(outcome: 'approve' | 'fail') {
    if (busy || started?.payment.kind !== 'card-form' || !actionToken) return;
    setBusy(true);
    const { status, body } = await call(started.payment.authenticate_url, { method: 'POST', token: started.token, body: { action_token: actionToken, outcome } });
    setBusy(false);
    setActionToken(null);
    if (status === 200 && body.reservation) {
      await settle(body.reservation as ReservationView, started.token);
      return;
    }
    const message = typeof body.error === 'string' ? body.error : TRY_AGAIN;
    if (status === 402) {
      // As a declined card: back to the card form with the provider's message (a new attempt starts a new reservation).
      setStarted(null);
      setStep('card');
      showErrors({}, message, CARD_FIELDS);
      return;
    }
    setAlert(message);
    setStep('ended');
  }

  const alertBox = alert ? (
    <div ref={alertRef} tabIndex={-1} className="outline-none" id={`${FORM_ID}-alert`}>
      <FormAlert tone="destructive">{alert}</FormAlert>
    </div>
  ) : null;

  const similarList = similar.length ? (
      <div>
        <p className="font-medium text-gray-900">You may like these instead:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Similar cars">
          {similar.map((s) => (
            <li key={s.id}>
              <a className="text-brand-text underline" href={`${carBasePath}/${s.slug}`}>
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    ) : null;

  const heading = (text: string) => (
    <h2 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-gray-900 outline-none">
      {text}
    </h2>
  );

  const submitClasses =
    'inline-flex min-h-12 w-full items-center justify-center rounded-site bg-brand px-5 py-2 text-base font-semibold text-brand-foreground hover:brightness-110 disabled:opacity-60 sm:w-auto';

  if (step === 'details') {
    return (
      <form ref={detailsRef} onSubmit={start} noValidate aria-labelledby={`${FORM_ID}-heading`} className="space-y-5" data-step="details">
        <h2 id={`${FORM_ID}-heading`} ref={headingRef} tabIndex={-1} className="text-xl font-bold text-gray-900 outline-none">
          Your details
        </h2>
        {alertBox}
        <div className="grid gap-5 sm:grid-cols-2">
          {fields.map((field) => (
            <FieldControl key={field.name} formId={FORM_ID} field={field} value={values[field.name]} error={errors[field.name]} onChange={setValue} />
          ))}
          <FieldControl formId={FORM_ID} field={TERMS} value={values[TERMS.name]} error={errors[TERMS.name]} onChange={setValue} />
        </div>
        <p className="text-sm text-gray-700">
          We hold the car for you for {holdMinutes} minutes while you pay. Your deposit is taken only once the car is held for you.
        </p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          {onBack ? (
            <button type="button" onClick={onBack} disabled={busy} className={BACK_CLASSES}>
              Go Back
            </button>
          ) : null}
          <button type="submit" className={submitClasses} disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Holding the car…' : `Reserve for ${amountDisplay}`}
          </button>
        </div>
      </form>
    );
  }

  if (step === 'card' && started && started.payment.kind !== 'card-form') {
    const payment = started.payment;
    return (
      <div className="space-y-5" data-step="card">
        {heading(`Pay your ${amountDisplay} deposit`)}
        {alertBox}
        {payment.kind === 'stripe' ? (
          <Suspense fallback={<p className="text-slate-600">Loading the payment form…</p>}>
            <StripePayment step={payment} amountDisplay={amountDisplay} submitClasses={submitClasses} onConfirmed={() => reservation && settle(reservation, started.token)} />
          </Suspense>
        ) : (
          <HostedPayment step={payment} amountDisplay={amountDisplay} submitClasses={submitClasses} />
        )}
      </div>
    );
  }

  if (step === 'card') {
    const describedBy = (name: string) => (errors[name] ? `${fieldId(FORM_ID, name)}-error` : undefined);
    const cardInput = (name: (typeof CARD_FIELDS)[number], label: string, autoComplete: string, placeholder: string, maxLength: number) => (
      <div>
        <label htmlFor={fieldId(FORM_ID, name)} className="mb-1.5 block font-medium text-gray-900">
          {label}
        </label>
        <input
          id={fieldId(FORM_ID, name)}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete={autoComplete}
          placeholder={placeholder}
          maxLength={maxLength}
          required
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={describedBy(name)}
          className={`${inputClasses} ${errors[name] ? 'border-red-600' : 'border-gray-300'}`}
        />
        {errors[name] ? (
          <p id={`${fieldId(FORM_ID, name)}-error`} className="mt-1.5 text-sm font-medium text-red-700">
            {errors[name]}
          </p>
        ) : null}
      </div>
    );
    return (
      <form onSubmit={pay} noValidate className="space-y-5" data-step="card">
        {heading(`Pay your ${amountDisplay} deposit`)}
        <p className="rounded-site border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Test payments (sandbox): no real card is charged. Use 4242 4242 4242 4242 with any future expiry and any 3-digit code.
        </p>
        {alertBox}
        {cardInput('number', 'Card number', 'cc-number', '1234 1234 1234 1234', 23)}
        <div className="grid grid-cols-2 gap-4">
          {cardInput('expiry', 'Expiry (MM/YY)', 'cc-exp', 'MM/YY', 7)}
          {cardInput('cvc', 'Security code (CVC)', 'cc-csc', '123', 4)}
        </div>
        <button type="submit" className={submitClasses} disabled={busy} aria-busy={busy || undefined}>
          {busy ? 'Paying…' : `Pay ${amountDisplay}`}
        </button>
      </form>
    );
  }

  if (step === 'authenticate') {
    return (
      <div className="space-y-5" data-step="authenticate">
        {heading('Confirm your payment')}
        <p className="text-gray-800">
          Your bank asks you to confirm this payment of {amountDisplay}. (Sandbox: this stands in for your bank&apos;s own confirmation page.)
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          <button type="button" className={submitClasses} disabled={busy} onClick={() => authenticate('approve')}>
            Approve
          </button>
          <button
            type="button"
            className="inline-flex min-h-12 w-full items-center justify-center rounded-site border-2 border-slate-900 px-5 py-2 font-semibold text-slate-900 sm:w-auto"
            disabled={busy}
            onClick={() => authenticate('fail')}
          >
            Fail
          </button>
        </div>
      </div>
    );
  }

  if (step === 'done') {
    return (
      <div className="space-y-5" data-step="done" data-status={reservation?.status}>
        {heading(`${car.name} is reserved for you`)}
        <FormAlert tone="success">{`Your deposit of ${reservation?.amount_display ?? amountDisplay} is paid and the car is held for you.`}</FormAlert>
        <div>
          <h3 className="font-semibold text-gray-900">What happens next</h3>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-gray-800">
            <li>We have emailed you a confirmation.</li>
            <li>{dealer.name} will call you shortly to arrange an inspection and the paperwork.</li>
            <li>The deposit counts towards the price when you buy the car.</li>
          </ol>
        </div>
        <div>
          <h3 className="font-semibold text-gray-900">Refund terms</h3>
          <p className="mt-2 text-gray-800">{refundTerms}</p>
        </div>
        <p className="text-gray-800">
          Questions? Call {dealer.name}
          {dealer.phone ? (
            <>
              {' '}
              on{' '}
              <a className="font-semibold text-brand-text underline" href={`tel:${dealer.phone.replace(/[^\d+]/g, '')}`}>
                {dealer.phone}
              </a>
            </>
          ) : null}
          .
        </p>
        <p>
          {/* A full page load, as it always was: the lint rule sees /checkout as a page only since the site's routes sit at the app's root (decision 045). */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a className="font-semibold text-brand-text underline" href="/checkout">
            Your reservations
          </a>
        </p>
      </div>
    );
  }

  return (
    <div className="space-y-5" data-step="ended">
      {heading(similar.length ? 'This car cannot be reserved now' : 'This reservation has ended')}
      {alertBox}
      {similarList}
      <p>
        <a className="font-semibold text-brand-text underline" href={`${carBasePath}/${car.slug}`}>
          Back to the {car.name}
        </a>
      </p>
    </div>
  );
}
