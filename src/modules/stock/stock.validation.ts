import { z } from 'zod';
import { CAR_SLUG_PATTERN } from './stock.rules';

/**
 * A car as a dealer's system sends it (Dashboard API PUT body, stock import row): every SPEC §3
 * Car field that is input. Output-only fields (id, photos_count, thumbnails, dealership_slug,
 * location, has_checkout_payment_processor, created_at_timestamp…) are ignored when sent, so a
 * GET response can be sent back as a PUT body. Client-safe: no database, no secrets.
 *
 * Every string, array and number is bounded, and text may not hold NUL, other control characters
 * or lone surrogates (PostgreSQL refuses NUL in text; the rest is never legitimate car data).
 */

export const CAR_TYPE_VALUES = ['new', 'used', 'demo'] as const;
export const CAR_STATUS_VALUES = ['in_stock', 'coming_soon', 'sold'] as const;
export const ITEM_TYPE_VALUES = ['car', 'truck', 'motorcycle', 'caravan', 'campervan'] as const;

/** SPEC §5: car slug for fetch: letters, digits, hyphen, underscore only. */
export const carSlugSchema = z
  .string()
  .regex(CAR_SLUG_PATTERN, 'must be 1 to 200 letters, digits, hyphens or underscores');

export const MAX_IMAGES = 100;
export const MAX_PAYMENT_PROCESSORS = 10;
const MAX_INT = 2_147_483_647;
const MAX_MONEY = 100_000_000;

// Control characters other than tab, line feed and carriage return, and unpaired surrogates.
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LINE_BREAKS = /[\r\n\t]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function text(max: number, options: { multiline?: boolean; min?: number } = {}) {
  return z
    .string()
    .trim()
    .min(options.min ?? 0, options.min ? 'is required' : undefined)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !CONTROL_CHARS.test(s) && (options.multiline || !LINE_BREAKS.test(s)), 'must not contain control characters')
    .refine((s) => !LONE_SURROGATE.test(s), 'must be valid Unicode text');
}

function isHttpUrlOrSitePath(value: string): boolean {
  if (/\s/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL or a path on this site (e.g. /media/…); never javascript: and the like. */
export const urlSchema = text(2048).refine(isHttpUrlOrSitePath, 'must be an http(s) URL or a path starting with /');

const int = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const id = int(1, MAX_INT);

/** Milliseconds since 1970 (the _timestamp fields) between 1970 and a year from now. */
const timestampMs = z
  .number({ error: 'must be a timestamp in milliseconds' })
  .int('must be a whole number of milliseconds')
  .min(0, 'must not be before 1970')
  .refine((ms) => ms <= Date.now() + 366 * 86_400_000, 'must not be more than a year in the future');

const isoDate = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
  .refine((s) => Date.parse(s) >= 0 && Date.parse(s) <= Date.now() + 366 * 86_400_000, 'must be between 1970 and a year from now');

/** images[]: a URL, {url, thumbnail_url?, alt?}, or the {image: {url}} shape GET returns. */
const imageSchema = z.union(
  [
    urlSchema,
    z.object({ url: urlSchema, thumbnail_url: urlSchema.nullish(), alt: text(300).nullish() }),
    z.object({ image: z.object({ url: urlSchema }) }),
  ],
  { error: 'must be an image URL, {url} or {image: {url}}' },
);

export const paymentProcessorSchema = z.object({
  authorization_type: text(50, { min: 1 }),
  /** Publishable key only: a secret key must never be sent to a website. */
  authorization_key: text(500)
    .refine((k) => !/^(sk|rk)_/i.test(k), 'must be a publishable key, never a secret key')
    .nullish(),
  deposit_amount: int(0, MAX_MONEY).default(0),
});

const carFields = {
  name: text(200).nullish(),
  make: text(100, { min: 1 }),
  model: text(100, { min: 1 }),
  badge: text(100).nullish(),
  series: text(100).nullish(),
  year: int(1900, 9999).refine((y) => y <= new Date().getUTCFullYear() + 2, 'must not be more than 2 years ahead'),
  km: int(0, 10_000_000).default(0),
  price: int(0, MAX_MONEY).default(0),
  price_type: text(50).default(''),
  before_price: int(0, MAX_MONEY).nullish(),
  subscription_price: int(0, MAX_MONEY).nullish(),
  car_type: z.enum(CAR_TYPE_VALUES, { error: `must be one of ${CAR_TYPE_VALUES.join(', ')}` }),
  status: z.enum(CAR_STATUS_VALUES, { error: `must be one of ${CAR_STATUS_VALUES.join(', ')}` }).default('in_stock'),
  item_type: z.enum(ITEM_TYPE_VALUES, { error: `must be one of ${ITEM_TYPE_VALUES.join(', ')}` }).default('car'),
  stocknum: text(50).default(''),
  vin: text(32).regex(/^[A-Za-z0-9]*$/, 'must be letters and digits only').nullish(),
  nvic: text(20).regex(/^[A-Za-z0-9]*$/, 'must be letters and digits only').nullish(),
  certified: z.boolean({ error: 'must be true or false' }).default(false),
  reserved: z.boolean({ error: 'must be true or false' }).default(false),
  /** Same as status 'sold'; both may be sent but must agree. */
  sold: z.boolean({ error: 'must be true or false' }).nullish(),
  sold_date_timestamp: timestampMs.nullish(),
  sold_date: isoDate.nullish(),
  /** null: not stated; only false blocks reservation (SPEC §5). */
  reservable: z.boolean({ error: 'must be true or false' }).nullish(),
  preorder: z.boolean({ error: 'must be true or false' }).default(false),
  show_on_dealer_website: z.boolean({ error: 'must be true or false' }).default(true),
  tag: text(100).nullish(),
  created_at: isoDate.nullish(),
  created_at_timestamp: timestampMs.nullish(),
  custom_rank: int(-1_000_000, 1_000_000).default(0),
  colour: text(50).nullish(),
  seats: int(0, 100).nullish(),
  doors: int(0, 20).nullish(),
  engine: text(100).nullish(),
  simple_fuel: text(50).nullish(),
  simple_body: text(50).nullish(),
  simple_drive: text(50).nullish(),
  simple_transmission: text(50).nullish(),
  description: text(20_000, { multiline: true }).default(''),
  categories: z.array(text(100, { min: 1 })).max(50, 'must have at most 50 entries').default([]),
  features: z.array(text(200, { min: 1 })).max(300, 'must have at most 300 entries').default([]),
  primary_image_url: urlSchema.nullish(),
  images: z.array(imageSchema).max(MAX_IMAGES, `must have at most ${MAX_IMAGES} images`).default([]),
  /** History report ('file' in SPEC §3). */
  file: urlSchema.nullish(),
  dealership_id: id.nullish(),
  location_id: id.nullish(),
  carsales_seller_identifier: text(100).nullish(),
  city: text(100).nullish(),
  state: text(50).nullish(),
  payment_processors: z
    .array(paymentProcessorSchema)
    .max(MAX_PAYMENT_PROCESSORS, `must have at most ${MAX_PAYMENT_PROCESSORS} entries`)
    .default([]),
  autograb_data: z
    .object({
      average_market_price: int(0, MAX_MONEY).nullish(),
      state_average_market_price: int(0, MAX_MONEY).nullish(),
    })
    .nullish(),
};

type CarFieldsOutput = z.output<z.ZodObject<typeof carFields>>;

function checkSoldAgreesWithStatus(car: CarFieldsOutput, ctx: z.RefinementCtx) {
  if (car.sold === true && car.status !== 'sold' && car.status !== 'in_stock') {
    ctx.addIssue({ code: 'custom', path: ['sold'], message: `contradicts status '${car.status}'` });
  }
  if (car.sold === false && car.status === 'sold') {
    ctx.addIssue({ code: 'custom', path: ['sold'], message: "contradicts status 'sold'" });
  }
}

/** The body of PUT /websites/{id}/cars/{slug}.json (the slug comes from the path). */
export const carInputSchema = z.object(carFields).superRefine(checkSoldAgreesWithStatus);

/** One row of a stock import: the car plus its slug. */
export const stockImportRowSchema = z
  .object({ ...carFields, slug: carSlugSchema })
  .superRefine(checkSoldAgreesWithStatus);

export type CarInput = z.output<typeof carInputSchema>;
export type CarInputRaw = z.input<typeof carInputSchema>;
export type StockImportRow = z.output<typeof stockImportRowSchema>;

/** The normalised image list of an input: {url, thumbnailUrl, alt}. */
export function normaliseImages(images: CarInput['images']): { url: string; thumbnailUrl: string | null; alt: string }[] {
  return images.map((image) => {
    if (typeof image === 'string') return { url: image, thumbnailUrl: null, alt: '' };
    if ('image' in image) return { url: image.image.url, thumbnailUrl: null, alt: '' };
    return { url: image.url, thumbnailUrl: image.thumbnail_url ?? null, alt: image.alt ?? '' };
  });
}

/** The effective status: sold: true makes an otherwise in-stock car sold. */
export function effectiveStatus(input: Pick<CarInput, 'status' | 'sold'>): (typeof CAR_STATUS_VALUES)[number] {
  return input.sold === true ? 'sold' : input.status;
}

/** A car's display name when none is sent: year make model badge. */
export function defaultCarName(input: Pick<CarInput, 'year' | 'make' | 'model' | 'badge'>): string {
  return [input.year, input.make, input.model, input.badge].filter((part) => part != null && part !== '').join(' ');
}

/**
 * Field errors as { 'path.to.field': message }, first message per field; a problem with the
 * whole value is reported under 'body'.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'body';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Columns of a stock import CSV that hold numbers, booleans, lists or JSON. */
export const CSV_NUMBER_FIELDS = [
  'year',
  'km',
  'price',
  'before_price',
  'subscription_price',
  'sold_date_timestamp',
  'created_at_timestamp',
  'custom_rank',
  'seats',
  'doors',
  'dealership_id',
  'location_id',
] as const;
export const CSV_BOOLEAN_FIELDS = ['certified', 'reserved', 'sold', 'reservable', 'preorder', 'show_on_dealer_website'] as const;
/** Lists kept in one cell, separated by '|'. */
export const CSV_LIST_FIELDS = ['images', 'categories', 'features'] as const;
/** Nested values kept in one cell as JSON (or, for autograb_data, as dotted columns). */
export const CSV_JSON_FIELDS = ['payment_processors', 'autograb_data'] as const;

/**
 * A CSV record (every cell a string) as the JSON value the schema validates: empty cells are
 * absent, numbers and booleans are converted when they look like one (otherwise left as text so
 * the schema names the field), lists are split on '|', JSON cells are parsed.
 */
export function csvRecordToInput(record: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const numberFields = new Set<string>(CSV_NUMBER_FIELDS);
  const booleanFields = new Set<string>(CSV_BOOLEAN_FIELDS);
  const listFields = new Set<string>(CSV_LIST_FIELDS);
  const jsonFields = new Set<string>(CSV_JSON_FIELDS);
  for (const [rawKey, rawValue] of Object.entries(record)) {
    const key = rawKey.trim();
    const value = typeof rawValue === 'string' ? rawValue.trim() : rawValue;
    if (value === '' || value == null) continue;
    const dotted = /^autograb_data\.(average_market_price|state_average_market_price)$/.exec(key);
    if (dotted) {
      out.autograb_data ??= {};
      const nested = out.autograb_data;
      // An autograb_data cell that is not an object stays as it is, for the schema to reject.
      if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
        (nested as Record<string, unknown>)[dotted[1]] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
      }
    } else if (numberFields.has(key)) {
      out[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    } else if (booleanFields.has(key)) {
      const lower = value.toLowerCase();
      out[key] = ['true', 'yes', '1', 'y'].includes(lower) ? true : ['false', 'no', '0', 'n'].includes(lower) ? false : value;
    } else if (listFields.has(key)) {
      out[key] = value.split('|').map((part) => part.trim()).filter(Boolean);
    } else if (jsonFields.has(key)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        out[key] = value;
      }
    } else {
      out[key] = value;
    }
  }
  return out;
}
