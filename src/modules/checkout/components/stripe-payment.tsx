'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormAlert } from '@/modules/leads';
import { STRIPE_JS_URL, type PaymentStep } from '../payment-step';

/**
 * Stripe's payment step (decision 041): Stripe.js, loaded from js.stripe.com only here (the page's
 * CSP allows it on a Stripe website's checkout pages only), draws the Payment Element with the
 * dealership's publishable key and the PaymentIntent's client secret, and confirms the payment
 * with redirect 'if_required'. What Stripe.js answers only says whether to wait: the server asks
 * Stripe (and hears its webhook) before the reservation is held.
 */

type StripeError = { type?: string; message?: string };
type StripeElement = { mount(target: HTMLElement): void; destroy(): void; on(event: 'ready', handler: () => void): void };
type StripeElements = { create(type: 'payment', options?: Record<string, unknown>): StripeElement };
type StripeInstance = {
  elements(options: { clientSecret: string; appearance?: Record<string, unknown> }): StripeElements;
  confirmPayment(options: { elements: StripeElements; confirmParams: { return_url: string }; redirect: 'if_required' }): Promise<{ error?: StripeError; paymentIntent?: { status: string } }>;
};
type StripeFactory = (publishableKey: string) => StripeInstance;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

let loading: Promise<StripeFactory> | null = null;

/** Stripe.js, once per page (Stripe does not support bundling or self-hosting it). */
function loadStripeJs(): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js loaded without Stripe')));
    script.onerror = () => reject(new Error('Stripe.js did not load'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export const STRIPE_MESSAGES = {
  loading: 'Loading the secure card form…',
  notLoaded: 'The secure card form could not be loaded. Please check your connection and try again, or call us and we will hold the car for you.',
  failed: 'Sorry, your payment could not be completed. Your card has not been charged. Please try again.',
} as const;

type Props = {
  step: Extract<PaymentStep, { kind: 'stripe' }>;
  amountDisplay: string;
  submitClasses: string;
  /** Stripe.js confirmed without leaving the page: the flow asks the server where the reservation stands. */
  onConfirmed: () => void;
};

export function StripePayment({ step, amountDisplay, submitClasses, onConfirmed }: Props) {
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: StripeInstance; elements: StripeElements } | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let element: StripeElement | null = null;
    let gone = false;
    loadStripeJs().then(
      (factory) => {
        if (gone || !mountRef.current) return;
        const stripe = factory(step.publishable_key);
        const elements = stripe.elements({ clientSecret: step.client_secret, appearance: { theme: 'stripe' } });
        element = elements.create('payment', { layout: 'tabs' });
        element.on('ready', () => {
          if (!gone) setReady(true);
        });
        element.mount(mountRef.current);
        stripeRef.current = { stripe, elements };
      },
      () => {
        if (!gone) setAlert(STRIPE_MESSAGES.notLoaded);
      },
    );
    return () => {
      gone = true;
      element?.destroy();
      stripeRef.current = null;
    };
  }, [step.publishable_key, step.client_secret, attempt]);

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const current = stripeRef.current;
    if (busy || !current) return;
    setBusy(true);
    setAlert(null);
    let result: Awaited<ReturnType<StripeInstance['confirmPayment']>>;
    try {
      result = await current.stripe.confirmPayment({ elements: current.elements, confirmParams: { return_url: step.return_url }, redirect: 'if_required' });
    } catch {
      result = { error: {} };
    }
    setBusy(false);
    if (result.error) {
      // Card and validation errors carry Stripe's own wording for the visitor; anything else the general one.
      const own = result.error.type === 'card_error' || result.error.type === 'validation_error';
      setAlert(own && result.error.message ? result.error.message : STRIPE_MESSAGES.failed);
      return;
    }
    onConfirmed();
  }

  return (
    <form onSubmit={pay} noValidate className="space-y-5" data-payment="stripe">
      {alert ? <FormAlert tone="destructive">{alert}</FormAlert> : null}
      {!ready && !alert ? <p className="text-gray-700">{STRIPE_MESSAGES.loading}</p> : null}
      <div ref={mountRef} data-stripe-element="" className="min-h-12" />
      {alert === STRIPE_MESSAGES.notLoaded ? (
        <button
          type="button"
          className="inline-flex min-h-12 items-center justify-center rounded-site border-2 border-slate-900 px-5 py-2 font-semibold text-slate-900"
          onClick={() => {
            setAlert(null);
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
      ) : (
        <button type="submit" className={submitClasses} disabled={busy || !ready} aria-busy={busy || undefined}>
          {busy ? 'Paying…' : `Pay ${amountDisplay}`}
        </button>
      )}
    </form>
  );
}
