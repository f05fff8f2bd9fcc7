import 'server-only';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { hostedPageUrl, PaymentProviderError, returnUrlWith, SignatureError, type Money, type PaymentProvider, type PaymentSnapshot, type PaymentState } from './types';

/**
 * St George IPG (Fiserv's Internet Payment Gateway; decision 034 says what is built and what
 * remains). The card is taken on IPG Connect's hosted page (a form the browser posts, with
 * `hashExtended`, so card numbers never touch the platform), as a PreAuth; IPG tells the platform
 * by a server-to-server notification carrying `notification_hash`. Capture, void and refund are the
 * IPG REST API's secondary transactions on `/payments/{ipgTransactionId}`, each request signed
 * `Message-Signature: base64(HMAC-SHA256(apiSecret, apiKey + Client-Request-Id + Timestamp + body))`;
 * the Client-Request-Id is the idempotency key.
 */

export type StGeorgeOptions = { url: string; connectUrl: string; storeId: string; apiKey: string; apiSecret: string; sharedSecret: string; fetch?: typeof fetch };

export function ipgMessageSignature(apiKey: string, apiSecret: string, clientRequestId: string, timestamp: string, body: string): string {
  return createHmac('sha256', apiSecret).update(apiKey + clientRequestId + timestamp + body).digest('base64');
}

/** IPG Connect's hashExtended: the form's fields sorted by name, values joined with '|', HMAC-SHA256 with the shared secret. */
export function ipgConnectHash(fields: Record<string, string>, sharedSecret: string): string {
  const joined = Object.keys(fields)
    .filter((name) => name !== 'hashExtended')
    .sort()
    .map((name) => fields[name])
    .join('|');
  return createHmac('sha256', sharedSecret).update(joined).digest('base64');
}

/** IPG Connect's notification_hash: chargetotal|currency|txndatetime|storename|approval_code, HMAC-SHA256 with the shared secret. */
export function ipgNotificationHash(fields: Record<string, string>, sharedSecret: string): string {
  const joined = [fields.chargetotal, fields.currency, fields.txndatetime, fields.storename, fields.approval_code].map((v) => v ?? '').join('|');
  return createHmac('sha256', sharedSecret).update(joined).digest('base64');
}

/** ISO 4217 numeric codes IPG Connect wants. */
const NUMERIC_CURRENCY: Record<string, string> = { AUD: '036', NZD: '554', USD: '840' };

/** The time zone the form declares: IPG reads txndatetime as the local time there. */
const IPG_TIME_ZONE = 'Australia/Sydney';
const ipgClock = new Intl.DateTimeFormat('en-AU', { timeZone: IPG_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

function ipgTime(date: Date): string {
  const part = Object.fromEntries(ipgClock.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part.year}:${part.month}:${part.day}-${part.hour}:${part.minute}:${part.second}`;
}

function stateOf(transactionType: string | undefined, status: string | undefined): PaymentState {
  const approved = status === 'APPROVED' || status === 'WAITING' || (status ?? '').startsWith('Y');
  if (!approved) return status === undefined ? 'requires_payment' : 'failed';
  switch (transactionType) {
    case 'POSTAUTH':
      return 'captured';
    case 'VOID':
      return 'canceled';
    case 'RETURN':
      return 'refunded';
    default:
      return 'authorised';
  }
}

export function stGeorgeProvider(options: StGeorgeOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;

  async function rest(method: 'GET' | 'POST', path: string, clientRequestId: string, payload?: Record<string, unknown>) {
    const body = payload ? JSON.stringify(payload) : '';
    const timestamp = String(Date.now());
    const response = await doFetch(`${options.url}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'Api-Key': options.apiKey,
        'Client-Request-Id': clientRequestId,
        Timestamp: timestamp,
        'Message-Signature': ipgMessageSignature(options.apiKey, options.apiSecret, clientRequestId, timestamp, body),
      },
      body: payload ? body : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    let json: { transactionStatus?: string; transactionType?: string; ipgTransactionId?: string; error?: { message?: string }; processor?: { responseMessage?: string } };
    try {
      json = (await response.json()) as typeof json;
    } catch {
      throw new PaymentProviderError(`IPG answered ${response.status} without JSON.`);
    }
    if (response.status >= 400) throw new PaymentProviderError(json.error?.message ?? json.processor?.responseMessage ?? `IPG answered ${response.status}.`);
    return json;
  }

  async function secondary(ref: string, key: string, requestType: string, money: Money | null, state: PaymentState): Promise<PaymentSnapshot> {
    const result = await rest('POST', `/payments/${encodeURIComponent(ref)}`, key, {
      requestType,
      ...(money ? { transactionAmount: { total: (money.minor / 100).toFixed(2), currency: money.currency } } : {}),
    });
    if (result.transactionStatus && result.transactionStatus !== 'APPROVED') throw new PaymentProviderError(result.processor?.responseMessage ?? `IPG: ${result.transactionStatus}`);
    return { ref, state, message: null };
  }

  return {
    name: 'stgeorge',

    async createPayment(input) {
      // The order id is IPG's reference from the start (oid), so the notification finds the reservation.
      const ref = input.idempotencyKey.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 64);
      const fields: Record<string, string> = {
        txntype: 'preauth',
        timezone: IPG_TIME_ZONE,
        txndatetime: ipgTime(new Date()),
        hash_algorithm: 'HMACSHA256',
        storename: options.storeId,
        chargetotal: (input.amountMinor / 100).toFixed(2),
        currency: NUMERIC_CURRENCY[input.currency] ?? '036',
        checkoutoption: 'combinedpage',
        oid: ref,
        email: input.email,
        // IPG posts the visitor back to these (a form POST): the return endpoint takes POST.
        responseSuccessURL: returnUrlWith(input.returnUrl, 'success'),
        responseFailURL: returnUrlWith(input.returnUrl, 'error'),
        transactionNotificationURL: input.notifyUrl,
      };
      fields.hashExtended = ipgConnectHash(fields, options.sharedSecret);
      return { ref, step: { kind: 'form-post', url: hostedPageUrl(options.connectUrl), fields } };
    },

    async retrieve(ref) {
      const result = await rest('GET', `/orders/${encodeURIComponent(ref)}`, randomUUID());
      return { ref, state: stateOf(result.transactionType, result.transactionStatus), message: result.processor?.responseMessage ?? null };
    },

    capture: (ref, money, key) => secondary(ref, key, 'PostAuthSecondaryTransaction', money, 'captured'),
    void: (ref, key) => secondary(ref, key, 'VoidTransaction', null, 'canceled'),
    refund: (ref, money, key) => secondary(ref, key, 'ReturnTransaction', money, 'refunded'),

    async parseNotification(rawBody) {
      // IPG Connect notifies with a form post.
      const fields = Object.fromEntries(new URLSearchParams(rawBody));
      const hash = fields.notification_hash;
      if (!hash) throw new SignatureError('missing notification_hash');
      const expected = Buffer.from(ipgNotificationHash(fields, options.sharedSecret));
      const given = Buffer.from(hash);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new SignatureError();
      if (!fields.oid || !fields.status) return null;
      const type = (fields.txntype ?? 'preauth').toUpperCase();
      const state = stateOf(type === 'PREAUTH' ? 'PREAUTH' : type, fields.status.toUpperCase());
      return { eventId: `${fields.oid}:${fields.ipgTransactionId ?? ''}:${type}:${fields.status}`, type, ref: fields.oid, state, message: fields.fail_reason ?? null };
    },
  };
}
