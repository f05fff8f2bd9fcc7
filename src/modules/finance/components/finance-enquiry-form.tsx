import { contactFields, messageField, optInField, type FieldDef, type LeadSite } from '@/modules/leads/leads.fields';
import { LeadForm } from '@/modules/leads/components/lead-form';
import { CREDIT_HISTORIES, LOAN_TERM_MAX_YEARS, LOAN_TERM_MIN_YEARS } from '../finance.calc';
import { CREDIT_LABELS, FINANCE_CATEGORY } from '../finance.enquiry';
/** The plain form's endpoint without JavaScript (it answers with the success page or the form again). */
export const FINANCE_ENQUIRY_ACTION = '/api/finance-enquiry';

const years = Array.from({ length: LOAN_TERM_MAX_YEARS - LOAN_TERM_MIN_YEARS + 1 }, (_, i) => String(LOAN_TERM_MIN_YEARS + i));

export function financeFields(site: LeadSite): FieldDef[] {
  return [
    { name: 'amount', label: 'Vehicle price or budget ($)', kind: 'text', hint: 'Digits only, e.g. 30000' },
    { name: 'term', label: 'Loan term', kind: 'select', options: years.map((y) => ({ value: y, label: `${y} year${y === '1' ? '' : 's'}` })) },
    { name: 'selfAssessedCreditScore', label: 'Credit history', kind: 'select', options: CREDIT_HISTORIES.map((c) => ({ value: c, label: CREDIT_LABELS[c] })) },
    ...contactFields(),
    messageField(site, 'Comments', false),
    optInField,
  ];
}

/**
 * The finance enquiry (SPEC §3 finance form) on the lead form engine: with JavaScript it sends like
 * every lead form; without it, it posts to FINANCE_ENQUIRY_ACTION.
 */
export function FinanceEnquiryForm({ site, hidden, initialValues }: { site: LeadSite; hidden: Record<string, string | number | null>; initialValues: Record<string, string> }) {
  return (
    <LeadForm
      site={site}
      steps={[{ heading: 'Finance enquiry', description: 'Tell us what you would like to finance and we will come back to you with options.', fields: financeFields(site) }]}
      category={FINANCE_CATEGORY}
      hidden={hidden}
      initialValues={initialValues}
      submitLabel="Send Finance Enquiry"
      action={FINANCE_ENQUIRY_ACTION}
    />
  );
}
