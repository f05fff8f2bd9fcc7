import 'server-only';
import { clientAddress } from '@/lib/client-address';
import { waitPhrase } from '@/lib/rate-limit';
import { assertBodyKind, jsonResponse, readJsonBody, visitorRoute, VISITOR_SERVICE_MESSAGES } from '@/lib/http';
import { normalizeHost } from '@/lib/host';
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

export const postEventsHandler = visitorRoute(
  async ({ request, tenant }) => {
    // A beacon always carries a body, so its type is checked even when the request does not say it has one.
    assertBodyKind(request, ['json', 'text']);
    const body = await readJsonBody(request, EVENT_LIMITS.maxBodyBytes);
    const parsed = parseEventBatch(body, tenant.slug, normalizeHost(request.headers.get('host'))!);
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
  },
  { accepted: ['json', 'text'], messages: VISITOR_SERVICE_MESSAGES },
);
