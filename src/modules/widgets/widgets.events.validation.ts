import { z } from 'zod';
import { isCleanText } from '@/lib/clean-text';
import { normalizeHost } from '@/lib/host';
import { EVENT_CATEGORY_MAX, EVENT_CATEGORY_MIN, PAGE_VIEW_EVENTS, SERVER_RECORDED_EVENTS, type PageType } from './widgets.events.catalogue';
import { VITAL_MAX, VITAL_METRICS, VITALS_REPORT_TYPE, type VitalMetric } from './widgets.vitals';

/**
 * POST /api/events input (SPEC §3 Analytics event): one event or a batch of up to MAX_BATCH, each
 * {website_slug?, url?, category, lead_id?, anon_id?, session_id?, error_message?, event_properties?}.
 * Strict: an unknown field, a wrong type, a category outside the catalogue, text with control
 * characters, properties that are not a small plain object: refused naming the field and the reason.
 * Nothing is cleaned silently, so what is stored is exactly what was validated.
 * A batch may also carry a page view's web vitals (decision 058): {type: 'web_vitals', view_id,
 * page_type, metrics: {LCP?, INP?, CLS?, FCP?, TTFB?}}, each metric a number from 0 to its limit.
 */

export const EVENT_LIMITS = {
  /** Events per request (a page's queued events sent together). */
  maxBatch: 25,
  /** Bytes of a request body; sendBeacon itself allows 64 KiB. */
  maxBodyBytes: 64 * 1024,
  url: 2000,
  slug: 100,
  id: 64,
  errorMessage: 500,
  /** Bytes of event_properties as JSON. */
  propertiesBytes: 2048,
  propertiesKeys: 30,
  propertiesDepth: 3,
  propertiesArray: 25,
  propertiesString: 500,
} as const;

export const EVENT_MESSAGES = {
  invalid: 'Invalid event',
  otherWebsite: 'Events are accepted only for this website',
  tooMany: (retryAfter: string) => `Too many events from your connection. Please try again in ${retryAfter}.`,
} as const;

/** Keys that could reach an object's prototype if copied carelessly: refused wherever they appear. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const PROPERTY_KEY = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,99}$/;

const text = (max: number, multiline = false) =>
  z
    .string({ error: 'must be text' })
    .max(max, `must be at most ${max} characters`)
    .refine((value) => isCleanText(value, multiline), 'must not contain control characters');

/** null, '' and absent all mean 'not given'. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === null || value === '' ? undefined : value), schema.optional());

/** Where an invalid value of event_properties is, and why; null when it is acceptable. */
export function propertiesProblem(value: unknown): { path: string; reason: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) {
    return { path: '', reason: 'must be a JSON object' };
  }
  const walk = (node: unknown, path: string, depth: number): { path: string; reason: string } | null => {
    if (node === null || typeof node === 'boolean') return null;
    if (typeof node === 'number') return Number.isFinite(node) ? null : { path, reason: 'must be a finite number' };
    if (typeof node === 'string') {
      if (node.length > EVENT_LIMITS.propertiesString) return { path, reason: `must be at most ${EVENT_LIMITS.propertiesString} characters` };
      return isCleanText(node, true) ? null : { path, reason: 'must not contain control characters' };
    }
    if (depth >= EVENT_LIMITS.propertiesDepth) return { path, reason: `must not nest deeper than ${EVENT_LIMITS.propertiesDepth} levels` };
    if (Array.isArray(node)) {
      if (node.length > EVENT_LIMITS.propertiesArray) return { path, reason: `must have at most ${EVENT_LIMITS.propertiesArray} items` };
      for (let i = 0; i < node.length; i++) {
        const problem = walk(node[i], `${path}.${i}`, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    if (typeof node !== 'object' || Object.getPrototypeOf(node) !== Object.prototype) return { path, reason: 'must hold only text, numbers, booleans, null, lists and objects' };
    const keys = Object.keys(node);
    if (keys.length > EVENT_LIMITS.propertiesKeys) return { path, reason: `must have at most ${EVENT_LIMITS.propertiesKeys} keys` };
    for (const key of keys) {
      if (FORBIDDEN_KEYS.has(key)) return { path: `${path}.${key}`, reason: 'is a reserved name' };
      if (!PROPERTY_KEY.test(key)) return { path: `${path}.${key.slice(0, 64)}`, reason: 'must be a name of letters, digits, _ . : - (up to 64)' };
      const problem = walk((node as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  const problem = walk(value, '', 0);
  if (problem) return problem;
  if (new TextEncoder().encode(JSON.stringify(value)).length > EVENT_LIMITS.propertiesBytes) return { path: '', reason: `must be at most ${EVENT_LIMITS.propertiesBytes} bytes as JSON` };
  return null;
}

const propertiesSchema = z.unknown().superRefine((value, ctx) => {
  const problem = propertiesProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.reason, path: problem.path ? problem.path.slice(1).split('.') : [] });
}) as z.ZodType<Record<string, unknown>>;

/**
 * A page address on the requesting website: a path ('/cars/x?y') or an absolute http(s) URL of
 * that host (the host is compared in parseEventBatch; the schema is built once, not per request).
 */
export function isUrlOnHost(value: string, host: string | null): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\');
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && (host === null || normalizeHost(url.host) === host);
  } catch {
    return false;
  }
}

const URL_MESSAGE = 'must be a path or an address on this website';
const urlSchema = text(EVENT_LIMITS.url).refine((value) => isUrlOnHost(value, null), URL_MESSAGE);

export const eventSchema = z.strictObject({
  website_slug: optional(z.string({ error: 'must be text' }).regex(SLUG_PATTERN, 'must be a website slug')),
  url: optional(urlSchema),
  category: z
    .number({ error: `must be an event id from ${EVENT_CATEGORY_MIN} to ${EVENT_CATEGORY_MAX}` })
    .int(`must be an event id from ${EVENT_CATEGORY_MIN} to ${EVENT_CATEGORY_MAX}`)
    .min(EVENT_CATEGORY_MIN, `must be an event id from ${EVENT_CATEGORY_MIN} to ${EVENT_CATEGORY_MAX}`)
    .max(EVENT_CATEGORY_MAX, `must be an event id from ${EVENT_CATEGORY_MIN} to ${EVENT_CATEGORY_MAX}`)
    .refine((id) => !SERVER_RECORDED_EVENTS.has(id), 'is recorded by the server with what it counts, not accepted here'),
  lead_id: optional(z.string({ error: 'must be text' }).regex(ID_PATTERN, 'must be an id of letters, digits, _ and - (up to 64)')),
  anon_id: optional(z.string({ error: 'must be text' }).regex(ID_PATTERN, 'must be an id of letters, digits, _ and - (up to 64)')),
  session_id: optional(z.string({ error: 'must be text' }).regex(ID_PATTERN, 'must be an id of letters, digits, _ and - (up to 64)')),
  error_message: optional(text(EVENT_LIMITS.errorMessage, true)),
  event_properties: optional(propertiesSchema),
});
export type EventInput = z.output<typeof eventSchema>;

const PAGE_TYPES = Object.keys(PAGE_VIEW_EVENTS) as [PageType, ...PageType[]];
const metricValue = (metric: VitalMetric) =>
  z
    .number({ error: 'must be a number' })
    .min(0, 'must not be negative')
    .max(VITAL_MAX[metric], `must be at most ${VITAL_MAX[metric]}`);

/** One page view's web vitals (decision 058): what the browser measured, at least one metric. */
export const vitalsSchema = z.strictObject({
  type: z.literal(VITALS_REPORT_TYPE, { error: `must be '${VITALS_REPORT_TYPE}'` }),
  website_slug: optional(z.string({ error: 'must be text' }).regex(SLUG_PATTERN, 'must be a website slug')),
  view_id: z.string({ error: 'must be text' }).regex(ID_PATTERN, 'must be an id of letters, digits, _ and - (up to 64)'),
  page_type: z.enum(PAGE_TYPES, { error: `must be a page type (${PAGE_TYPES.join(', ')})` }),
  metrics: z
    .strictObject(Object.fromEntries(VITAL_METRICS.map((m) => [m, metricValue(m).optional()])) as Record<VitalMetric, z.ZodOptional<z.ZodNumber>>, {
      error: `must be an object of metrics (${VITAL_METRICS.join(', ')})`,
    })
    .refine((metrics) => VITAL_METRICS.some((m) => metrics[m] !== undefined), `must hold at least one metric (${VITAL_METRICS.join(', ')})`),
});
export type VitalsInput = z.output<typeof vitalsSchema>;
export type BatchItem = EventInput | VitalsInput;

export function isVitals(item: BatchItem): item is VitalsInput {
  return 'type' in item && item.type === VITALS_REPORT_TYPE;
}

/** Why an unknown key is refused, by where it is. */
function unknownKeyReason(path: PropertyKey[], vitals: boolean): string {
  if (!vitals) return 'is not a field of an event';
  return path[0] === 'metrics' ? `is not a metric (${VITAL_METRICS.join(', ')})` : 'is not a field of a web vitals report';
}

export type EventBatchResult =
  | { ok: true; events: BatchItem[] }
  | { ok: false; status: 403 | 422; message: string; fields: Record<string, string> };

/**
 * A parsed body as events of the website `tenantSlug` answering at `host`: an object (one event)
 * or an array of 1 to MAX_BATCH; an item with a `type` is a web vitals report. All or nothing: one bad event refuses the request, naming each
 * bad field (`category`, or `2.category` in a batch). An event naming another website's slug is
 * refused (403).
 */
export function parseEventBatch(body: unknown, tenantSlug: string, host: string): EventBatchResult {
  const batch = Array.isArray(body);
  const items = batch ? (body as unknown[]) : [body];
  if (batch && (items.length === 0 || items.length > EVENT_LIMITS.maxBatch)) {
    return { ok: false, status: 422, message: EVENT_MESSAGES.invalid, fields: { events: `must be 1 to ${EVENT_LIMITS.maxBatch} events` } };
  }
  // No prototype: a field named '__proto__' is reported like any other.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const events: BatchItem[] = [];
  let otherWebsite = false;
  items.forEach((item, index) => {
    const prefix = batch ? `${index}.` : '';
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      fields[prefix ? `${index}` : 'body'] = 'must be an event object';
      return;
    }
    const vitals = Object.hasOwn(item, 'type');
    const parsed = vitals ? vitalsSchema.safeParse(item) : eventSchema.safeParse(item);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const at = issue.path.map(String);
        const key = issue.code === 'unrecognized_keys' ? [...at, issue.keys.map((k) => k.slice(0, 64)).join(', ')].join('.') : at.join('.') || 'body';
        fields[`${prefix}${key}`] ??= issue.code === 'unrecognized_keys' ? unknownKeyReason(issue.path, vitals) : issue.message;
      }
      return;
    }
    if ('url' in parsed.data && parsed.data.url !== undefined && !isUrlOnHost(parsed.data.url, host)) {
      fields[`${prefix}url`] = URL_MESSAGE;
      return;
    }
    if (parsed.data.website_slug !== undefined && parsed.data.website_slug !== tenantSlug) {
      otherWebsite = true;
      fields[`${prefix}website_slug`] = 'must be the slug of the website the event is sent to';
      return;
    }
    events.push(parsed.data);
  });
  if (otherWebsite) return { ok: false, status: 403, message: EVENT_MESSAGES.otherWebsite, fields };
  if (events.length < items.length) return { ok: false, status: 422, message: EVENT_MESSAGES.invalid, fields };
  return { ok: true, events };
}
