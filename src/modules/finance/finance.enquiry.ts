import { clampLoanTermYears, clampPurchasePrice, parseCreditHistory, type CreditHistory } from './finance.calc';

/** The finance enquiry (SPEC §3 finance form) as a lead, from the plain form post. Client-safe. */

export const FINANCE_CATEGORY = 'Finance Enquiry';

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
    amount: clampPurchasePrice(form.amount),
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
