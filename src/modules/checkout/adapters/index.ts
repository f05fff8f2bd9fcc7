import 'server-only';
import type { PAYMENT_PROVIDERS } from '../../tenancy/tenancy.config';
import { checkoutEnv } from '../checkout.env';
import type { ProviderName } from '../checkout.schema';
import { sandboxProvider } from './sandbox';
import { stGeorgeProvider } from './stgeorge';
import { stripeProvider } from './stripe';
import { tillProvider } from './till';
import type { PaymentProvider } from './types';

export type { PaymentProvider, PaymentSnapshot, PaymentState, ProviderNotification } from './types';

type ProviderChoice = (typeof PAYMENT_PROVIDERS)[number];

const NAME_OF: Record<ProviderChoice, ProviderName> = { Stripe: 'stripe', Till: 'till', 'St George': 'stgeorge' };

const overrides = new Map<ProviderName, PaymentProvider>();

/** Tests: a provider with a fake HTTP client in place of the one the environment configures. */
export function setProviderOverride(name: ProviderName, provider: PaymentProvider | null): void {
  if (provider) overrides.set(name, provider);
  else overrides.delete(name);
}

/** The adapter of a provider by name (notifications, reconciliation, refunds), or null when not configured here. */
export function providerByName(name: ProviderName): PaymentProvider | null {
  const override = overrides.get(name);
  if (override) return override;
  const e = checkoutEnv();
  if (name === 'sandbox') return e.sandboxAllowed ? sandboxProvider : null;
  if (name === 'stripe') return e.stripe ? stripeProvider(e.stripe) : null;
  if (name === 'till') return e.till ? tillProvider(e.till) : null;
  return e.stgeorge ? stGeorgeProvider(e.stgeorge) : null;
}

/**
 * The provider that takes a website's reservations: the one its configuration names when this
 * deployment has that provider's keys; otherwise, where the sandbox is allowed (demo mode, or
 * CHECKOUT_SANDBOX=1), the sandbox, so the whole journey works on a fresh clone. Null: none.
 */
export function providerForWebsite(choice: ProviderChoice | null): PaymentProvider | null {
  if (!choice) return null;
  return providerByName(NAME_OF[choice]) ?? providerByName('sandbox');
}
