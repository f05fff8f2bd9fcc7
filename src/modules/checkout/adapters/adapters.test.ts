import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cardSchema, CARD_MESSAGES, luhnValid, SANDBOX_TEST_CARDS } from '../checkout.validation';
import { fakeStripe } from './fake-stripe';
import { signSandbox, verifySandboxSignature } from './sandbox';
import { stripeProvider } from './stripe';
import { ipgConnectHash, ipgMessageSignature, ipgNotificationHash, stGeorgeProvider } from './stgeorge';
import { tillProvider, tillSignature, tillState } from './till';
import { PaymentProviderError, SignatureError } from './types';

/** Adapter tests at the level each provider is built (decision 034): request shapes, signatures both ways. */

type Sent = { url: string; method: string; headers: Headers; body: string };

function recorder(answer: (sent: Sent) => unknown, status = 200) {
  const sent: Sent[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = { url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: typeof init?.body === 'string' ? init.body : '' };
    sent.push(request);
    return new Response(JSON.stringify(answer(request)), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { sent, fetch: fetchFn };
}

const input = {
  reservationId: '11111111-2222-4333-8444-555555555555',
  websiteId: 1,
  amountMinor: 50_000,
  currency: 'AUD',
  description: 'Deposit',
  email: 'jane@example.com',
  idempotencyKey: '11111111-2222-4333-8444-555555555555-create',
  notifyUrl: 'https://dealer.example/api/checkout/notifications/till',
  returnUrl: 'https://dealer.example/api/checkout/reservations/11111111-2222-4333-8444-555555555555/return',
  publishableKey: 'pk_test_dealer',
};

/** Secret material that must never be in what the browser gets. */
const SECRETS = ['sk_test_', 'rk_test_', 'whsec_', 'shared', 'api-key', 'secret-key', 'user:pass'];
function expectNoSecret(step: unknown) {
  const text = JSON.stringify(step);
  for (const secret of SECRETS) expect(text, `browser step carries ${secret}`).not.toContain(secret);
}

describe('the sandbox card check', () => {
  it('accepts Luhn-valid numbers and the documented test cards, and refuses the rest with the card messages', () => {
    for (const number of Object.values(SANDBOX_TEST_CARDS)) expect(luhnValid(number)).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('42424242')).toBe(false);
    const now = new Date('2026-11-25T00:00:00Z');
    expect(cardSchema(now).safeParse({ number: '4242 4242 4242 4242', exp_month: '11', exp_year: '26', cvc: '123' }).success).toBe(true);
    const expired = cardSchema(now).safeParse({ number: '4242424242424242', exp_month: 10, exp_year: 2026, cvc: '1234' });
    expect(expired.success ? null : expired.error.issues[0].message).toBe(CARD_MESSAGES.expired);
    const cvc = cardSchema(now).safeParse({ number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '12' });
    expect(cvc.success ? null : cvc.error.issues[0].message).toBe(CARD_MESSAGES.cvc);
    const month = cardSchema(now).safeParse({ number: '4242424242424242', exp_month: 13, exp_year: 2030, cvc: '123' });
    expect(month.success ? null : month.error.issues[0].message).toBe(CARD_MESSAGES.expiry);
  });

  it('signs its notifications and refuses a changed body, another key or an old timestamp', () => {
    const now = 1_800_000_000;
    const signature = signSandbox('{"a":1}', 'k'.repeat(32), now);
    expect(() => verifySandboxSignature('{"a":1}', signature, 'k'.repeat(32), now + 10)).not.toThrow();
    expect(() => verifySandboxSignature('{"a":2}', signature, 'k'.repeat(32), now)).toThrow(SignatureError);
    expect(() => verifySandboxSignature('{"a":1}', signature, 'x'.repeat(32), now)).toThrow(SignatureError);
    expect(() => verifySandboxSignature('{"a":1}', signature, 'k'.repeat(32), now + 301)).toThrow(SignatureError);
    expect(() => verifySandboxSignature('{"a":1}', null, 'k'.repeat(32), now)).toThrow(SignatureError);
  });
});

describe('Till Payments (Gateway API v3)', () => {
  const options = { url: 'https://gateway.example', apiKey: 'api-key', sharedSecret: 'shared', username: 'user', password: 'pass' };

  it('preauthorizes with Basic auth and a signed request, merchantTransactionId as the idempotency key', async () => {
    const { sent, fetch } = recorder(() => ({ success: true, uuid: 'till-uuid-1', returnType: 'REDIRECT', redirectUrl: 'https://gateway.example/pay/1' }));
    const created = await tillProvider({ ...options, fetch }).createPayment(input);
    expect(created).toEqual({ ref: 'till-uuid-1', step: { kind: 'redirect', url: 'https://gateway.example/pay/1' } });
    expectNoSecret(created.step);
    const [request] = sent;
    expect(request.url).toBe('https://gateway.example/api/v3/transaction/api-key/preauthorize');
    expect(request.headers.get('authorization')).toBe(`Basic ${Buffer.from('user:pass').toString('base64')}`);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      merchantTransactionId: input.idempotencyKey,
      amount: '500.00',
      currency: 'AUD',
      callbackUrl: input.notifyUrl,
      successUrl: `${input.returnUrl}?outcome=success`,
      cancelUrl: `${input.returnUrl}?outcome=cancel`,
      errorUrl: `${input.returnUrl}?outcome=error`,
    });
    const expected = tillSignature('shared', 'POST', request.body, request.headers.get('content-type')!, request.headers.get('date')!, '/api/v3/transaction/api-key/preauthorize');
    expect(request.headers.get('x-signature')).toBe(expected);
  });

  it('sends the visitor back to the host it came from, not to a fixed one', async () => {
    const { sent, fetch } = recorder(() => ({ success: true, uuid: 'u', returnType: 'REDIRECT', redirectUrl: 'https://gateway.example/pay/2' }));
    await tillProvider({ ...options, fetch }).createPayment({ ...input, returnUrl: 'http://other-dealer.localhost:3000/api/checkout/reservations/x/return' });
    const body = JSON.parse(sent[0].body) as Record<string, string>;
    for (const name of ['successUrl', 'cancelUrl', 'errorUrl']) expect(new URL(body[name]).host).toBe('other-dealer.localhost:3000');
  });

  it('refuses a payment page address that is not https, or no hosted page at all', async () => {
    for (const redirectUrl of ['javascript:alert(1)', 'http://gateway.example/pay', 'data:text/html,<script>1</script>', 'https://user:pw@gateway.example/', 'not a url', undefined]) {
      const { fetch } = recorder(() => ({ success: true, uuid: 'u', returnType: 'REDIRECT', redirectUrl }));
      await expect(tillProvider({ ...options, fetch }).createPayment(input), String(redirectUrl)).rejects.toBeInstanceOf(PaymentProviderError);
    }
    const { fetch } = recorder(() => ({ success: true, uuid: 'u', returnType: 'FINISHED' }));
    await expect(tillProvider({ ...options, fetch }).createPayment(input)).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('captures, voids and refunds against the preauthorization', async () => {
    const { sent, fetch } = recorder(() => ({ success: true, uuid: 'till-uuid-2', returnType: 'FINISHED' }));
    const till = tillProvider({ ...options, fetch });
    await till.capture('till-uuid-1', { minor: 50_000, currency: 'AUD' }, 'r-capture');
    await till.void('till-uuid-1', 'r-void');
    await till.refund('till-uuid-1', { minor: 50_000, currency: 'AUD' }, 'r-refund');
    expect(sent.map((s) => s.url.split('/').pop())).toEqual(['capture', 'void', 'refund']);
    expect(sent.map((s) => (JSON.parse(s.body) as { referenceUuid: string; merchantTransactionId: string }).merchantTransactionId)).toEqual(['r-capture', 'r-void', 'r-refund']);
    expect(JSON.parse(sent[1].body)).not.toHaveProperty('amount');
  });

  it('verifies the callback signature and reads the result', async () => {
    const till = tillProvider(options);
    const body = JSON.stringify({ result: 'OK', uuid: 'till-uuid-1', merchantTransactionId: input.idempotencyKey, transactionType: 'PREAUTHORIZE' });
    const date = new Date().toUTCString();
    const url = 'https://dealer.example/api/checkout/notifications/till';
    const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', date, 'x-signature': tillSignature('shared', 'POST', body, 'application/json; charset=utf-8', date, '/api/checkout/notifications/till') });
    expect(await till.parseNotification(body, headers, url)).toMatchObject({ ref: 'till-uuid-1', state: 'authorised', eventId: 'till-uuid-1:PREAUTHORIZE:OK' });
    headers.set('x-signature', 'AAAA');
    await expect(till.parseNotification(body, headers, url)).rejects.toBeInstanceOf(SignatureError);
    expect(tillState('CAPTURE', 'OK')).toBe('captured');
    expect(tillState('PREAUTHORIZE', 'ERROR')).toBe('failed');
  });
});

describe('St George IPG', () => {
  const options = { url: 'https://ipg.example/gateway/v2', connectUrl: 'https://connect.example/processing', storeId: '1234567', apiKey: 'key', apiSecret: 'secret', sharedSecret: 'shared' };

  it('builds the hosted page form with hashExtended, posted to IPG Connect, back to the return endpoint', async () => {
    const created = await stGeorgeProvider(options).createPayment(input);
    if (created.step.kind !== 'form-post') throw new Error(`a form post, not ${created.step.kind}`);
    expect(created.step.url).toBe('https://connect.example/processing');
    const { fields } = created.step;
    expect(fields).toMatchObject({
      txntype: 'preauth',
      storename: '1234567',
      chargetotal: '500.00',
      currency: '036',
      oid: created.ref,
      transactionNotificationURL: input.notifyUrl,
      responseSuccessURL: `${input.returnUrl}?outcome=success`,
      responseFailURL: `${input.returnUrl}?outcome=error`,
    });
    expect(fields.hashExtended).toBe(ipgConnectHash(fields, 'shared'));
    expectNoSecret(created.step);
    // Every value is a string: the flow renders them as hidden inputs (React escapes attribute values).
    expect(Object.values(fields).every((v) => typeof v === 'string')).toBe(true);
  });

  it('keeps a hostile value as data in its field, hashed as given', async () => {
    const email = '"><script>alert(1)</script>@example.com';
    const created = await stGeorgeProvider(options).createPayment({ ...input, email });
    if (created.step.kind !== 'form-post') throw new Error('a form post');
    expect(created.step.fields.email).toBe(email);
    expect(created.step.fields.hashExtended).toBe(ipgConnectHash(created.step.fields, 'shared'));
  });

  it('refuses a Connect address that is not https', async () => {
    await expect(stGeorgeProvider({ ...options, connectUrl: 'http://connect.example/processing' }).createPayment(input)).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('signs the REST secondary transactions, Client-Request-Id being the idempotency key', async () => {
    const { sent, fetch } = recorder(() => ({ transactionStatus: 'APPROVED', ipgTransactionId: '84538652787' }));
    await stGeorgeProvider({ ...options, fetch }).capture('order-1', { minor: 50_000, currency: 'AUD' }, 'r-capture');
    const [request] = sent;
    expect(request.url).toBe('https://ipg.example/gateway/v2/payments/order-1');
    expect(JSON.parse(request.body)).toEqual({ requestType: 'PostAuthSecondaryTransaction', transactionAmount: { total: '500.00', currency: 'AUD' } });
    expect(request.headers.get('client-request-id')).toBe('r-capture');
    expect(request.headers.get('message-signature')).toBe(ipgMessageSignature('key', 'secret', 'r-capture', request.headers.get('timestamp')!, request.body));
    expect(request.headers.get('message-signature')).toBe(createHmac('sha256', 'secret').update(`keyr-capture${request.headers.get('timestamp')}${request.body}`).digest('base64'));
  });

  it('verifies the notification hash', async () => {
    const fields: Record<string, string> = { chargetotal: '500.00', currency: '036', txndatetime: '2026:11:25-10:00:00', storename: '1234567', approval_code: 'Y:123456:0123456789:PPX :1234', oid: 'order-1', status: 'APPROVED', txntype: 'preauth' };
    fields.notification_hash = ipgNotificationHash(fields, 'shared');
    const provider = stGeorgeProvider(options);
    expect(await provider.parseNotification(new URLSearchParams(fields).toString(), new Headers(), 'https://x')).toMatchObject({ ref: 'order-1', state: 'authorised' });
    await expect(provider.parseNotification(new URLSearchParams({ ...fields, chargetotal: '1.00' }).toString(), new Headers(), 'https://x')).rejects.toBeInstanceOf(SignatureError);
  });
});

describe('Stripe’s browser step', () => {
  it('gives Stripe.js the publishable key, the client secret and the return address, never the secret key', async () => {
    const stripe = fakeStripe();
    const created = await stripeProvider({ secretKey: 'sk_test_never_in_the_browser', webhookSecret: 'whsec_never', fetch: stripe.fetch }).createPayment(input);
    expect(created.step).toEqual({ kind: 'stripe', publishable_key: 'pk_test_dealer', client_secret: `${created.ref}_secret_test`, return_url: `${input.returnUrl}?outcome=success` });
    expectNoSecret(created.step);
    expect(JSON.stringify(created.step)).not.toContain('never');
  });

  it('refuses to hand over anything but a publishable key (a secret key stored by mistake stays on the server)', async () => {
    const stripe = fakeStripe();
    const provider = stripeProvider({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', fetch: stripe.fetch });
    for (const publishableKey of ['sk_test_mistake', 'rk_live_mistake', 'pk_test_"><script>', '', null]) {
      await expect(provider.createPayment({ ...input, publishableKey }), String(publishableKey)).rejects.toBeInstanceOf(PaymentProviderError);
    }
    // Refused before any PaymentIntent was made.
    expect(stripe.calls).toEqual([]);
  });
});

describe('which provider takes a website’s reservations', () => {
  it('the configured one with keys; else the sandbox only where allowed', async () => {
    const { resetCheckoutEnv } = await import('../checkout.env');
    const { providerForWebsite } = await import('./index');
    const saved = { ...process.env };
    try {
      delete process.env.STRIPE_SECRET_KEY;
      process.env.CHECKOUT_SANDBOX = '0';
      resetCheckoutEnv();
      expect(providerForWebsite('Stripe')).toBeNull();
      process.env.CHECKOUT_SANDBOX = '1';
      resetCheckoutEnv();
      expect(providerForWebsite('Stripe')?.name).toBe('sandbox');
      expect(providerForWebsite(null)).toBeNull();
      process.env.STRIPE_SECRET_KEY = 'sk_test_abc';
      process.env.STRIPE_WEBHOOK_SECRET = 'whsec_abc';
      resetCheckoutEnv();
      expect(providerForWebsite('Stripe')?.name).toBe('stripe');
      expect(providerForWebsite('Till')?.name).toBe('sandbox');
    } finally {
      process.env = saved;
      resetCheckoutEnv();
    }
  });
});
