import { refusedForm, type RefusedForm, CATEGORIES } from '@/modules/leads';
import { clampLoanTermYears, clampPurchasePrice, FINANCE_MIN_AMOUNT, parseCreditHistory, type CreditHistory } from './finance.calc';

/** The finance enquiry (SPEC §3 finance form) as a lead, from the plain form post. Client-safe. */

export const FINANCE_CATEGORY = CATEGORIES.finance;

/** SPEC §8's finance messages, word for word, and the popup's own. */
export const FINANCE_MESSAGES = {
  quoteFailed: 'Failed to get YouX quick quote',
  customerFailed: 'Failed to create customer with YouX',
  createFailed: 'Failed to create YouX customer',
  leadFailed: 'Lead submission failed',
  noRedirect: 'Failed to create customer or no redirect URL received.',
  codeTimeout: 'The code could not be sent just now. Please try again.',
  unverified: 'Please verify your mobile number with the code we sent before applying.',
} as const;
export const CREDIT_LABELS: Record<CreditHistory, string> = { GREAT: 'Great', DECENT: 'Decent', POOR: 'Poor' };

const ID_FIELDS = ['car_id', 'car_dealership_id', 'location_id'] as const;
const TEXT_FIELDS = ['email', 'phone', 'postcode', 'message', 'dealership_slug', 'whoIsHelping', 'favourite_color'] as const;

export function financeEnquiryFromForm(form: Record<string, string>, websiteSlug: string): Record<string, unknown> {
  const first = (form.name ?? '').trim();
  const last = (form.last_name ?? '').trim();
  const lead: Record<string, unknown> = {
    name: [first, last].filter(Boolean).join(' '),
    first_name: first,
    last_name: last,
    category: FINANCE_CATEGORY,
    amount: clampPurchasePrice(form.amount, FINANCE_MIN_AMOUNT),
    term: clampLoanTermYears(form.term || undefined),
    selfAssessedCreditScore: parseCreditHistory(form.selfAssessedCreditScore),
    opt_in: form.opt_in === 'on' || form.opt_in === 'true',
    website_slug: websiteSlug,
    source: 'Website',
  };
  for (const key of TEXT_FIELDS) {
    const value = (form[key] ?? '').trim();
    if (value) lead[key] = value;
  }
  for (const key of ID_FIELDS) {
    if (/^\d{1,10}$/.test(form[key] ?? '')) lead[key] = Number(form[key]);
  }
  return lead;
}

/**
 * A refused plain post (issue 31): the visitor gets the form back with what they typed and each
 * field's message, in the cookie of leads.refused-form.ts on /finance; the form's SPEC §2 query
 * parameters (term, credit history, budget, car, who is helping, dealership) in the address, as any
 * link gives them.
 */
export const REFUSED_FORM_COOKIE = 'finance_form';
export const REFUSED_FORM_PATH = '/finance';
const KEPT_FIELDS = ['amount', 'term', 'selfAssessedCreditScore', 'name', 'last_name', 'email', 'phone', 'postcode', 'message', 'opt_in'] as const;

/** The finance form's refused post (leads.refused-form.ts), keeping the form's own fields. */
export function refusedFinanceForm(form: Record<string, string>, fieldErrors: Record<string, string>): RefusedForm {
  return refusedForm(form, fieldErrors, { kept: KEPT_FIELDS });
}

/** The address the refused post goes back to: /finance with the form's query parameters and the fields to check. */
export function refusedFormPath(form: Record<string, string>, lead: Record<string, unknown>, refused: RefusedForm): string {
  const query = new URLSearchParams();
  query.set('invalid', Object.keys(refused.errors).join(','));
  if (typeof lead.car_id === 'number') query.set('car_id', String(lead.car_id));
  const keep: [string, string | undefined][] = [
    ['vehiclePriceBudget', form.amount],
    ['loanTerm', form.term],
    ['selfAssessedCreditScore', form.selfAssessedCreditScore],
    ['whoIsHelping', form.whoIsHelping],
    ['preferredDealership', form.dealership_slug],
  ];
  for (const [key, value] of keep) if (value && value.trim()) query.set(key, value.trim().slice(0, 100));
  return `${REFUSED_FORM_PATH}?${query.toString()}#finance-form`;
}
