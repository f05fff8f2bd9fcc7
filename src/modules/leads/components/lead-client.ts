import { LEAD_MESSAGES } from '../form-rules/messages';
import { EDIT_TOKEN_HEADER } from '../leads.edit-token';
import { parseStoredDetails, STORED_DETAIL_KEYS, type StoredUserDetails } from '../form-rules/flow';

/** The browser side of a lead submission: the API call and the stored user details. */

export type LeadResult =
  /** token: the secret later steps present (X-Edit-Token); a PUT answers none. */
  | { ok: true; id: string; token: string | null }
  | { ok: false; error: string; fieldErrors: Record<string, string> };

export type LeadRequest = {
  /** POST creates the lead; PUT updates the lead of lead_id. */
  method: 'POST' | 'PUT';
  leadId?: string | null;
  /** The token the POST answered, for a PUT. */
  editToken?: string | null;
  lead: Record<string, unknown>;
  /** One per submit attempt: a repeated request answers with the first lead's id. */
  idempotencyKey: string;
  /** Files go as multipart: POST /api/leads/with-files, or a multipart PUT. */
  files?: File[];
};

function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** The field errors of a 4xx body, whatever shape they come in: {fields|errors: {name: msg | [msg]}}. */
function readFieldErrors(body: Record<string, unknown>): Record<string, string> {
  const source = (body.fields ?? body.errors ?? body.fieldErrors) as unknown;
  const errors: Record<string, string> = {};
  if (!source || typeof source !== 'object') return errors;
  for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value[0] : value;
    if (typeof message === 'string') errors[key.replace(/^(lead|valuation)\./, '')] = message;
  }
  return errors;
}

export async function sendLead({ method, leadId, editToken, lead, idempotencyKey, files = [] }: LeadRequest): Promise<LeadResult> {
  const put = method === 'PUT' && leadId;
  const url = put ? `/api/leads/${encodeURIComponent(leadId)}` : files.length > 0 ? '/api/leads/with-files' : '/api/leads';
  const headers: Record<string, string> = { Accept: 'application/json', 'Idempotency-Key': idempotencyKey };
  if (method === 'PUT' && editToken) headers[EDIT_TOKEN_HEADER] = editToken;
  let body: BodyInit;
  if (files.length > 0) {
    // The browser sets the multipart boundary itself.
    const form = new FormData();
    form.append('lead', JSON.stringify({ ...lead, has_files: true }));
    for (const file of files) form.append('files', file, file.name);
    body = form;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({ lead });
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body });
  } catch {
    return { ok: false, error: LEAD_MESSAGES.leadFailed, fieldErrors: {} };
  }
  let answer: Record<string, unknown> = {};
  try {
    answer = (await response.json()) as Record<string, unknown>;
  } catch {
    // A body that is not JSON is an unexpected error like any other.
  }
  const id = answer.id ?? answer.lead_id;
  if (response.ok && (typeof id === 'string' || typeof id === 'number')) return { ok: true, id: String(id), token: typeof answer.token === 'string' ? answer.token : null };
  const error = typeof answer.error === 'string' && answer.error ? answer.error : LEAD_MESSAGES.leadFailed;
  return { ok: false, error, fieldErrors: readFieldErrors(answer) };
}

export { newIdempotencyKey };

export type ValuationResult = { ok: true; id: string; token: string } | { ok: false; error: string; fieldErrors: Record<string, string> };

/** POST /api/valuations: the vehicle saved as a valuation, linked to the lead its token proves (X-Edit-Token); or the refusal, field by field. */
export async function createValuation(valuation: Record<string, unknown>, leadToken: string | null): Promise<ValuationResult> {
  try {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (leadToken) headers[EDIT_TOKEN_HEADER] = leadToken;
    const response = await fetch('/api/valuations', {
      method: 'POST',
      headers,
      body: JSON.stringify({ valuation }),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok && typeof body.id === 'string' && typeof body.token === 'string') return { ok: true, id: body.id, token: body.token };
    return { ok: false, error: typeof body.error === 'string' ? body.error : `HTTP ${response.status}`, fieldErrors: readFieldErrors(body) };
  } catch (error) {
    return { ok: false, error: String(error), fieldErrors: {} };
  }
}

/**
 * The vehicle of a trade-in or sell-my-car lead, saved as a valuation linked to the lead (the
 * lead's edit token proves the link). The lead is already stored, so a failure is logged (SPEC §8) and the visitor still sees success.
 */
export async function saveValuation(valuation: Record<string, unknown>, leadToken: string | null): Promise<{ id: string; token: string } | null> {
  const result = await createValuation(valuation, leadToken);
  if (result.ok) return { id: result.id, token: result.token };
  console.error(LEAD_MESSAGES.valuationSaveFailed, result.error);
  return null;
}

/** A named block of data on a saved valuation (POST /api/miscellaneous), e.g. its instant estimate. */
export async function saveValuationData(saved: { id: string; token: string }, columnName: string, data: Record<string, unknown>): Promise<void> {
  try {
    const response = await fetch('/api/miscellaneous', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', [EDIT_TOKEN_HEADER]: saved.token },
      body: JSON.stringify({ valuation_id: saved.id, column_name: columnName, data }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    console.error(LEAD_MESSAGES.valuationSaveFailed, error);
  }
}

const STORAGE_KEY = 'lead-user-details';

export function readStoredDetails(): StoredUserDetails {
  try {
    return parseStoredDetails(window.localStorage.getItem(STORAGE_KEY));
  } catch {
    return {};
  }
}

export function storeDetails(values: Record<string, unknown>): void {
  const details: StoredUserDetails = { ...readStoredDetails() };
  for (const key of STORED_DETAIL_KEYS) {
    const value = values[key];
    if (typeof value === 'string' && value.trim()) details[key] = value.trim();
  }
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(details));
  } catch {
    // Private browsing or a full store: prefill is a convenience, the lead is already sent.
  }
}
