import 'server-only';
import type { z } from 'zod';
import { getDb } from '@/db';
import { clientAddress } from '@/lib/client-address';
import { consumeLimits, HOUR_MS, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import { BadRequestError, fieldErrors, NotFoundError, jsonResponse, readFormFields, readJsonBody, visitorRoute, VISITOR_SERVICE_MESSAGES } from '@/lib/http';
import { carPath } from '@/modules/tenancy/tenancy.paths';
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

/** 400 naming each refused field (these two APIs answer 400, not the lead forms' 422). */
function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new BadRequestError('Invalid request', fieldErrors(parsed.error));
  return parsed.data;
}

/** A form post (no JavaScript): its id fields as numbers where they are whole numbers. */
async function readFormBody(request: Request): Promise<Record<string, unknown>> {
  const fields = await readFormFields(request, MAX_BODY_BYTES);
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, /^\d{1,10}$/.test(value) ? Number(value) : value]));
}

/**
 * POST /api/phone-reveal {car_id, dealership_id, website_id}: records the reveal and answers
 * {phone}. A form post (the page without JavaScript) is answered 303 back to the car page, which
 * then shows the number.
 */
export const phoneRevealHandler = visitorRoute(
  async ({ request, tenant, bodyKind }) => {
    const isForm = bodyKind === 'form';
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
  { accepted: ['json', 'form'], messages: VISITOR_SERVICE_MESSAGES },
);

/** POST /api/events/car_phone_call {car_id, dealership_id, website_id, url?}: 202 once recorded. */
export const carPhoneCallHandler = visitorRoute(
  async ({ request, tenant }) => {
    await consumeLimits(await getDb(), phoneLimits('phone-call', tenant, request));
    const input = parse(carPhoneCallSchema, await readJsonBody(request, MAX_BODY_BYTES));
    if (!(await recordCarPhoneCall(tenant, input))) throw new NotFoundError();
    return jsonResponse({ ok: true }, { status: 202 });
  },
  { messages: VISITOR_SERVICE_MESSAGES },
);
