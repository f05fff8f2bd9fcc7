import { paymentReturnRoute } from '@/modules/checkout/checkout.http';

export const dynamic = 'force-dynamic';

/**
 * GET or POST /api/checkout/reservations/{id}/return[?outcome=success|cancel|error]: where a
 * hosted payment page sends the visitor back (Till redirects, IPG Connect posts a form, Stripe.js
 * redirects after 3-D Secure) → 303 to /checkout?reservation={id}, which waits for the provider's
 * notification. Nothing the provider put in the address or the body is trusted or kept.
 */
export const GET = paymentReturnRoute;
export const POST = paymentReturnRoute;
