import 'server-only';
import { isDatabaseUnavailable } from '@/db/errors';
import { logger } from '@/lib/logger';
import { BadRequestError, DashboardError, ValidationError } from '../dashboard/dashboard.errors';
import { errorResponse, jsonResponse } from '../dashboard/dashboard.http';
import { normalizeHost } from '../tenancy/tenancy.host';
import { findTenantByHost } from '../tenancy/tenancy.queries';
import type { Tenant } from '../tenancy/tenancy.types';
import { clientAddress } from '@/lib/client-address';
import { BAD_HOST } from '@/lib/request-refusals';
import type { SubmitMeta } from './leads.commands';
import { editTokenOf } from './leads.tokens';
import { assertSameSiteWrite, type BodyKind } from '@/lib/same-site';
import { fieldErrors, LEAD_MESSAGES } from './leads.validation';
import type { z } from 'zod';

/** Plumbing of the product lead API: tenant from Host, request metadata, errors as `{error, fields}` 4xx. */

export const LEAD_API_MESSAGES = {
  unknownWebsite: 'Unknown website',
  invalid: LEAD_MESSAGES.checkFields,
  idempotencyKey: 'Idempotency-Key must be 1 to 200 visible characters',
  unavailable: 'We could not save your enquiry just now. Please try again in a minute.',
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

/** The body parsed with a schema; 422 with the field errors when it does not fit. */
export function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * Wraps a visitor API handler: refuses cross-site writes and other bodies than `accepted` (same-site.ts),
 * finds the website by Host (404 when none) and maps errors to JSON answers.
 */
export function leadRoute<P = unknown>(handler: (context: { request: Request; tenant: Tenant; params: P }) => Promise<Response>, accepted: readonly BodyKind[] = ['json']) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') assertSameSiteWrite(request, accepted);
      const header = request.headers.get('host');
      const host = normalizeHost(header);
      if (header && !host) throw new BadRequestError(BAD_HOST, { host: 'is not a host name' });
      const tenant = host ? await findTenantByHost(host) : null;
      if (!tenant) return jsonResponse({ error: LEAD_API_MESSAGES.unknownWebsite }, { status: 404 });
      return await handler({ request, tenant, params: await context.params });
    } catch (error) {
      if (error instanceof ValidationError) return jsonResponse({ error: LEAD_API_MESSAGES.invalid, fields: error.fields }, { status: 422 });
      if (error instanceof DashboardError) return errorResponse(error);
      // The visitor went away mid-body (closed tab, dropped connection): nothing to answer, nothing stored.
      if (request.signal.aborted) return jsonResponse({ error: 'Request aborted' }, { status: 400 });
      if (isDatabaseUnavailable(error)) {
        logger.error({ err: error }, 'lead API: database unavailable');
        return jsonResponse({ error: LEAD_API_MESSAGES.unavailable }, { status: 503, headers: { 'Retry-After': '30' } });
      }
      const reference = crypto.randomUUID();
      logger.error({ err: error, reference, url: request.url }, 'lead API failed');
      return jsonResponse({ error: LEAD_MESSAGES.leadFailed, reference }, { status: 500 });
    }
  };
}

