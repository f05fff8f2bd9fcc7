import { parsePhoneNumberFromString, type MetadataJson, type PhoneNumber } from 'libphonenumber-js/core';
import type { PhoneCountry } from './phone-countries';
import metadata from './phone-metadata.json';

/**
 * Phone numbers by tenant locale (SPEC §5). Client-safe: the forms and the API use the same rules
 * and messages. libphonenumber-js's 'max' metadata because the small one accepts invalid NZ numbers
 * and cannot tell an Australian mobile from a landline; only its AU, NZ and US part
 * (scripts/build-phone-metadata.ts), as no rule accepts another country's number.
 */

export const PHONE_MESSAGES = {
  australian: 'Invalid phone number. Must be an Australian number.',
  australianMobile: 'Must be an Australian mobile number.',
  /** The spec's mobile-only message in the website's country (issue 31). */
  newZealandMobile: 'Must be a New Zealand mobile number.',
  usMobile: 'Must be a US mobile number.',
  us: 'Must be a US number.',
  newZealand: 'Must be a New Zealand number.',
  newZealandTooLong: 'Invalid phone number. Too many characters.',
  australianE164: 'Invalid Australian mobile number format (E.164 required). For example, 0411 222 333 is valid.',
  usE164: 'Invalid US phone number format (E.164 required). For example, (123) 456-7890 is valid.',
} as const;

export type { PhoneCountry } from './phone-countries';

/** A national number of `country` parsed against the platform's metadata; undefined when it cannot be parsed. */
export function parsePhone(national: string, country: PhoneCountry): PhoneNumber | undefined {
  return parsePhoneNumberFromString(national, country, metadata as MetadataJson);
}

export type PhoneRule = {
  /** The website's country (from its locale): it also picks the postcode rule (src/lib/postcode.ts). */
  country: PhoneCountry;
  /** Landlines are refused ('Must be an Australian mobile number.', or the NZ/US equivalent). */
  mobileOnly: boolean;
  /** 'e164': the number is sent as +614… / +1…, with the E.164 messages. */
  format: 'local' | 'e164';
  /** One number always accepted (for testing the forms on a live site); compared after normalising. */
  testNumber: string | null;
};

export const DEFAULT_PHONE_RULE: PhoneRule = { country: 'AU', mobileOnly: false, format: 'local', testNumber: null };

/** SPEC §9: NZ phone max 14 characters; 15 or more get their own message. */
export const NZ_PHONE_MAX_LENGTH = 14;

const COUNTRY_CODES: Record<PhoneCountry, string> = { AU: '61', NZ: '64', US: '1' };

/**
 * Spaces, brackets, dots and hyphens removed, and the country prefix (+61, 0061, 61 for AU; +64 for
 * NZ; +1 for US) replaced by the national form: '+61 (4) 1122-2333' → '0411222333'.
 */
export function normalizePhone(raw: string, country: PhoneCountry = 'AU'): string {
  let value = raw.trim().replace(/[\s().\-\u00a0]/g, '');
  const code = COUNTRY_CODES[country];
  if (value.startsWith(`+${code}`)) value = value.slice(code.length + 1);
  else if (value.startsWith(`00${code}`)) value = value.slice(code.length + 2);
  // AU and NZ national numbers start with 0, so a leading 61 or 64 can only be the country code.
  else if (country !== 'US' && value.startsWith(code) && value.length > code.length + 6) value = value.slice(code.length);
  else if (country === 'US' && value.length === 11 && value.startsWith('1')) value = value.slice(1);
  else return value;
  // AU and NZ national numbers begin with a trunk 0 that the international form drops.
  return country === 'US' || value.startsWith('0') ? value : `0${value}`;
}

/** SPEC §5: a leading 61 becomes 0 before an enquiry is submitted ('61411222333' → '0411222333'). */
export function enquiryPhone(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('+61')) return `0${value.slice(3).trimStart()}`;
  if (value.startsWith('61')) return `0${value.slice(2).trimStart()}`;
  return value;
}

function isTestNumber(raw: string, rule: PhoneRule): boolean {
  if (!rule.testNumber) return false;
  return normalizePhone(raw, rule.country) === normalizePhone(rule.testNumber, rule.country);
}

/** Only digits and plus signs are kept (SPEC §5, E.164 variants). */
function digitsAndPlus(raw: string): string {
  return raw.replace(/[^\d+]/g, '');
}

/** Australian mobile in E.164: 04… → +614…; an already international number keeps its form. */
export function toAustralianE164(raw: string): string {
  const value = digitsAndPlus(raw);
  if (value.startsWith('04')) return `+61${value.slice(1)}`;
  if (value.startsWith('614')) return `+${value}`;
  return value;
}

/** US number in E.164: 11 digits starting 1 get a plus, 10 digits get +1. */
export function toUsE164(raw: string): string {
  const value = digitsAndPlus(raw);
  if (/^1\d{10}$/.test(value)) return `+${value}`;
  if (/^\d{10}$/.test(value)) return `+1${value}`;
  return value;
}

const INVALID_MESSAGES: Record<PhoneCountry, string> = { AU: PHONE_MESSAGES.australian, NZ: PHONE_MESSAGES.newZealand, US: PHONE_MESSAGES.us };
const MOBILE_MESSAGES: Record<PhoneCountry, string> = { AU: PHONE_MESSAGES.australianMobile, NZ: PHONE_MESSAGES.newZealandMobile, US: PHONE_MESSAGES.usMobile };

/** The message for an unacceptable number, or null when the number is acceptable under the rule. */
export function phoneError(raw: string, rule: PhoneRule): string | null {
  if (isTestNumber(raw, rule)) return null;
  if (rule.format === 'e164') {
    if (rule.country === 'US') return /^\+1\d{10}$/.test(toUsE164(raw)) ? null : PHONE_MESSAGES.usE164;
    if (rule.country === 'AU') return /^\+614\d{8}$/.test(toAustralianE164(raw)) ? null : PHONE_MESSAGES.australianE164;
  }
  if (rule.country === 'NZ' && raw.trim().length > NZ_PHONE_MAX_LENGTH) return PHONE_MESSAGES.newZealandTooLong;
  const national = normalizePhone(raw, rule.country);
  const parsed = /^\+?\d{3,17}$/.test(national) ? parsePhone(national, rule.country) : undefined;
  const valid = parsed !== undefined && parsed.country === rule.country && parsed.isValid();
  if (!valid) return INVALID_MESSAGES[rule.country];
  if (rule.mobileOnly && !isMobile(parsed)) return MOBILE_MESSAGES[rule.country];
  return null;
}

/** A mobile: US numbering does not tell mobiles from landlines, so a valid US number may be one. */
function isMobile(parsed: PhoneNumber): boolean {
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

/**
 * The rule for a number that must take an SMS (a phone code, sign-in, the finance popup's 'Your
 * Details'): the website's rule, mobile only, as typed (no test number: a code must really go out).
 */
export function mobilePhoneRule(rule: PhoneRule): PhoneRule {
  return { ...rule, mobileOnly: true, format: 'local', testNumber: null };
}

/**
 * The number as stored and sent on: E.164 under an E.164 rule, otherwise the national form
 * without spaces or brackets ('0411222333'). Call only after phoneError returned null.
 */
export function formatPhoneForSubmit(raw: string, rule: PhoneRule): string {
  if (rule.format === 'e164' && rule.country === 'US') return toUsE164(raw);
  if (rule.format === 'e164' && rule.country === 'AU') return toAustralianE164(raw);
  return enquiryPhone(normalizePhone(raw, rule.country));
}
