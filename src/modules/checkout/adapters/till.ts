import 'server-only';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { hostedPageUrl, PaymentProviderError, returnUrlWith, SignatureError, type Money, type PaymentProvider, type PaymentSnapshot, type PaymentState } from './types';

/**
 * Till Payments, Gateway API v3 (decision 034 says what is built and what remains):
 * `POST /api/v3/transaction/{apiKey}/preauthorize|capture|void|refund`, HTTP Basic auth with the
 * API user, and every request and callback signed:
 * `X-Signature: base64(HMAC-SHA512(sharedSecret, method \n sha512hex(body) \n content-type \n date \n path))`
 * (Till's current scheme; the MD5 body hash is its legacy one, decision 059). Callbacks are signed
 * the way the request that started the transaction was.
 * The preauthorisation without a card token answers a redirect to Till's hosted payment page; Till
 * then POSTs the result to the callback URL, signed the same way. Till's merchantTransactionId is
 * unique per merchant, so the idempotency key is sent as it: a repeat is refused, never charged twice.
 */

export type TillOptions = { url: string; apiKey: string; sharedSecret: string; username: string; password: string; fetch?: typeof fetch };

const CONTENT_TYPE = 'application/json; charset=utf-8';

export function tillSignature(sharedSecret: string, method: string, body: string, contentType: string, date: string, requestUri: string): string {
  const bodyHash = createHash('sha512').update(body).digest('hex');
  return createHmac('sha512', sharedSecret).update([method, bodyHash, contentType, date, requestUri].join('\n')).digest('base64');
}

type TillResult = {
  success?: boolean;
  uuid?: string;
  returnType?: 'FINISHED' | 'REDIRECT' | 'HTML' | 'PENDING' | 'ERROR';
  redirectUrl?: string;
  errors?: { errorMessage?: string; adapterMessage?: string; errorCode?: number }[];
  transactionStatus?: string;
  transactionType?: string;
};

const amount = (minor: number) => (minor / 100).toFixed(2);

function messageOf(result: TillResult): string {
  const error = result.errors?.[0];
  return error?.adapterMessage || error?.errorMessage || 'The payment was not accepted.';
}

/** Till's idea of a transaction, by its type and outcome, in the state machine's words. */
export function tillState(type: string | undefined, status: string | undefined): PaymentState {
  const ok = status === 'OK' || status === 'SUCCESS' || status === 'FINISHED';
  if (status === 'ERROR' || status === 'FAILED' || status === 'DECLINED') return type === 'PREAUTHORIZE' || type === 'DEBIT' ? 'failed' : 'requires_payment';
  if (!ok) return 'requires_payment';
  if (type === 'CAPTURE') return 'captured';
  if (type === 'VOID') return 'canceled';
  if (type === 'REFUND') return 'refunded';
  return 'authorised';
}

export function tillProvider(options: TillOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const basic = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;

  async function send(method: 'POST' | 'GET', path: string, payload?: Record<string, unknown>): Promise<TillResult> {
    const body = payload ? JSON.stringify(payload) : '';
    const date = new Date().toUTCString();
    const contentType = payload ? CONTENT_TYPE : '';
    const response = await doFetch(`${options.url}${path}`, {
      method,
      headers: {
        Authorization: basic,
        Date: date,
        'X-Signature': tillSignature(options.sharedSecret, method, body, contentType, date, path),
        ...(payload ? { 'Content-Type': contentType } : {}),
        Accept: 'application/json',
      },
      body: payload ? body : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let result: TillResult;
    try {
      result = JSON.parse(text) as TillResult;
    } catch {
      throw new PaymentProviderError(`Till answered ${response.status} without JSON.`);
    }
    return result;
  }

  const transaction = (kind: string) => `/api/v3/transaction/${encodeURIComponent(options.apiKey)}/${kind}`;

  async function followUp(kind: 'capture' | 'void' | 'refund', ref: string, key: string, money: Money | null, state: PaymentState): Promise<PaymentSnapshot> {
    const result = await send('POST', transaction(kind), {
      merchantTransactionId: key,
      referenceUuid: ref,
      ...(money ? { amount: amount(money.minor), currency: money.currency } : {}),
    });
    if (!result.success && !result.errors?.some((e) => e.errorCode === 3004)) throw new PaymentProviderError(messageOf(result));
    return { ref, state, message: null };
  }

  return {
    name: 'till',

    async createPayment(input) {
      const result = await send('POST', transaction('preauthorize'), {
        merchantTransactionId: input.idempotencyKey,
        amount: amount(input.amountMinor),
        currency: input.currency,
        description: input.description.slice(0, 255),
        successUrl: returnUrlWith(input.returnUrl, 'success'),
        cancelUrl: returnUrlWith(input.returnUrl, 'cancel'),
        errorUrl: returnUrlWith(input.returnUrl, 'error'),
        callbackUrl: input.notifyUrl,
        customer: { email: input.email },
        extraData: { reservation_id: input.reservationId },
      });
      if (!result.success || !result.uuid) throw new PaymentProviderError(messageOf(result));
      // Without a card token Till answers REDIRECT to its hosted payment page; anything else cannot be paid from the browser.
      if (result.returnType !== 'REDIRECT') throw new PaymentProviderError(`Till answered ${result.returnType ?? 'nothing'} instead of its payment page.`);
      return { ref: result.uuid, step: { kind: 'redirect', url: hostedPageUrl(result.redirectUrl) } };
    },

    async retrieve(ref) {
      const result = await send('GET', `/api/v3/status/${encodeURIComponent(options.apiKey)}/getByUuid/${encodeURIComponent(ref)}`);
      if (!result.success && !result.transactionStatus) throw new PaymentProviderError(messageOf(result));
      return { ref, state: tillState(result.transactionType, result.transactionStatus), message: result.errors?.length ? messageOf(result) : null };
    },

    capture: (ref, money, key) => followUp('capture', ref, key, money, 'captured'),
    void: (ref, key) => followUp('void', ref, key, null, 'canceled'),
    refund: (ref, money, key) => followUp('refund', ref, key, money, 'refunded'),

    async parseNotification(rawBody, headers, requestUrl) {
      const signature = headers.get('x-signature');
      const date = headers.get('date') ?? headers.get('x-date');
      if (!signature || !date) throw new SignatureError('missing X-Signature or Date');
      const url = new URL(requestUrl);
      const expected = tillSignature(options.sharedSecret, 'POST', rawBody, headers.get('content-type') ?? '', date, `${url.pathname}${url.search}`);
      const a = Buffer.from(expected);
      const b = Buffer.from(signature);
      if (a.length !== b.length || !timingSafeEqual(a, b)) throw new SignatureError();
      if (Math.abs(Date.now() - Date.parse(date)) > 15 * 60_000) throw new SignatureError('callback date outside the tolerance');
      let callback: { result?: unknown; uuid?: unknown; referenceUuid?: unknown; transactionType?: unknown; message?: unknown; adapterMessage?: unknown };
      try {
        callback = JSON.parse(rawBody) as typeof callback;
      } catch {
        throw new SignatureError('body is not JSON');
      }
      if (typeof callback.uuid !== 'string' || typeof callback.transactionType !== 'string' || typeof callback.result !== 'string') return null;
      // A capture, void or refund names the preauthorisation it follows: that is the reservation's payment.
      const ref = typeof callback.referenceUuid === 'string' && callback.transactionType !== 'PREAUTHORIZE' ? callback.referenceUuid : callback.uuid;
      const message = typeof callback.adapterMessage === 'string' ? callback.adapterMessage : typeof callback.message === 'string' ? callback.message : null;
      return { eventId: `${callback.uuid}:${callback.transactionType}:${callback.result}`, type: callback.transactionType, ref, state: tillState(callback.transactionType, callback.result), message };
    },
  };
}
