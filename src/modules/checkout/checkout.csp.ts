import 'server-only';
import { allowCspSources } from '@/lib/request-context';
import type { CspSources } from '@/lib/security-headers';
import { checkoutEnv } from './checkout.env';
import type { ProviderName } from './checkout.schema';

/**
 * The origins a payment step needs in the page's Content-Security-Policy (decision 041), allowed
 * on the checkout pages of a website whose provider needs them, and nowhere else. Stripe.js is a
 * script from js.stripe.com that talks to api.stripe.com and draws the card fields (and the 3-D
 * Secure challenge) in frames from js.stripe.com and hooks.stripe.com (Stripe's CSP guidance).
 * St George's Connect page is reached by posting a form to it (form-action). Till and the sandbox
 * need nothing: Till is a plain navigation to its hosted page.
 */
export function paymentCsp(provider: ProviderName): CspSources | null {
  switch (provider) {
    case 'stripe':
      return {
        script: ['https://js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
      };
    case 'stgeorge': {
      const connect = checkoutEnv().stgeorge?.connectUrl;
      return connect ? { form: [new URL(connect).origin] } : null;
    }
    default:
      return null;
  }
}

/** Called by a checkout page's render with the provider its quote named. */
export function allowPaymentStepCsp(provider: ProviderName | null): void {
  const sources = provider ? paymentCsp(provider) : null;
  if (sources) allowCspSources(sources);
}
