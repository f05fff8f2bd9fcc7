import type { ProviderName } from '../checkout.schema';
import type { PaymentStep } from '../payment-step';

/**
 * One payment provider (issue 16, decision 034). Every call that moves money carries an
 * idempotency key made from the reservation and the step, so a retry after a lost answer is the
 * same call to the provider, never a second charge.
 */

/** Where a provider's payment stands, in the platform's words. */
export type PaymentState =
  /** Created; waiting for the visitor's card. */
  | 'requires_payment'
  /** The card needs the holder's confirmation (3-D Secure / the sandbox's confirmation step). */
  | 'requires_action'
  /** Authorised, not captured (manual capture). */
  | 'authorised'
  | 'captured'
  | 'failed'
  | 'canceled'
  | 'refunded';

export type CreatePaymentInput = {
  reservationId: string;
  websiteId: number;
  amountMinor: number;
  /** ISO 4217, upper case. */
  currency: string;
  description: string;
  email: string;
  idempotencyKey: string;
  /** The platform's notification endpoint for this provider (absolute URL). */
  notifyUrl: string;
  /**
   * Where the provider sends the visitor back (absolute, on the website's own host): the
   * platform's return endpoint, which takes GET and POST and leads to /checkout?reservation=.
   * A provider that tells success from cancel by address adds `outcome=` to it.
   */
  returnUrl: string;
  /** The dealership's Stripe publishable key (pk_…), for Stripe.js; null when it has none. */
  publishableKey: string | null;
};

export type CreatedPayment = {
  ref: string;
  /** What the browser pays with (payment-step.ts): never a secret key. */
  step: PaymentStep;
};

/** Minor units (cents) of an ISO 4217 currency. */
export type Money = { minor: number; currency: string };

export type PaymentSnapshot = { ref: string; state: PaymentState; message: string | null };

/** A verified notification, reduced to what the state machine needs. */
export type ProviderNotification = {
  /** The provider's event id (deduplicated in payment_provider_events). */
  eventId: string;
  type: string;
  ref: string;
  state: PaymentState | null;
  message: string | null;
};

export class SignatureError extends Error {
  constructor(message = 'invalid signature') {
    super(message);
    this.name = 'SignatureError';
  }
}

/** The provider refused or failed; `message` is safe to show the visitor or the dealer. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly declined = false,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Creates the payment (manual capture) for the deposit. */
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** The provider's own view of the payment (reconciliation). */
  retrieve(ref: string): Promise<PaymentSnapshot>;
  capture(ref: string, amount: Money, idempotencyKey: string): Promise<PaymentSnapshot>;
  /** Cancels an authorisation (or a payment not yet authorised). */
  void(ref: string, idempotencyKey: string): Promise<PaymentSnapshot>;
  refund(ref: string, amount: Money, idempotencyKey: string): Promise<PaymentSnapshot>;
  /** Verifies the signature on the raw body (SignatureError otherwise) and reads the event. */
  parseNotification(rawBody: string, headers: Headers, requestUrl: string): Promise<ProviderNotification | null>;
}

/** The return address with the outcome a hosted page's address says (success, cancel, error). */
export function returnUrlWith(returnUrl: string, outcome: 'success' | 'cancel' | 'error'): string {
  const url = new URL(returnUrl);
  url.searchParams.set('outcome', outcome);
  return url.toString();
}

/**
 * A hosted payment page's address from a provider's answer, only if it is an https URL (a
 * javascript: or data: address, or plain http, is refused as the provider failing).
 */
export function hostedPageUrl(value: unknown): string {
  if (typeof value === 'string') {
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' && !url.username && !url.password) return url.toString();
    } catch {
      // Not a URL: refused below.
    }
  }
  throw new PaymentProviderError('The payment provider did not give a payment page address.');
}
