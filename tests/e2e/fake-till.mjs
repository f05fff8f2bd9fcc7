// A stand-in for Till Payments' Gateway API v3 for the browser tests (no network here): the
// server's Till adapter talks to it through TILL_API_URL. It answers a preauthorize with a
// hosted payment page address (https://pay.till.test/…, which the test answers with page.route),
// the status of a transaction, and capture/void/refund; GET /__transactions/{uuid} shows the test
// what the platform asked (its success/cancel/error and callback URLs). Like Till it refuses a
// request whose Basic credentials, API key or X-Signature is wrong (401): the signature is checked
// here with Till's documented recipe (base64 HMAC-SHA512 of method, SHA-512 hex of the body,
// content type, Date and request URI, one per line), written out again rather than imported, so the
// browser tests fail if the server signs any other way.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { json, serve } from './stand-in.mjs';

const port = Number(process.env.FAKE_TILL_PORT ?? 13200);
const transactions = new Map();
const credentials = {
  apiKey: process.env.TILL_API_KEY ?? '',
  sharedSecret: process.env.TILL_SHARED_SECRET ?? '',
  basic: `Basic ${Buffer.from(`${process.env.TILL_USERNAME ?? ''}:${process.env.TILL_PASSWORD ?? ''}`).toString('base64')}`,
};

/** Why Till would refuse this request's authentication, or null when it is signed right. */
function refusal(request, body, requestUri) {
  if (request.headers.authorization !== credentials.basic) return 'wrong Basic credentials';
  const date = request.headers['x-date'] ?? request.headers.date;
  const signature = request.headers['x-signature'];
  if (!date || !signature) return 'unsigned request';
  const message = [request.method, createHash('sha512').update(body).digest('hex'), request.headers['content-type'] ?? '', date, requestUri].join('\n');
  const expected = Buffer.from(createHmac('sha512', credentials.sharedSecret).update(message).digest('base64'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid signature';
  return null;
}

serve(port, (request, response, body, { pathname: path, search }) => {
  if (path === '/health') return json(response, { ok: true });
  const seen = path.match(/^\/__transactions\/([^/]+)$/);
  if (seen) return transactions.has(seen[1]) ? json(response, transactions.get(seen[1])) : json(response, { error: 'unknown' }, 404);
  const refused = refusal(request, body, `${path}${search}`);
  if (refused) return json(response, { success: false, errorMessage: refused, errorCode: 1001 }, 401);
  if (!path.startsWith(`/api/v3/transaction/${credentials.apiKey}/`) && !path.startsWith(`/api/v3/status/${credentials.apiKey}/`)) {
    return json(response, { success: false, errorMessage: 'unknown API key', errorCode: 1002 }, 401);
  }
  const status = path.match(/^\/api\/v3\/status\/[^/]+\/getByUuid\/([^/]+)$/);
  if (status) {
    const transaction = transactions.get(decodeURIComponent(status[1]));
    return json(response, transaction ? { success: true, uuid: transaction.uuid, transactionType: 'PREAUTHORIZE', transactionStatus: 'PENDING' } : { success: false, errorMessage: 'not found', errorCode: 8001 });
  }
  const transaction = path.match(/^\/api\/v3\/transaction\/[^/]+\/(preauthorize|capture|void|refund)$/);
  if (!transaction || request.method !== 'POST') return json(response, { success: false, errorMessage: 'not found' }, 404);
  const payload = JSON.parse(body || '{}');
  const uuid = `till_${randomBytes(10).toString('hex')}`;
  if (transaction[1] === 'preauthorize') {
    transactions.set(uuid, { uuid, ...payload });
    return json(response, { success: true, uuid, purchaseId: `2026-${uuid}`, returnType: 'REDIRECT', redirectUrl: `https://pay.till.test/redirect/${uuid}`, paymentMethod: 'Creditcard' });
  }
  return json(response, { success: true, uuid, purchaseId: `2026-${uuid}`, returnType: 'FINISHED', paymentMethod: 'Creditcard' });
});
