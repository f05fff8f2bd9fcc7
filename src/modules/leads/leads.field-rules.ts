import type { z } from 'zod';
import { formatPhoneForSubmit } from '@/lib/phone';
import type { FieldDef, LeadSite } from './leads.fields';
import {
  choiceSchema,
  emailSchema,
  LEAD_MESSAGES,
  messageSchema,
  nameSchema,
  phoneSchema,
  postcodeSchema,
  requiredTextSchema,
  stateSchema,
  valuationSchema,
} from './leads.validation';

/**
 * A form field's check, run on submit: the message to show, or null. Each kind of field uses the
 * schema the lead API uses (leads.validation.ts), so the form and the server agree.
 */

export type FieldValue = string | boolean;

function schemaFor(field: FieldDef, site: LeadSite): z.ZodType {
  switch (field.kind) {
    case 'first_name':
    case 'last_name':
      return nameSchema;
    case 'email':
      return emailSchema;
    case 'postcode':
      return postcodeSchema;
    case 'phone':
      return phoneSchema(site.phoneRule);
    case 'state':
      return stateSchema;
    case 'select':
      return field.options ? choiceSchema(field.options.map((option) => option.value)) : requiredTextSchema;
    case 'textarea':
      return messageSchema;
    case 'rego':
      return valuationSchema.shape.rego;
    case 'vin':
      return valuationSchema.shape.vin;
    case 'km':
      return valuationSchema.shape.km;
    default:
      return requiredTextSchema;
  }
}

export function fieldError(field: FieldDef, value: FieldValue | undefined, site: LeadSite): string | null {
  if (field.kind === 'checkbox') return field.required && value !== true ? LEAD_MESSAGES.required : null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return field.required ? LEAD_MESSAGES.required : null;
  if (field.kind === 'year' && !/^\d{4}$/.test(text)) return 'Please enter a 4-digit year.';
  if (field.kind === 'km' && !/^\d{1,7}$/.test(text.replace(/[\s,]/g, ''))) return 'Please enter whole kilometres, digits only.';
  const result = schemaFor(field, site).safeParse(field.kind === 'km' ? text.replace(/[\s,]/g, '') : text);
  return result.success ? null : (result.error.issues[0]?.message ?? LEAD_MESSAGES.required);
}

/** The value as sent: trimmed text, the phone in its submit form, a year as an integer (SPEC §5). */
export function submitValue(field: FieldDef, value: FieldValue | undefined, site: LeadSite): string | number | boolean | null {
  if (field.kind === 'checkbox') return value === true;
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
