import type { ProviderName } from '../checkout.schema';

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
  /** Where a provider that redirects sends the visitor back. */
  returnUrl: string;
};

export type CreatedPayment = {
  ref: string;
  /** What the browser needs to pay: Stripe's client secret, the sandbox form token, a redirect. */
  browser: Record<string, string | null>;
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
