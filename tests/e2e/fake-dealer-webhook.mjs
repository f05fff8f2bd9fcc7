// A dealer's webhook receiver for the browser tests: tests/e2e/run.mjs points harbour-city-mazda's
// lead webhook here (npm run leads:webhook) and hands this process its secret. Every POST is
// recorded with whether its X-Lead-Signature is right (HMAC-SHA256 of "t.body" with the secret,
// a timestamp within 5 minutes), and answered 204. GET /__received?lead_id= shows the test what
// arrived for one lead (other specs' leads of the dealership arrive here too).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { json, serve } from './stand-in.mjs';

const port = Number(process.env.FAKE_WEBHOOK_PORT ?? 13201);
const secret = process.env.FAKE_WEBHOOK_SECRET ?? '';
const received = [];

function signatureValid(header, body) {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '') ?? [];
  if (!secret || !t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

serve(port, (request, response, body, url) => {
  if (request.method === 'GET' && url.pathname === '/health') return json(response, { ok: true });
  if (request.method === 'GET' && url.pathname === '/__received') {
    const leadId = url.searchParams.get('lead_id');
    return json(response, received.filter((r) => !leadId || r.lead_id === leadId));
  }
  if (request.method !== 'POST') return json(response, { error: 'POST only' }, 405);
  let parsed = null;
  try {
    parsed = JSON.parse(body);
  } catch {}
  received.push({
    path: url.pathname,
    lead_id: parsed?.lead?.id ?? null,
    reservation: parsed?.reservation ?? null,
    idempotency_key: request.headers['idempotency-key'] ?? null,
    signature_valid: signatureValid(request.headers['x-lead-signature'], body),
    at: new Date().toISOString(),
  });
  response.writeHead(204).end();
});
