import { formatPhoneForSubmit } from '@/lib/phone';
import { dateCheck, kmCheck, phoneCheck, stateCheck, textCheck, textRuleOf, type TextCheck } from './checks';
import { isFieldRequired, type FieldDef, type LeadSite } from './fields';
import { LEAD_MESSAGES } from './messages';

/**
 * A form field's check, run on submit: the message to show, or null. Each kind of field checks the
 * rule the lead API's schema of it is made from (checks.ts), so the form and the server agree. On
 * its own, with only what the forms call: the finance enquiry loads it when first needed
 * (loadFieldRules, decision 033's budget), and a dynamic import keeps every export of its module.
 */

export type FieldValue = string | boolean;

function checkFor(field: FieldDef, site: LeadSite): TextCheck {
  switch (field.kind) {
    case 'phone':
      return phoneCheck(site.phoneRule);
    case 'state':
      return stateCheck;
    case 'km':
      return kmCheck;
    case 'date':
      return dateCheck(site.timeZone);
    default: {
      const { max, rule, multiline } = textRuleOf(field, site.phoneRule.country);
      return textCheck(max, rule, multiline);
    }
  }
}

/** The message to show, or null. valueOf: the form's other values, for a field required unless another is filled (requiredUnless). */
export function fieldError(field: FieldDef, value: FieldValue | undefined, site: LeadSite, valueOf: (name: string) => FieldValue | undefined = () => undefined): string | null {
  const required = isFieldRequired(field, valueOf);
  if (field.kind === 'checkbox') return required && value !== true ? LEAD_MESSAGES.required : null;
  // Files are checked by filesError (messages.ts) and sent as parts, not as a value.
  if (field.kind === 'file') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return required ? LEAD_MESSAGES.required : null;
  if (field.kind === 'year' && !/^\d{4}$/.test(text)) return LEAD_MESSAGES.year;
  // Kilometres may be typed with commas and spaces ('120,000'): checked as digits.
  const checked = field.kind === 'km' ? text.replace(/[\s,]/g, '') : text;
  if (field.kind === 'km' && !/^\d{1,7}$/.test(checked)) return LEAD_MESSAGES.km;
  return checkFor(field, site)(checked);
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
