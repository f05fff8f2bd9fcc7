import 'server-only';
import { BadRequestError } from '@/lib/http';
import { clientAddress } from '@/lib/client-address';
import type { SubmitMeta } from './leads.commands';
import { editTokenOf } from './leads.tokens';

/** What a lead submission carries beside its body: the Idempotency-Key, the visitor's browser and address, the edit token. */

export const LEAD_API_MESSAGES = {
  idempotencyKey: 'Idempotency-Key must be 1 to 200 visible characters',
} as const;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export function submitMeta(request: Request): SubmitMeta {
  const key = request.headers.get('idempotency-key');
  if (key !== null && !IDEMPOTENCY_KEY.test(key)) throw new BadRequestError(LEAD_API_MESSAGES.idempotencyKey, { 'Idempotency-Key': 'is malformed' });
  return {
    idempotencyKey: key,
    userAgent: request.headers.get('user-agent')?.slice(0, 500) ?? null,
    ip: clientAddress(request),
    referer: request.headers.get('referer')?.slice(0, 2048) ?? null,
    editToken: editTokenOf(request),
  };
}
