import 'server-only';

/**
 * A Stripe API double for tests (never imported by the application): answers the PaymentIntent
 * and Refund calls the adapter makes, through the `fetch` handed to Stripe.createFetchHttpClient,
 * so nothing leaves the machine. Every call is recorded with its headers (Idempotency-Key).
 */

export type StripeCall = { method: string; path: string; idempotencyKey: string | null; body: URLSearchParams };

type Intent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  capture_method: string;
  client_secret: string;
  last_payment_error: { message: string } | null;
  metadata: Record<string, string>;
};

export function fakeStripe() {
  const calls: StripeCall[] = [];
  const intents = new Map<string, Intent>();
  let n = 0;
  const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', 'request-id': `req_${++n}` } });
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    const body = new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
    calls.push({ method, path: url.pathname, idempotencyKey: headers.get('idempotency-key'), body });
    const match = url.pathname.match(/^\/v1\/payment_intents(?:\/([^/]+))?(?:\/(capture|cancel))?$/);
    if (match && method === 'POST' && !match[1]) {
      const id = `pi_test_${intents.size + 1}`;
      const metadata: Record<string, string> = {};
      for (const [key, value] of body) {
        const m = key.match(/^metadata\[(.+)\]$/);
        if (m) metadata[m[1]] = value;
      }
      const intent: Intent = { id, object: 'payment_intent', amount: Number(body.get('amount')), currency: body.get('currency') ?? 'aud', status: 'requires_payment_method', capture_method: body.get('capture_method') ?? 'automatic', client_secret: `${id}_secret_test`, last_payment_error: null, metadata };
      intents.set(id, intent);
      return json(intent);
    }
    const intent = match?.[1] ? intents.get(match[1]) : undefined;
    if (match && !intent) return json({ error: { type: 'invalid_request_error', message: 'No such payment_intent' } }, 404);
    if (intent && method === 'GET') return json(intent);
    if (intent && match?.[2] === 'capture') {
      if (intent.status !== 'requires_capture' && intent.status !== 'succeeded') return json({ error: { type: 'invalid_request_error', message: 'This PaymentIntent could not be captured.' } }, 400);
      intent.status = 'succeeded';
      return json(intent);
    }
    if (intent && match?.[2] === 'cancel') {
      intent.status = 'canceled';
      return json(intent);
    }
    if (url.pathname === '/v1/refunds' && method === 'POST') return json({ id: `re_${n}`, object: 'refund', status: 'succeeded', payment_intent: body.get('payment_intent'), amount: Number(body.get('amount')) });
    return json({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname})` } }, 404);
  }) as typeof fetch;
  return {
    calls,
    intents,
    fetch: fetchFn,
    /** What Stripe.js does in the browser: the card authorised (or declined) on the intent. */
    confirm(id: string, outcome: 'authorised' | 'declined') {
      const intent = intents.get(id)!;
      if (outcome === 'authorised') intent.status = 'requires_capture';
      else intent.last_payment_error = { message: 'Your card was declined.' };
      return intent;
    },
  };
}
