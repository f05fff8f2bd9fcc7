import 'server-only';
import { allowCspSources } from '@/lib/request-context';
import type { CspSources } from '@/lib/security-headers';
import type { ProviderName } from './checkout.schema';

/**
 * The origins a payment step needs in the page's Content-Security-Policy (decision 041), allowed
 * on the checkout pages of a website whose provider needs them, and nowhere else. Stripe.js is a
 * script from js.stripe.com that talks to api.stripe.com and draws the card fields (and the 3-D
 * Secure challenge) in frames from js.stripe.com and hooks.stripe.com (Stripe's CSP guidance).
 * Till and the sandbox need nothing: Till is a plain navigation to its hosted page.
 */
export const PAYMENT_CSP: Partial<Record<ProviderName, CspSources>> = {
  stripe: {
    script: ['https://js.stripe.com'],
    frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
    connect: ['https://api.stripe.com'],
  },
};

/** Called by a checkout page's render with the provider its quote named. */
export function allowPaymentStepCsp(provider: ProviderName | null): void {
  const sources = provider ? PAYMENT_CSP[provider] : undefined;
  if (sources) allowCspSources(sources);
}
