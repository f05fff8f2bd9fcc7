/**
 * A lead form posted without JavaScript that the server refused (issue 31, decision 060): the
 * visitor gets the form back with what they typed and each field's message. What was typed travels
 * in a short-lived cookie on the form's own path (never in the address, where it would reach logs
 * and history); a request with a cookie is never a cached page (decision 016). Client-safe.
 */

export type RefusedForm = {
  /** Which form on the page it belongs to (a lead form's category); empty for a page's only form. */
  form: string;
  values: Record<string, string>;
  errors: Record<string, string>;
};

export const REFUSED_FORM_SECONDS = 600;
/** The cookie of a refused lead form (the finance enquiry form has its own, finance_form). */
export const REFUSED_LEAD_FORM_COOKIE = 'lead_form';
/** The element of the form's message, which the refused post's address points at. */
export const REFUSED_FORM_ANCHOR = 'form-errors';
/** Browsers keep about 4 KB a cookie: a longer message is cut to fit, never the rest. */
const COOKIE_MAX = 3_800;
const MAX_KEPT_FIELDS = 40;

/** The lead's field name as the form names it (the form's 'name' is the lead's first_name too). */
const formFieldOf = (leadField: string) => {
  const name = leadField.replace(/^lead\./, '');
  return name === 'first_name' ? 'name' : name;
};

/** The posted values worth giving back (`kept` names them; every field when absent) and the errors by the form's field names. */
export function refusedForm(
  form: Record<string, string>,
  fieldErrors: Record<string, string>,
  { kept, formKey = '' }: { kept?: readonly string[]; formKey?: string } = {},
): RefusedForm {
  const values: Record<string, string> = {};
  const names = kept ?? Object.keys(form).filter((name) => !name.startsWith('_')).slice(0, MAX_KEPT_FIELDS);
  for (const key of names) if (form[key]) values[key] = form[key].slice(0, key === 'message' ? 2_000 : 300);
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors)) {
    const name = formFieldOf(key);
    if (!(name in errors)) errors[name] = message;
  }
  return { form: formKey.slice(0, 100), values, errors };
}

export function refusedFormCookieValue(refused: RefusedForm): string {
  const encode = (values: Record<string, string>) => encodeURIComponent(JSON.stringify({ ...refused, values }));
  let message = refused.values.message ?? '';
  let value = encode(refused.values);
  while (value.length > COOKIE_MAX && message) {
    message = message.slice(0, Math.floor(message.length / 2));
    value = encode({ ...refused.values, message });
  }
  // Still too long (hostile input): the messages alone.
  return value.length > COOKIE_MAX ? encode({}) : value;
}

export function parseRefusedForm(raw: string | undefined): RefusedForm | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(decodeURIComponent(raw)) as Partial<RefusedForm>;
    const strings = (record: unknown) =>
      Object.fromEntries(Object.entries(typeof record === 'object' && record !== null ? record : {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    return { form: typeof parsed.form === 'string' ? parsed.form : '', values: strings(parsed.values), errors: strings(parsed.errors) };
  } catch {
    return null;
  }
}
