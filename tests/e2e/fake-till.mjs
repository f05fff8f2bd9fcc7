// A stand-in for Till Payments' Gateway API v3 for the browser tests (no network here): the
// server's Till adapter talks to it through TILL_API_URL. It answers a preauthorize with a
// hosted payment page address (https://pay.till.test/…, which the test answers with page.route),
// the status of a transaction, and capture/void/refund; GET /__transactions/{uuid} shows the test
// what the platform asked (its success/cancel/error and callback URLs).
import { randomBytes } from 'node:crypto';
import { json, serve } from './stand-in.mjs';

const port = Number(process.env.FAKE_TILL_PORT ?? 13200);
const transactions = new Map();

serve(port, (request, response, body, { pathname: path }) => {
  if (path === '/health') return json(response, { ok: true });
  const seen = path.match(/^\/__transactions\/([^/]+)$/);
  if (seen) return transactions.has(seen[1]) ? json(response, transactions.get(seen[1])) : json(response, { error: 'unknown' }, 404);
  if (!request.headers.authorization?.startsWith('Basic ') || !request.headers['x-signature'] || !request.headers.date) {
    return json(response, { success: false, errorMessage: 'unsigned request', errorCode: 1001 }, 401);
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
