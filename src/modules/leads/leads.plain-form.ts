import type { FieldDef, LeadSite, FieldKind } from './form-rules/fields';
import { submitValue } from './form-rules/field-checks';

/**
 * A lead form posted without JavaScript (decision 060): the same form, sent by the browser to
 * PLAIN_FORM_ACTION as urlencoded fields. The form says how to read its fields (PLAIN_FORM.kinds:
 * 'phone:phone,km:km,…', only the kinds whose submit value is not the text as typed) and what the
 * script-driven form would add (the category, the car type for the success page); the lead is then
 * what the script would have sent, through the same submitValue. Client-safe.
 */
export const PLAIN_FORM_ACTION = '/api/leads/form';
/** The form's own fields: how to read the others, its car type and name (for the success page), and which form it is (the refused post finds it again by that). */
export const PLAIN_FORM = { kinds: '_kinds', carType: '_car_type', form: '_form', successForm: '_success_form' } as const;
/**
 * Kinds whose submit value differs from the trimmed text. A file field posts only its name in a
 * plain form (files go with the script-driven form, multipart): it is left out.
 */
const CONVERTED_KINDS: ReadonlySet<FieldKind> = new Set(['checkbox', 'phone', 'km', 'year', 'file']);
const ID_FIELDS = new Set(['car_id', 'location_id']);
const HONEYPOT = 'favourite_color';

/** The PLAIN_FORM.kinds value for a form's fields. */
export function plainFormKinds(fields: readonly FieldDef[]): string {
  return fields
    .filter((field) => CONVERTED_KINDS.has(field.kind))
    .map((field) => `${field.name}:${field.kind}`)
    .join(',');
}

function kindsOf(raw: string | undefined): Map<string, FieldKind> {
  const kinds = new Map<string, FieldKind>();
  for (const pair of (raw ?? '').split(',').slice(0, 50)) {
    const [name, kind] = pair.split(':');
    if (name && kind && CONVERTED_KINDS.has(kind as FieldKind)) kinds.set(name, kind as FieldKind);
  }
  return kinds;
}

/** The lead a plain post describes, as the script-driven form builds it (lead-form.tsx buildLead). */
export function leadFromPlainForm(form: Record<string, string>, site: LeadSite, pageUrl: string | null): Record<string, unknown> {
  const kinds = kindsOf(form[PLAIN_FORM.kinds]);
  const lead: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(form)) {
    if (name.startsWith('_') || name === HONEYPOT) continue;
    if (ID_FIELDS.has(name)) {
      lead[name] = /^\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
      continue;
    }
    const kind = kinds.get(name) ?? 'text';
    if (kind === 'file') continue;
    lead[name] = submitValue({ name, label: name, kind }, kind === 'checkbox' ? raw === 'on' || raw === 'true' : raw, site);
  }
  // An unticked box is not posted at all.
  for (const [name, kind] of kinds) if (kind === 'checkbox' && !(name in form)) lead[name] = false;
  const first = (form.name ?? '').trim();
  const last = (form.last_name ?? '').trim();
  if ('name' in form || 'last_name' in form) Object.assign(lead, { name: [first, last].filter(Boolean).join(' '), first_name: first, last_name: last });
  return {
    ...lead,
    website_slug: site.websiteSlug,
    dealership_slug: form.dealership_slug || site.dealershipSlug,
    source: 'Website',
    url: pageUrl,
    favourite_color: form[HONEYPOT] ?? '',
  };
}
