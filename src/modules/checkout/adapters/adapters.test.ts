import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cardSchema, CARD_MESSAGES, luhnValid, SANDBOX_TEST_CARDS } from '../checkout.validation';
import { signSandbox, verifySandboxSignature } from './sandbox';
import { ipgConnectHash, ipgMessageSignature, ipgNotificationHash, stGeorgeProvider } from './stgeorge';
import { tillProvider, tillSignature, tillState } from './till';
import { SignatureError } from './types';

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
  returnUrl: 'https://dealer.example/checkout?reservation=1',
};

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
    expect(created).toEqual({ ref: 'till-uuid-1', browser: { redirect_url: 'https://gateway.example/pay/1' } });
    const [request] = sent;
    expect(request.url).toBe('https://gateway.example/api/v3/transaction/api-key/preauthorize');
    expect(request.headers.get('authorization')).toBe(`Basic ${Buffer.from('user:pass').toString('base64')}`);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body).toMatchObject({ merchantTransactionId: input.idempotencyKey, amount: '500.00', currency: 'AUD', callbackUrl: input.notifyUrl });
    const expected = tillSignature('shared', 'POST', request.body, request.headers.get('content-type')!, request.headers.get('date')!, '/api/v3/transaction/api-key/preauthorize');
    expect(request.headers.get('x-signature')).toBe(expected);
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

  it('builds the hosted page form with hashExtended', async () => {
    const created = await stGeorgeProvider(options).createPayment(input);
    const fields = JSON.parse(created.browser.form_fields!) as Record<string, string>;
    expect(fields).toMatchObject({ txntype: 'preauth', storename: '1234567', chargetotal: '500.00', currency: '036', oid: created.ref, transactionNotificationURL: input.notifyUrl });
    expect(fields.hashExtended).toBe(ipgConnectHash(fields, 'shared'));
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
