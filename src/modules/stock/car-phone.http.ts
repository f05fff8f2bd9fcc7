import 'server-only';
import type { z } from 'zod';
import { isDatabaseUnavailable } from '@/db/errors';
import { getDb } from '@/db';
import { clientAddress } from '@/lib/client-address';
import { logger } from '@/lib/logger';
import { consumeLimits, HOUR_MS, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import { assertSameSiteWrite, BadRequestError, HttpError, NotFoundError, errorResponse, jsonResponse, readFormFields, readJsonBody } from '@/lib/http';
import { normalizeHost } from '@/lib/host';
import { carPath } from '@/modules/tenancy/tenancy.paths';
import { findTenantByHost } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { carPhoneCallSchema, phoneRevealSchema, recordCarPhoneCall, revealCarPhone } from './car-phone.commands';

/**
 * HTTP doorways of the car page's phone calls. The website always comes from the Host header;
 * the body's website_id must name that same website. Bad input answers 4xx naming the field.
 */

const MAX_BODY_BYTES = 4 * 1024;
/** Query parameter with the reveal token the car page checks to show the number after a reveal posted without JavaScript. */
export const SHOW_PHONE_PARAM = 'show_phone';

/** Phone reveals, and call events, per client address per hour per website. */
export const PHONE_EVENTS_PER_IP_PER_HOUR = 60;
export const PHONE_LIMIT_MESSAGE = (retryAfterSeconds: number) => `Too many requests. Please try again in ${waitPhrase(retryAfterSeconds)}, or call us.`;

function phoneLimits(kind: 'phone-reveal' | 'phone-call', tenant: Tenant, request: Request): RateLimit[] {
  const ip = clientAddress(request);
  if (!ip) return [];
  return [{ key: `${kind}-ip:${tenant.id}:${ip}`, max: PHONE_EVENTS_PER_IP_PER_HOUR, durationMs: HOUR_MS, message: PHONE_LIMIT_MESSAGE }];
}

async function tenantOf(request: Request): Promise<Tenant> {
  const host = normalizeHost(request.headers.get('host'));
  const tenant = host ? await findTenantByHost(host) : null;
  if (!tenant) throw new NotFoundError();
  return tenant;
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'body');
    fields[key] ??= issue.message;
  }
  throw new BadRequestError('Invalid request', fields);
}

/** A form post (no JavaScript): its id fields as numbers where they are whole numbers. */
async function readFormBody(request: Request): Promise<Record<string, unknown>> {
  const fields = await readFormFields(request, MAX_BODY_BYTES);
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, /^\d{1,10}$/.test(value) ? Number(value) : value]));
}

async function handle(request: Request, run: () => Promise<Response>, what: string): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error);
    if (isDatabaseUnavailable(error)) {
      logger.error({ err: error }, `${what}: database unavailable`);
      return jsonResponse({ error: 'Unavailable just now. Please try again shortly.' }, { status: 503, headers: { 'Retry-After': '30' } });
    }
    const reference = crypto.randomUUID();
    logger.error({ err: error, reference }, `${what} failed`);
    return jsonResponse({ error: 'An unexpected error occurred', reference }, { status: 500 });
  }
}

/**
 * POST /api/phone-reveal {car_id, dealership_id, website_id}: records the reveal and answers
 * {phone}. A form post (the page without JavaScript) is answered 303 back to the car page, which
 * then shows the number.
 */
export function phoneRevealHandler(request: Request): Promise<Response> {
  return handle(
    request,
    async () => {
      const isForm = assertSameSiteWrite(request, ['json', 'form']) === 'form';
      const tenant = await tenantOf(request);
      await consumeLimits(await getDb(), phoneLimits('phone-reveal', tenant, request));
      const input = parse(phoneRevealSchema, isForm ? await readFormBody(request) : await readJsonBody(request, MAX_BODY_BYTES));
      const revealed = await revealCarPhone(tenant, input, request.headers.get('referer'));
      if (!revealed) throw new NotFoundError();
      if (isForm) {
        const target = new URL(`${carPath(tenant, revealed.slug)}?${SHOW_PHONE_PARAM}=${revealed.revealToken}#call-dealer`, 'http://site');
        return new Response(null, { status: 303, headers: { Location: `${target.pathname}${target.search}${target.hash}` } });
      }
      return jsonResponse({ phone: revealed.phone }, { headers: { 'Cache-Control': 'no-store' } });
    },
    'phone reveal',
  );
}

/** POST /api/events/car_phone_call {car_id, dealership_id, website_id, url?}: 202 once recorded. */
export function carPhoneCallHandler(request: Request): Promise<Response> {
  return handle(
    request,
    async () => {
      assertSameSiteWrite(request, ['json']);
      const tenant = await tenantOf(request);
      await consumeLimits(await getDb(), phoneLimits('phone-call', tenant, request));
      const input = parse(carPhoneCallSchema, await readJsonBody(request, MAX_BODY_BYTES));
      if (!(await recordCarPhoneCall(tenant, input))) throw new NotFoundError();
      return jsonResponse({ ok: true }, { status: 202 });
    },
    'car_phone_call event',
  );
}
