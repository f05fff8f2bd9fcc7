/**
 * What the browser pays with (decision 041): one small value per provider kind, made by the
 * provider's adapter and read by the checkout flow, which knows nothing else about providers.
 * Nothing in it is secret: Stripe's publishable key and the PaymentIntent's client secret, the
 * sandbox's own endpoints, a hosted payment page's address, or the fields of a hosted page's form.
 */
export type PaymentStep =
  /** The platform's own card form (the sandbox provider). */
  | { kind: 'card-form'; card_url: string; authenticate_url: string }
  /** Stripe.js with the dealership's publishable key confirms the PaymentIntent on the page. */
  | { kind: 'stripe'; publishable_key: string; client_secret: string; return_url: string }
  /** A hosted payment page the browser is sent to (Till). */
  | { kind: 'redirect'; url: string }
  /** A hosted payment page the browser posts a signed form to (St George IPG Connect). */
  | { kind: 'form-post'; url: string; fields: Record<string, string> };

export type PaymentStepKind = PaymentStep['kind'];

/** The only address Stripe.js is loaded from (Stripe does not support serving it from elsewhere). */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3';

/** Why the visitor is back from a hosted payment page, as the return address says (wording only: the server decides the state). */
export const RETURN_OUTCOMES = ['success', 'cancel', 'error'] as const;
export type ReturnOutcome = (typeof RETURN_OUTCOMES)[number];
