import 'server-only';
import { isDatabaseUnavailable } from '@/db/errors';
import { clientAddress } from '@/lib/client-address';
import { logger } from '@/lib/logger';
import { waitPhrase } from '@/lib/rate-limit';
import { assertSameSite, UnsupportedMediaTypeError, HttpError, errorResponse, jsonResponse, readJsonBody } from '@/lib/http';
import { normalizeHost } from '@/lib/host';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import { eventRow, eventsState, vitalsRow } from './widgets.events';
import { EVENT_LIMITS, EVENT_MESSAGES, isVitals, parseEventBatch, type EventInput } from './widgets.events.validation';

/**
 * POST /api/events: the visitor's analytics events (SPEC §3, §7), one or a batch, from this
 * website's own pages. The website comes from the Host header; an event naming another website is
 * refused. JSON or text/plain bodies (navigator.sendBeacon sends a string as text/plain, which
 * needs no CORS preflight; the Origin and Sec-Fetch-Site checks still refuse other sites). Accepted
 * events are queued (widgets.events.ts) and answered 202 at once: {accepted: n}. A page view's web
 * vitals (decision 058) come the same way, as an item of their own kind, into their own table.
 */

const ACCEPTED_TYPES = new Set(['application/json', 'text/plain']);

function assertEventBody(request: Request) {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!ACCEPTED_TYPES.has(type)) throw new UnsupportedMediaTypeError('application/json or text/plain');
}

export async function postEventsHandler(request: Request): Promise<Response> {
  try {
    assertSameSite(request);
    assertEventBody(request);
    const host = normalizeHost(request.headers.get('host'));
    const tenant = host ? await findTenantByHost(host) : null;
    if (!tenant || !host) return jsonResponse({ error: EVENT_MESSAGES.unknownWebsite }, { status: 404 });
    const body = await readJsonBody(request, EVENT_LIMITS.maxBodyBytes);
    const parsed = parseEventBatch(body, tenant.slug, host);
    const { buffer, vitals, limiter } = eventsState();
    // Refused requests count too (one point), so junk cannot be sent without limit either.
    const ip = clientAddress(request);
    if (ip) {
      const verdict = limiter.hit(`events-ip:${tenant.id}:${ip}`, parsed.ok ? parsed.events.length : 1);
      if (!verdict.ok) {
        return jsonResponse({ error: EVENT_MESSAGES.tooMany(waitPhrase(verdict.retryAfterSeconds)) }, { status: 429, headers: { 'Retry-After': String(verdict.retryAfterSeconds) } });
      }
    }
    if (!parsed.ok) return jsonResponse({ error: parsed.message, fields: parsed.fields }, { status: parsed.status });
    const now = new Date();
    const reports = parsed.events.filter(isVitals);
    if (reports.length > 0) vitals.add(reports.map((report) => vitalsRow(tenant, report, now)));
    if (reports.length < parsed.events.length) buffer.add(parsed.events.filter((item): item is EventInput => !isVitals(item)).map((event) => eventRow(tenant, event, now)));
    return jsonResponse({ accepted: parsed.events.length }, { status: 202, headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error);
    if (request.signal.aborted) return jsonResponse({ error: 'Request aborted' }, { status: 400 });
    if (isDatabaseUnavailable(error)) {
      logger.error({ err: error }, 'events API: database unavailable');
      return jsonResponse({ error: 'Unavailable just now. Please try again shortly.' }, { status: 503, headers: { 'Retry-After': '30' } });
    }
    const reference = crypto.randomUUID();
    logger.error({ err: error, reference }, 'events API failed');
    return jsonResponse({ error: 'An unexpected error occurred', reference }, { status: 500 });
  }
}
