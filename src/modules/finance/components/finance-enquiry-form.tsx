import { Button } from '@/components/ui/button';
import { contactFields, messageField, optInField, type FieldDef, type LeadSite } from '@/modules/leads/leads.fields';
import { FieldControl, Honeypot } from '@/modules/leads/components/form-controls';
import { CREDIT_HISTORIES, LOAN_TERM_MAX_YEARS, LOAN_TERM_MIN_YEARS } from '../finance.calc';
import { CREDIT_LABELS, FINANCE_CATEGORY } from '../finance.enquiry';

/** The plain form's endpoint: it stores the lead and answers with the success page or the form again. */
export const FINANCE_ENQUIRY_ACTION = '/api/finance-enquiry';

const years = Array.from({ length: LOAN_TERM_MAX_YEARS - LOAN_TERM_MIN_YEARS + 1 }, (_, i) => String(LOAN_TERM_MIN_YEARS + i));

export function financeFields(site: LeadSite): FieldDef[] {
  return [
    { name: 'amount', label: 'Vehicle price or budget ($)', kind: 'text', hint: 'Digits only, e.g. 30000' },
    { name: 'term', label: 'Loan term', kind: 'select', options: years.map((y) => ({ value: y, label: `${y} year${y === '1' ? '' : 's'}` })) },
    { name: 'selfAssessedCreditScore', label: 'Credit history', kind: 'select', options: CREDIT_HISTORIES.map((c) => ({ value: c, label: CREDIT_LABELS[c] })) },
    ...contactFields(site),
    messageField(site, 'Comments', false),
    optInField,
  ];
}

/**
 * The finance enquiry (SPEC §3 finance form): a plain HTML form the server renders, with the
 * browser's own checks, posting to FINANCE_ENQUIRY_ACTION. No JavaScript: the finance page's
 * script budget goes to the instant finance popup, which loads when opened.
 */
export function FinanceEnquiryForm({
  site,
  hidden,
  initialValues,
  invalid,
}: {
  site: LeadSite;
  hidden: Record<string, string | number | null>;
  initialValues: Record<string, string>;
  /** Field names the last post got back (?invalid=…). */
  invalid: string[];
}) {
  const fields = financeFields(site);
  const invalidLabels = fields.filter((field) => invalid.includes(field.name) || (field.name === 'name' && invalid.includes('first_name'))).map((field) => field.label);
  return (
    <form method="post" action={FINANCE_ENQUIRY_ACTION} aria-labelledby="finance-enquiry-heading" className="relative">
      <h2 id="finance-enquiry-heading" className="text-xl font-bold text-gray-900">
        Finance enquiry
      </h2>
      <p className="mb-5 mt-1 text-gray-700">Tell us what you would like to finance and we will come back to you with options.</p>
      {invalid.length > 0 ? (
        <p role="alert" className="mb-5 rounded-site border border-red-300 bg-red-50 px-4 py-3 font-medium text-red-900">
          Please check {invalidLabels.length > 0 ? invalidLabels.join(', ') : 'the form'} and send it again.
        </p>
      ) : null}
      <input type="hidden" name="category" value={FINANCE_CATEGORY} />
      {Object.entries(hidden).map(([name, value]) => (value === null ? null : <input key={name} type="hidden" name={name} value={String(value)} />))}
      <Honeypot formId="finance-enquiry" />
      <div className="grid gap-5 sm:grid-cols-2">
        {fields.map((field) => (
          <FieldControl key={field.name} formId="finance-enquiry" field={field} value={initialValues[field.name]} error={invalid.includes(field.name) ? 'Please check this field.' : undefined} />
        ))}
      </div>
      <div className="mt-6">
        <Button type="submit">Send Finance Enquiry</Button>
      </div>
    </form>
  );
}
