import 'server-only';
import { randomUUID } from 'node:crypto';
import { logger } from '@/lib/logger';
import { errorResponse, jsonResponse, readBodyBytes, HttpError, UUID_PATTERN, visitorRoute } from '@/lib/http';
import type { Tenant } from '../tenancy/tenancy.types';
import { SignatureError } from './adapters/types';
import { handleNotification, ReservationRefusedError, reservationView, type Reservation } from './checkout.commands';
import { PROVIDER_NAMES, type ProviderName } from './checkout.schema';
import { RETURN_OUTCOMES, type ReturnOutcome } from './payment-step';

/** Plumbing of the checkout API: the visitor's routes (on the website's host) and the providers' notifications. */

/** The header in which the visitor's later requests present the token the start answered. */
export const RESERVATION_TOKEN_HEADER = 'X-Reservation-Token';

export function reservationTokenOf(request: Request): string | null {
  return request.headers.get(RESERVATION_TOKEN_HEADER);
}

/** A reservation id from the path; anything else is not a reservation (404). */
export function reservationIdOf(params: { reservationId?: string }): string {
  const id = params.reservationId ?? '';
  if (!UUID_PATTERN.test(id)) throw new HttpError(404, 'Not found');
  return id.toLowerCase();
}

/**
 * Wraps a visitor route: the lead API's plumbing (same-site JSON writes, tenant by Host, errors as
 * `{error, fields}`), and a refused reservation answered with similar cars to look at.
 */
export function checkoutRoute<P = unknown>(handler: (context: { request: Request; tenant: Tenant; params: P }) => Promise<Response>) {
  return visitorRoute<P>(async (context) => {
    try {
      return await handler(context);
    } catch (error) {
      if (error instanceof ReservationRefusedError) {
        return jsonResponse({ error: error.message, similar_cars: error.similarCars }, { status: error.status, headers: { 'Cache-Control': 'no-store' } });
      }
      throw error;
    }
  });
}

export function reservationResponse(tenant: Tenant, row: Reservation, extra: Record<string, unknown> = {}, status = 200): Response {
  return jsonResponse({ reservation: reservationView(tenant, row), ...extra }, { status, headers: { 'Cache-Control': 'no-store' } });
}

const MAX_NOTIFICATION_BYTES = 256 * 1024;

/**
 * POST /api/checkout/notifications/{provider}: the raw body is read as bytes (the signature is
 * over them), verified by the provider's adapter, and applied once. Bad signature: 400, nothing
 * changes. Anything the platform cannot take now: 5xx, so the provider sends it again.
 */
export async function notificationRoute(request: Request, context: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider } = await context.params;
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) return jsonResponse({ error: 'Not found' }, { status: 404 });
  try {
    const raw = new TextDecoder('utf-8').decode(await readBodyBytes(request, MAX_NOTIFICATION_BYTES));
    const outcome = await handleNotification(provider as ProviderName, raw, request.headers, request.url);
    // Till wants the plain text OK; the others read the status only.
    if (provider === 'till') return new Response('OK', { status: 200, headers: { 'Content-Type': 'text/plain' } });
    return jsonResponse({ received: true, ...outcome });
  } catch (error) {
    if (error instanceof SignatureError) return jsonResponse({ error: 'Invalid signature', fields: { signature: error.message } }, { status: 400 });
    if (error instanceof HttpError) return errorResponse(error);
    const reference = randomUUID();
    logger.error({ err: error, reference, provider }, 'payment notification failed; the provider will send it again');
    return jsonResponse({ error: 'Notification not processed', reference }, { status: 503, headers: { 'Retry-After': '30' } });
  }
}

/**
 * The visitor back from a hosted payment page: a 303 (a POST becomes a GET) to the page that
 * shows the reservation's state, on the same host. Only the reservation id (a UUID) and one word
 * of outcome go on; the body (IPG's posted fields) is not read: the notification decides.
 */
export async function paymentReturnRoute(request: Request, context: { params: Promise<{ reservationId: string }> }): Promise<Response> {
  const { reservationId } = await context.params;
  if (!UUID_PATTERN.test(reservationId ?? '')) return jsonResponse({ error: 'Not found' }, { status: 404 });
  await request.body?.cancel().catch(() => {});
  const url = new URL(request.url);
  const given = url.searchParams.get('outcome');
  // Stripe.js's own redirect says redirect_status=succeeded|processing|failed.
  const stripeStatus = url.searchParams.get('redirect_status');
  const outcome: ReturnOutcome = stripeStatus === 'failed' ? 'error' : RETURN_OUTCOMES.includes(given as ReturnOutcome) ? (given as ReturnOutcome) : 'success';
  const location = `/checkout?reservation=${reservationId.toLowerCase()}&outcome=${outcome}`;
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
}
