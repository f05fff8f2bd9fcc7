import { z } from 'zod';
import { DEFAULT_PHONE_RULE, formatPhoneForSubmit, phoneError, type PhoneRule } from '@/lib/phone';
import { AUSTRALIAN_STATES, type PostcodeCountry } from '@/lib/postcode';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import { cleanUntypedText, isCleanText } from '@/lib/clean-text';
import { ENQUIRY_TYPES } from './categories';
import { choiceRule, KM_MAX, VALUATION_MESSAGES, MESSAGE_MAX, PHONE_MAX, postcodeRule, REGO_MAX, TEXT_RULES, textRuleOf, type TextFieldRule } from './checks';
import { contactFields, type CONTACT_FIELDS, type FieldDef } from './fields';
import { dbIdSchema, UUID_PATTERN } from '@/lib/http';
import { LEAD_MESSAGES } from './messages';

/**
 * Lead and enquiry validation (SPEC §5) for the lead API: zod schemas made from the rules the forms
 * check in the browser without zod (checks.ts: TEXT_RULES and textRuleOf; fields.ts: CONTACT_FIELDS).
 * Server code only: zod would add about 31 KB to a page (decision 033).
 *
 * Empty strings (what an untouched input gives) count as absent for optional fields.
 */

/** A lead's id (or a valuation's) sent in a body. */
export const leadIdSchema = z.string().regex(UUID_PATTERN, 'must be a lead id');

export const LEAD_STATUSES = ['Incomplete', 'Complete'] as const;

/** Hidden field a person never fills; a value means a bot (stored as spam, answered as success). */
export const HONEYPOT_FIELD = 'favourite_color';

export const VISITED_PAGES_CAP = 50;

/** A string, trimmed, '*This is a required field.' when missing or blank. */
const requiredString = (max: number, multiline = false) =>
  z
    .string({ error: (issue) => (issue.input == null ? LEAD_MESSAGES.required : 'must be text') })
    .trim()
    .min(1, LEAD_MESSAGES.required)
    .max(max, LEAD_MESSAGES.tooLong(max))
    .refine((value) => isCleanText(value, multiline), LEAD_MESSAGES.invalidText);

/** The schema of a text field's rule (checks.ts), the rule the form checks in the browser with textCheck. */
const textSchema = ({ max, rule, multiline }: TextFieldRule) => {
  const text = requiredString(max, multiline);
  return rule ? text.refine(rule.accepts, rule.message) : text;
};

/** An optional version of a field: '', null and absent all mean 'not given' (undefined). */
export function optional<T extends z.ZodType>(schema: T) {
  return z
    .union([z.literal(''), z.null(), schema])
    .optional()
    .transform((value) => (value === '' || value === null ? undefined : (value as z.output<T>)));
}

// ---- Field schemas --------------------------------------------------------------------------

export const requiredTextSchema = textSchema(TEXT_RULES.text);
export const nameSchema = textSchema(TEXT_RULES.first_name);
export const emailSchema = textSchema(TEXT_RULES.email);
/** The postcode of a country (a US ZIP or ZIP+4, kept as typed). */
export const postcodeSchemaFor = (country: PostcodeCountry) => textSchema(postcodeRule(country));
/** An Australian postcode (the finance partner's customers). */
export const postcodeSchema = postcodeSchemaFor('AU');
export const stateSchema = z.enum(AUSTRALIAN_STATES, { error: (issue) => (issue.input == null || issue.input === '' ? LEAD_MESSAGES.required : LEAD_MESSAGES.state) });
/** Finance phone code (SPEC §5). */
export const codeSchema = z
  .string({ error: LEAD_MESSAGES.codeRequired })
  .trim()
  .min(1, LEAD_MESSAGES.codeRequired)
  .regex(/^\d{6}$/, LEAD_MESSAGES.code);
export const messageSchema = textSchema(TEXT_RULES.textarea);
export const optionalMessageSchema = optional(messageSchema);

/** A phone number checked by the tenant's rule and given back in the form it is submitted in. */
export function phoneSchema(rule: PhoneRule = DEFAULT_PHONE_RULE) {
  return requiredString(PHONE_MAX)
    .superRefine((value, context) => {
      const message = phoneError(value, rule);
      if (message) context.addIssue({ code: 'custom', message });
    })
    // overwrite, not transform: a transform ends the check, so optional()'s union answered 'Invalid input' instead of the message.
    .overwrite((value) => formatPhoneForSubmit(value, rule));
}

/** A select whose value must be one of the given options (required when the select is shown). */
export function choiceSchema(options: readonly string[]) {
  return textSchema(choiceRule(options));
}

/** Test-drive date (optional): day, month and year as the form's selects give them. */
export const preferredDateSchema = z
  .object({
    day: optional(z.coerce.number().int().min(1).max(31)),
    month: optional(z.coerce.number().int().min(1).max(12)),
    year: optional(z.coerce.number().int().min(2000).max(2100)),
  })
  .refine((d) => d.day === undefined || d.month === undefined || d.year === undefined || isRealDate(d.year, d.month, d.day), {
    message: 'Please choose a real date.',
    path: ['day'],
  });

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// ---- Tenant rules ---------------------------------------------------------------------------

export type EnquiryFormOptions = {
  phoneRule: PhoneRule;
  messageRequired: boolean;
  /** Options of the selects that are shown (required then); null when the select is not shown. */
  categories: readonly string[] | null;
  locations: readonly string[] | null;
  dealerships: readonly string[] | null;
  sourceOptions: readonly string[];
};

/** Enquiry form options of a website; the select options come from its locations and dealerships. */
export function enquiryFormOptionsFor(
  config: Pick<WebsiteConfig, 'locale' | 'leads'>,
  selects: { categories?: readonly string[]; locations?: readonly string[]; dealerships?: readonly string[] } = {},
): EnquiryFormOptions {
  return {
    phoneRule: phoneRuleFor(config),
    messageRequired: config.leads.messageRequired,
    categories: config.leads.showCategorySelect ? (selects.categories ?? ENQUIRY_TYPES) : null,
    locations: config.leads.showLocationSelect && selects.locations?.length ? selects.locations : null,
    dealerships: config.leads.showDealershipSelect && selects.dealerships?.length ? selects.dealerships : null,
    sourceOptions: config.leads.sourceOptions,
  };
}

// ---- Whole-form schemas ---------------------------------------------------------------------

type ContactField = (typeof CONTACT_FIELDS)[number];
type UserDetailsShape = {
  [F in ContactField as F['name']]: F extends { required: true } ? z.ZodType<string> : ReturnType<typeof optional<z.ZodType<string>>>;
} & { postcode: z.ZodType<string> };

/** A user-details field's schema, from the rule its browser check reads (checks.ts). */
function contactFieldSchema(field: FieldDef, rule: PhoneRule): z.ZodType<string> {
  return field.kind === 'phone' ? phoneSchema(rule) : textSchema(textRuleOf(field, rule.country));
}

/**
 * Stored user details (SPEC §3) and the 'User Details' step of the multi-step forms, made from the
 * fields the forms show (contactFields): name, last_name (optional), email, phone, postcode.
 */
export function userDetailsSchema(rule: PhoneRule = DEFAULT_PHONE_RULE) {
  const shape = Object.fromEntries(
    contactFields({ phoneRule: rule }).map((field) => {
      const schema = contactFieldSchema(field, rule);
      return [field.name, field.required ? schema : optional(schema)];
    }),
  );
  return z.object(shape as UserDetailsShape);
}

/** The enquiry form (SPEC §3 Enquiry form payload, §5 rules). */
export function enquiryFormSchema(options: EnquiryFormOptions) {
  return userDetailsSchema(options.phoneRule).extend({
    message: options.messageRequired ? messageSchema : optionalMessageSchema,
    category: options.categories ? choiceSchema(options.categories) : optional(requiredTextSchema),
    subcategory: optional(requiredTextSchema),
    location: options.locations ? choiceSchema(options.locations) : optional(requiredTextSchema),
    dealership_slug: options.dealerships ? choiceSchema(options.dealerships) : optional(requiredTextSchema),
    'where-did-you-hear-about-us': optional(choiceSchema(options.sourceOptions)),
    opt_in: z.boolean().optional(),
    Rego: optional(requiredString(REGO_MAX)),
    page_id: optional(requiredTextSchema),
    additional_services: z.array(requiredTextSchema).max(20).optional(),
    mock_error: optional(requiredTextSchema),
    [HONEYPOT_FIELD]: z.string().max(MESSAGE_MAX).optional(),
  });
}

// ---- Lead API payload (SPEC §3 Lead payload, §7 POST /api/leads) -----------------------------

/** A field the visitor cannot see: cleaned text, or left out when it is not text at all. */
const untypedText = (max: number) =>
  z.unknown().transform((value) => {
    if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
    if (typeof value !== 'string') return undefined;
    return cleanUntypedText(value, max) || undefined;
  })
  .optional();

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The visitor's trail of pages (SPEC §4): the last 50 addresses, cleaned; anything else is dropped. */
const visitedPagesSchema = z.unknown().transform((value) => {
  if (!Array.isArray(value)) return undefined;
  return value
    .slice(-VISITED_PAGES_CAP * 4)
    .map((page) => (typeof page === 'string' ? cleanUntypedText(page, 2048) : ''))
    .filter(Boolean)
    .slice(-VISITED_PAGES_CAP);
}).optional();

/** The first page's tracking parameters: at most 50, keys and values cleaned; anything else is dropped. */
const linkedQueryParamsSchema = z.unknown().transform((value) => {
  if (!isPlainObject(value)) return undefined;
  const params = new Map<string, string>();
  for (const [rawKey, rawValue] of Object.entries(value)) {
    if (params.size >= 50) break;
    const key = cleanUntypedText(rawKey, 100);
    if (!key || typeof rawValue !== 'string') continue;
    params.set(key, cleanUntypedText(rawValue, 500));
  }
  return Object.fromEntries(params);
}).optional();

/** A whole number in a range from the form's own code; left out when it is anything else. */
const untypedInt = (min: number, max: number) =>
  z
    .unknown()
    .transform((value) => (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined))
    .optional();
const ATTRIBUTE_KEY = /^[A-Za-z0-9_][A-Za-z0-9_ \-]{0,63}$/;
const MAX_ATTRIBUTES = 60;
const attributeValue = z.union([
  requiredString(2000, true),
  z.literal(''),
  z.number().finite(),
  z.boolean(),
  z.null(),
  z.array(requiredString(200)).max(20),
]);

/**
 * The `lead` object of POST /api/leads and PUT /api/leads/{id}. Known fields are checked by their
 * rule when present; every other field (lead form defaults such as 'Vehicle Make', the enquiry
 * fields such as Rego) is kept in attributes when it is short plain text, a number or a boolean.
 * A complete lead needs a name and an email or phone; a partial save ('Incomplete') may omit them.
 * `rule` is the website's phone rule; its country, the website's, also picks the postcode rule.
 */
export function leadPayloadSchema(rule: PhoneRule = DEFAULT_PHONE_RULE, mode: 'create' | 'update' = 'create') {
  return z.preprocess(blankSelectCheck, leadObjectSchema(rule, mode));
}

/**
 * The selects a form shows (enquiry type, location, preferred dealership) are required (SPEC §5):
 * a form sends a shown select's key, blank ('' or null) when the visitor left it so; a complete
 * lead with one blank is refused, naming it. A form that shows no such select leaves its key out.
 */
export const SELECT_FIELD_NAMES = ['category', 'location_id', 'dealership_slug'] as const;

function blankSelectCheck(input: unknown, context: z.RefinementCtx): unknown {
  if (!isPlainObject(input) || input.lead_status === 'Incomplete' || input.form_completed === false) return input;
  for (const name of SELECT_FIELD_NAMES) {
    const value = input[name];
    if (name in input && (value === null || (typeof value === 'string' && value.trim() === ''))) {
      context.addIssue({ code: 'custom', message: LEAD_MESSAGES.required, path: [name] });
    }
  }
  return input;
}

function leadObjectSchema(rule: PhoneRule, mode: 'create' | 'update') {
  return z
    .object({
      name: optional(nameSchema),
      first_name: optional(nameSchema),
      last_name: optional(nameSchema),
      middle_name: optional(nameSchema),
      email: optional(emailSchema),
      phone: optional(phoneSchema(rule)),
      postcode: optional(postcodeSchemaFor(rule.country)),
      state: optional(stateSchema),
      message: optionalMessageSchema,
      category: optional(requiredTextSchema),
      subcategory: optional(requiredTextSchema),
      dealership_slug: optional(requiredTextSchema),
      website_slug: optional(requiredTextSchema),
      url: untypedText(2048),
      source: z.unknown().optional(),
      user_agent: z.unknown().optional(),
      location_id: optional(dbIdSchema),
      car_id: optional(dbIdSchema),
      car_dealership_id: optional(dbIdSchema),
      visited_pages: visitedPagesSchema,
      linked_query_params: linkedQueryParamsSchema,
      has_files: z.unknown().transform((value) => (typeof value === 'boolean' ? value : undefined)).optional(),
      lead_id: optional(leadIdSchema),
      lead_status: optional(z.enum(LEAD_STATUSES)),
      form_completed: z.boolean().optional(),
      skipped_steps: z
        .unknown()
        .transform((value) => (Array.isArray(value) ? value.filter((step): step is number => Number.isInteger(step) && step >= 0 && step <= 50).slice(0, 50) : undefined))
        .optional(),
      step_number: untypedInt(0, 50),
      [HONEYPOT_FIELD]: z.string().max(MESSAGE_MAX).optional(),
      /** Milliseconds the visitor spent on the form (minimum fill time). */
      fill_ms: untypedInt(0, 86_400_000),
    })
    .catchall(attributeValue)
    .superRefine((lead, context) => {
      const extra = Object.keys(lead).filter((key) => !KNOWN_LEAD_KEYS.has(key));
      if (extra.length > MAX_ATTRIBUTES) context.addIssue({ code: 'custom', message: `must have at most ${MAX_ATTRIBUTES} extra fields`, path: [] });
      for (const key of extra) {
        if (!ATTRIBUTE_KEY.test(key)) context.addIssue({ code: 'custom', message: 'is not an accepted field name', path: [key] });
      }
      // A later step (PUT) sends only its own fields; the merged lead is checked when it is stored.
      const incomplete = lead.lead_status === 'Incomplete' || lead.form_completed === false;
      if (incomplete || mode === 'update') return;
      if (!lead.category) context.addIssue({ code: 'custom', message: LEAD_MESSAGES.required, path: ['category'] });
      if (!leadName(lead)) context.addIssue({ code: 'custom', message: LEAD_MESSAGES.required, path: ['name'] });
      if (!lead.email && !lead.phone) context.addIssue({ code: 'custom', message: LEAD_MESSAGES.required, path: ['email'] });
    });
}

const KNOWN_LEAD_KEYS = new Set([
  'name', 'first_name', 'last_name', 'middle_name', 'email', 'phone', 'postcode', 'state', 'message', 'category',
  'subcategory', 'dealership_slug', 'website_slug', 'url', 'source', 'user_agent', 'location_id', 'car_id',
  'car_dealership_id', 'visited_pages', 'linked_query_params', 'has_files', 'lead_id', 'lead_status',
  'form_completed', 'skipped_steps', 'step_number', HONEYPOT_FIELD, 'fill_ms',
]);

export type LeadPayload = z.output<ReturnType<typeof leadObjectSchema>>;

function buildLeadRequestSchema(rule: PhoneRule, mode: 'create' | 'update') {
  return z.object({ lead: leadPayloadSchema(rule, mode) }, { error: (issue) => (issue.input == null ? LEAD_MESSAGES.required : 'must be an object') });
}

// Building a schema costs ~35 ms (zod compiles it on first use) against ~0.5 ms to parse with it:
// the API keeps one per phone rule and mode.
const requestSchemas = new Map<string, ReturnType<typeof buildLeadRequestSchema>>();

/** POST /api/leads ('create') and PUT /api/leads/{id} ('update') body: {lead:{…}}. */
export function leadRequestSchema(rule: PhoneRule = DEFAULT_PHONE_RULE, mode: 'create' | 'update' = 'create') {
  const key = `${mode}:${rule.country}:${rule.mobileOnly}:${rule.format}:${rule.testNumber ?? ''}`;
  let schema = requestSchemas.get(key);
  if (!schema) requestSchemas.set(key, (schema = buildLeadRequestSchema(rule, mode)));
  return schema;
}

/** SPEC §3: when name is missing or 'undefined undefined', first_name is the name. */
export function leadName(lead: { name?: string; first_name?: string }): string {
  const name = lead.name?.trim();
  if (name && name !== 'undefined undefined') return name;
  return lead.first_name?.trim() ?? '';
}

/**
 * A lead's name as people read it, the one place that builds it (dealer emails, subjects): the
 * name (leadName) with the last name after it unless the name already ends with it. The forms send
 * name 'Jo Citizen' with last_name 'Citizen'; the spec's enquiry payload sends name 'Jo'.
 */
export function leadDisplayName(lead: { name?: string | null; first_name?: string | null; firstName?: string | null; last_name?: string | null; lastName?: string | null }): string {
  const base = leadName({ name: lead.name ?? undefined, first_name: (lead.first_name ?? lead.firstName) ?? undefined });
  const last = (lead.last_name ?? lead.lastName ?? '').trim();
  if (!last) return base;
  if (!base) return last;
  const words = base.toLowerCase().split(/\s+/);
  const lastWords = last.toLowerCase().split(/\s+/);
  const endsWithLast = lastWords.every((word, i) => words[words.length - lastWords.length + i] === word);
  return endsWithLast ? base : `${base} ${last}`;
}

// ---- Valuations (SPEC §7 POST/PUT /api/valuations, POST /api/miscellaneous) ------------------

function extraFieldsCheck(known: Set<string>) {
  return (value: Record<string, unknown>, context: z.RefinementCtx) => {
    const extra = Object.keys(value).filter((key) => !known.has(key));
    if (extra.length > MAX_ATTRIBUTES) context.addIssue({ code: 'custom', message: `must have at most ${MAX_ATTRIBUTES} extra fields`, path: [] });
    for (const key of extra) {
      if (!ATTRIBUTE_KEY.test(key)) context.addIssue({ code: 'custom', message: 'is not an accepted field name', path: [key] });
    }
  };
}

const VALUATION_KEYS = new Set(['id', 'lead_id', 'car_id', 'rego', 'state', 'vin', 'make', 'model', 'year', 'km']);

/** A trade-in or sell-my-car valuation; fields beyond these are kept in its data. */
export const valuationSchema = z
  .object({
    id: optional(leadIdSchema),
    lead_id: optional(leadIdSchema),
    car_id: optional(dbIdSchema),
    rego: optional(textSchema(TEXT_RULES.rego)),
    state: optional(stateSchema),
    vin: optional(textSchema(TEXT_RULES.vin)),
    make: optional(requiredString(100)),
    model: optional(requiredString(100)),
    year: optional(z.coerce.number().int('must be a whole number').min(1900, 'must be 1900 or later').max(2100, 'must be 2100 or earlier')),
    km: optional(z.coerce.number().int('must be a whole number').min(0, 'must not be negative').max(KM_MAX, VALUATION_MESSAGES.kmTooLarge)),
  })
  .catchall(attributeValue)
  .superRefine(extraFieldsCheck(VALUATION_KEYS));

export type ValuationPayload = z.output<typeof valuationSchema>;

export const valuationRequestSchema = z.object({ valuation: valuationSchema });

/** POST /api/miscellaneous: one named block of valuation data saved on a valuation (created when no id). */
export const miscellaneousRequestSchema = z.object({
  valuation_id: optional(leadIdSchema),
  column_name: z.string({ error: LEAD_MESSAGES.required }).regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be lowercase letters, digits and underscores'),
  data: z
    .record(z.string(), attributeValue)
    .superRefine(extraFieldsCheck(new Set())),
});
