import { formatPhoneForSubmit } from '@/lib/phone';
import { isFieldRequired, type FieldDef, type LeadSite } from './leads.fields';
import { LEAD_MESSAGES, choiceRule, dateCheck, EMAIL_MAX, EMAIL_RULE, kmCheck, messageCheck, NAME_MAX, NAME_RULE, phoneCheck, POSTCODE_MAX, postcodeRule, REGO_MAX, REGO_RULE, stateCheck, TEXT_MAX, textCheck, VIN_MAX, VIN_RULE, type TextCheck } from './leads.checks';

/**
 * A form field's check, run on submit: the message to show, or null. Each kind of field checks
 * the rule the lead API's schema checks (leads.checks.ts, without zod in the browser), so the form
 * and the server agree.
 */

export type FieldValue = string | boolean;

function checkFor(field: FieldDef, site: LeadSite): TextCheck {
  switch (field.kind) {
    case 'first_name':
    case 'last_name':
      return textCheck(NAME_MAX, NAME_RULE);
    case 'email':
      return textCheck(EMAIL_MAX, EMAIL_RULE);
    case 'postcode':
      return textCheck(POSTCODE_MAX, postcodeRule(site.phoneRule.country));
    case 'phone':
      return phoneCheck(site.phoneRule);
    case 'state':
      return stateCheck;
    case 'select':
      return textCheck(TEXT_MAX, field.options ? choiceRule(field.options.map((option) => option.value)) : undefined);
    case 'textarea':
      return messageCheck;
    case 'rego':
      return textCheck(REGO_MAX, REGO_RULE);
    case 'vin':
      return textCheck(VIN_MAX, VIN_RULE);
    case 'km':
      return kmCheck;
    case 'date':
      return dateCheck(site.timeZone);
    default:
      return textCheck(TEXT_MAX);
  }
}

/** valueOf: the form's other values, for a field required unless another is filled (requiredUnless). */
export function fieldError(field: FieldDef, value: FieldValue | undefined, site: LeadSite, valueOf: (name: string) => FieldValue | undefined = () => undefined): string | null {
  const required = isFieldRequired(field, valueOf);
  if (field.kind === 'checkbox') return required && value !== true ? LEAD_MESSAGES.required : null;
  // Files are checked by filesError (leads.messages.ts) and sent as parts, not as a value.
  if (field.kind === 'file') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return required ? LEAD_MESSAGES.required : null;
  if (field.kind === 'year' && !/^\d{4}$/.test(text)) return LEAD_MESSAGES.year;
  if (field.kind === 'km' && !/^\d{1,7}$/.test(text.replace(/[\s,]/g, ''))) return LEAD_MESSAGES.km;
  return checkFor(field, site)(field.kind === 'km' ? text.replace(/[\s,]/g, '') : text);
}

/** The value as sent: trimmed text, the phone in its submit form, a year as an integer (SPEC §5). */
export function submitValue(field: FieldDef, value: FieldValue | undefined, site: LeadSite): string | number | boolean | null {
  if (field.kind === 'checkbox') return value === true;
  if (field.kind === 'file') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return null;
  if (field.kind === 'phone') return formatPhoneForSubmit(text, site.phoneRule);
  if (field.kind === 'km') return Number(text.replace(/[\s,]/g, ''));
  if (field.kind === 'year') {
    const year = Number.parseInt(text, 10);
    return Number.isFinite(year) ? year : null;
  }
  return text;
}
