import { isCleanText } from '@/lib/clean-text';
import { phoneError, type PhoneRule } from '@/lib/phone';
import { isPostcode, POSTCODE_RULES, type PostcodeCountry, AUSTRALIAN_STATES } from '@/lib/postcode';
import { wallTimeAt } from '@/lib/time-zone';
import type { FieldDef, FieldKind } from './fields';
import { LEAD_MESSAGES } from './messages';

/**
 * The rules of lead fields (SPEC §5) as data, and the plain checks made from them. The forms run
 * these in the browser (field-checks.ts, on submit); the lead API's zod schemas (schemas.ts) are
 * made from the same rules (TEXT_RULES, textRuleOf), and a unit test checks both give the same
 * first message for every kind of field. No zod here: it would add about 31 KB of compressed
 * JavaScript to every page with a form (decision 033).
 */

export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const MESSAGE_MAX = 5000;
export const TEXT_MAX = 200;
export const PHONE_MAX = 40;
export const POSTCODE_MAX = 100;
export const REGO_MAX = 20;
export const VIN_MAX = 17;
export const KM_MAX = 5_000_000;

const NAME_PATTERN = /^[\p{L}\p{M}]+(?: +[\p{L}\p{M}]+)*$/u;
// The HTML living standard's e-mail pattern, with a dot required in the domain.
const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const REGO_PATTERN = /^[A-Za-z0-9 -]+$/;
const VIN_PATTERN = /^[A-HJ-NPR-Za-hj-npr-z0-9]{11,17}$/;

/**
 * The visitor's own vehicle (trade-in, sell my car): the registration, the VIN and the odometer.
 * Here, not in messages.ts, which pages that run no check load (the checkout journey).
 */
export const VALUATION_MESSAGES = {
  rego: 'must be letters and digits',
  vin: 'must be a VIN of 11 to 17 letters and digits',
  kmTooLarge: 'is too large',
} as const;

/** A field's check: the first message for the trimmed text, or null when it is acceptable. */
export type TextCheck = (text: string) => string | null;

/** A further rule of a text field: whether the text is acceptable, and the message when it is not. */
export type TextRule = { accepts: (text: string) => boolean; message: string };

/** A text field's whole rule: at most `max` characters of clean text (line breaks only when multiline), then `rule`. */
export type TextFieldRule = { max: number; rule?: TextRule; multiline?: boolean };

/** Required text up to `max` characters of clean text (what every text field checks first), then `rule`. */
export function textCheck(max: number, rule?: TextRule, multiline = false): TextCheck {
  return (text) => {
    if (!text) return LEAD_MESSAGES.required;
    if (text.length > max) return LEAD_MESSAGES.tooLong(max);
    if (!isCleanText(text, multiline)) return LEAD_MESSAGES.invalidText;
    return !rule || rule.accepts(text) ? null : rule.message;
  };
}

const matching = (pattern: RegExp, message: string): TextRule => ({ accepts: (text) => pattern.test(text), message });

const NAME_RULE: TextFieldRule = { max: NAME_MAX, rule: matching(NAME_PATTERN, LEAD_MESSAGES.name) };
const TEXT_RULE: TextFieldRule = { max: TEXT_MAX };

/**
 * The rules of the kinds of text field, written once: the browser's check of a field (textCheck,
 * in fieldError) and the API's schema of it (schemas.ts) are both made from its entry. The postcode
 * and a select's value have rules of their own (postcodeRule, choiceRule); textRuleOf picks a
 * field's.
 */
export const TEXT_RULES = {
  first_name: NAME_RULE,
  last_name: NAME_RULE,
  email: { max: EMAIL_MAX, rule: matching(EMAIL_PATTERN, LEAD_MESSAGES.email) },
  textarea: { max: MESSAGE_MAX, multiline: true },
  text: TEXT_RULE,
  rego: { max: REGO_MAX, rule: matching(REGO_PATTERN, VALUATION_MESSAGES.rego) },
  vin: { max: VIN_MAX, rule: matching(VIN_PATTERN, VALUATION_MESSAGES.vin) },
} satisfies Partial<Record<FieldKind, TextFieldRule>>;
const TEXT_RULE_BY_KIND: Partial<Record<FieldKind, TextFieldRule>> = TEXT_RULES;

/**
 * The postcode of the website's country (src/lib/postcode.ts): 4 digits in AU and NZ, a ZIP or
 * ZIP+4 in the US (kept as typed); the input's maxlength and pattern come from the same rule.
 */
export function postcodeRule(country: PostcodeCountry): TextFieldRule {
  return { max: POSTCODE_MAX, rule: { accepts: (text) => isPostcode(country, text), message: POSTCODE_RULES[country].message } };
}

/** A select's value: one of its options. */
export function choiceRule(options: readonly string[]): TextFieldRule {
  return { max: TEXT_MAX, rule: { accepts: (text) => options.includes(text), message: LEAD_MESSAGES.option } };
}

/**
 * The rule of a form field that is text as typed (every kind but phone, state, km, date, checkbox and
 * file; a year is checked as text after its digits). A field that offers options (a select) takes one
 * of them.
 */
export function textRuleOf(field: Pick<FieldDef, 'kind' | 'options'>, country: PostcodeCountry): TextFieldRule {
  if (field.kind === 'postcode') return postcodeRule(country);
  if (field.options) return choiceRule(field.options.map((option) => option.value));
  return TEXT_RULE_BY_KIND[field.kind] ?? TEXT_RULE;
}

export function stateCheck(text: string): string | null {
  if (!text) return LEAD_MESSAGES.required;
  return (AUSTRALIAN_STATES as readonly string[]).includes(text) ? null : LEAD_MESSAGES.state;
}

export function phoneCheck(rule: PhoneRule): TextCheck {
  const text = textCheck(PHONE_MAX);
  return (value) => text(value) ?? phoneError(value, rule);
}

/** Kilometres as digits (commas and spaces removed before): whole, at most KM_MAX. */
export function kmCheck(digits: string): string | null {
  return Number(digits) > KM_MAX ? VALUATION_MESSAGES.kmTooLarge : null;
}

/** The lead fields that are dates a visitor picks (YYYY-MM-DD, as a date input gives them). */
export const DATE_FIELD_NAMES = ['preferred_date'] as const;

const pad = (value: number) => String(value).padStart(2, '0');

/** Today in the website's time zone, as YYYY-MM-DD (a date input's min). */
export function todayIn(timeZone: string, now = Date.now()): string {
  const { year, month, day } = wallTimeAt(now, timeZone);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A real calendar date, not before today in the website's time zone (issue 31: no past dates). */
export function dateCheck(timeZone: string, now = Date.now()): TextCheck {
  return (text) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!match) return LEAD_MESSAGES.date;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return LEAD_MESSAGES.date;
    return text < todayIn(timeZone, now) ? LEAD_MESSAGES.pastDate : null;
  };
}
