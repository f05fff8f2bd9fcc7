import 'server-only';
import { z } from 'zod';
import { env } from '@/lib/env';

/**
 * Checkout settings from the environment (issue 16). Secret keys live here only: never in the
 * database, never in a response. A provider whose variables are not all set is not configured.
 */

const flag = z
  .enum(['1', '0', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true')
  .optional();

const schema = z.object({
  /** 1: the sandbox provider may take reservations outside demo mode; 0: not even in demo mode. */
  CHECKOUT_SANDBOX: flag,
  /** Signs the sandbox provider's notifications; unset: a key made once and kept in the database. */
  CHECKOUT_SANDBOX_SECRET: z.string().min(32).optional(),
  /** Base URL providers call back (https://dealers.example); unset: the request's own origin. */
  CHECKOUT_NOTIFY_BASE_URL: z.url().optional(),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_… or rk_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9_]+$/, 'must be a Stripe webhook secret (whsec_…)').optional(),
  TILL_API_URL: z.url().default('https://gateway.tillpayments.com'),
  TILL_API_KEY: z.string().optional(),
  TILL_SHARED_SECRET: z.string().optional(),
  TILL_USERNAME: z.string().optional(),
  TILL_PASSWORD: z.string().optional(),
  STGEORGE_IPG_URL: z.url().default('https://prod.api.firstdata.com/gateway/v2'),
  STGEORGE_CONNECT_URL: z.url().default('https://www.ipg-online.com/connect/gateway/processing'),
  STGEORGE_STORE_ID: z.string().optional(),
  STGEORGE_API_KEY: z.string().optional(),
  STGEORGE_API_SECRET: z.string().optional(),
  /** The IPG Connect shared secret (hosted page hash and notification hash). */
  STGEORGE_SHARED_SECRET: z.string().optional(),
});

export type CheckoutEnv = {
  sandboxAllowed: boolean;
  sandboxSecret: string | null;
  notifyBaseUrl: string | null;
  stripe: { secretKey: string; webhookSecret: string } | null;
  till: { url: string; apiKey: string; sharedSecret: string; username: string; password: string } | null;
  stgeorge: { url: string; connectUrl: string; storeId: string; apiKey: string; apiSecret: string; sharedSecret: string } | null;
};

let cached: CheckoutEnv | undefined;

export function checkoutEnv(): CheckoutEnv {
  if (cached) return cached;
  const set = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(set);
  if (!parsed.success) throw new Error(`Invalid checkout environment: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  cached = {
    // Demo mode (the embedded database, or DEMO_MODE=1) allows it unless CHECKOUT_SANDBOX=0 says not.
    sandboxAllowed: e.CHECKOUT_SANDBOX ?? env().demoMode,
    sandboxSecret: e.CHECKOUT_SANDBOX_SECRET ?? null,
    notifyBaseUrl: e.CHECKOUT_NOTIFY_BASE_URL?.replace(/\/+$/, '') ?? null,
    stripe: e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET } : null,
    till:
      e.TILL_API_KEY && e.TILL_SHARED_SECRET && e.TILL_USERNAME && e.TILL_PASSWORD
        ? { url: e.TILL_API_URL.replace(/\/+$/, ''), apiKey: e.TILL_API_KEY, sharedSecret: e.TILL_SHARED_SECRET, username: e.TILL_USERNAME, password: e.TILL_PASSWORD }
        : null,
    stgeorge:
      e.STGEORGE_STORE_ID && e.STGEORGE_API_KEY && e.STGEORGE_API_SECRET && e.STGEORGE_SHARED_SECRET
        ? { url: e.STGEORGE_IPG_URL.replace(/\/+$/, ''), connectUrl: e.STGEORGE_CONNECT_URL, storeId: e.STGEORGE_STORE_ID, apiKey: e.STGEORGE_API_KEY, apiSecret: e.STGEORGE_API_SECRET, sharedSecret: e.STGEORGE_SHARED_SECRET }
        : null,
  };
  return cached;
}

/** For tests: read the environment again. */
export function resetCheckoutEnv(): void {
  cached = undefined;
}
