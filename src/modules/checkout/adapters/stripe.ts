import 'server-only';
import Stripe from 'stripe';
import { PaymentProviderError, SignatureError, returnUrlWith, type PaymentProvider, type PaymentSnapshot, type PaymentState } from './types';

/**
 * Stripe through the official package: a PaymentIntent with capture_method 'manual' per
 * reservation (the browser confirms it with Stripe.js and the dealership's publishable key), an
 * idempotency key on every call, and the webhook verified on the raw body with
 * stripe.webhooks.constructEvent (stripe-node's default tolerance, 300 s).
 */

type StripeClient = InstanceType<typeof Stripe>;
type Intent = Awaited<ReturnType<StripeClient['paymentIntents']['retrieve']>>;

export type StripeOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Tests: a fetch that never leaves the machine (Stripe.createFetchHttpClient). */
  fetch?: typeof fetch;
};

/** The four PaymentIntent events the state machine acts on; others are acknowledged and ignored. */
export const STRIPE_EVENTS: Record<string, PaymentState> = {
  'payment_intent.amount_capturable_updated': 'authorised',
  'payment_intent.succeeded': 'captured',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'canceled',
};

function stateOf(intent: Intent): PaymentState {
  switch (intent.status) {
    case 'requires_capture':
      return 'authorised';
    case 'succeeded':
      return 'captured';
    case 'canceled':
      return 'canceled';
    case 'requires_action':
      return 'requires_action';
    default:
      // requires_payment_method after a decline carries the decline; before any attempt, none.
      return intent.last_payment_error ? 'failed' : 'requires_payment';
  }
}

/** A Stripe publishable key; anything else (a secret or restricted key above all) never reaches the browser. */
export const PUBLISHABLE_KEY = /^pk_(test|live)_[A-Za-z0-9]+$/;

const snapshotOf = (intent: Intent): PaymentSnapshot => ({ ref: intent.id, state: stateOf(intent), message: intent.last_payment_error?.message ?? null });

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) throw new PaymentProviderError(error.message, true);
    if (error instanceof Stripe.errors.StripeError) throw new PaymentProviderError(error.message);
    throw error;
  }
}

export function stripeProvider(options: StripeOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(options.fetch ? { httpClient: Stripe.createFetchHttpClient(options.fetch) } : {}),
  });
  return {
    name: 'stripe',

    async createPayment(input) {
      const publishableKey = input.publishableKey ?? '';
      // Checked before the intent is made: a dealership without a publishable key cannot pay with Stripe.js.
      if (!PUBLISHABLE_KEY.test(publishableKey)) throw new PaymentProviderError('The dealership has no Stripe publishable key.');
      const intent = await call(() =>
        stripe.paymentIntents.create(
          {
            amount: input.amountMinor,
            currency: input.currency.toLowerCase(),
            capture_method: 'manual',
            allowed_payment_method_types: ['card'],
            description: input.description.slice(0, 1000),
            receipt_email: input.email,
            metadata: { reservation_id: input.reservationId, website_id: String(input.websiteId) },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!intent.client_secret) throw new PaymentProviderError('Stripe gave no client secret for the payment.');
      // Stripe.js's redirect (3-D Secure by redirect) comes back to the return endpoint, which leads to /checkout.
      return { ref: intent.id, step: { kind: 'stripe', publishable_key: publishableKey, client_secret: intent.client_secret, return_url: returnUrlWith(input.returnUrl, 'success') } };
    },

    async retrieve(ref) {
      return snapshotOf(await call(() => stripe.paymentIntents.retrieve(ref)));
    },

    async capture(ref, amount, idempotencyKey) {
      return snapshotOf(await call(() => stripe.paymentIntents.capture(ref, { amount_to_capture: amount.minor }, { idempotencyKey })));
    },

    async void(ref, idempotencyKey) {
      return snapshotOf(await call(() => stripe.paymentIntents.cancel(ref, { cancellation_reason: 'abandoned' }, { idempotencyKey })));
    },

    async refund(ref, amount, idempotencyKey) {
      const refund = await call(() => stripe.refunds.create({ payment_intent: ref, amount: amount.minor, reason: 'requested_by_customer' }, { idempotencyKey }));
      if (refund.status === 'failed' || refund.status === 'canceled') throw new PaymentProviderError(`Stripe refused the refund (${refund.status}).`);
      return { ref, state: 'refunded', message: null };
    },

    async parseNotification(rawBody, headers) {
      const signature = headers.get('stripe-signature');
      if (!signature) throw new SignatureError('missing Stripe-Signature');
      let event: ReturnType<StripeClient['webhooks']['constructEvent']>;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        throw new SignatureError(error instanceof Error ? error.message : 'invalid signature');
      }
      const state = STRIPE_EVENTS[event.type] ?? null;
      if (!state || !event.type.startsWith('payment_intent.')) return { eventId: event.id, type: event.type, ref: '', state: null, message: null };
      const intent = event.data.object as Intent;
      return { eventId: event.id, type: event.type, ref: intent.id, state, message: intent.last_payment_error?.message ?? null };
    },
  };
}
