'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { contactFields, messageField, optInField, type FieldDef, type LeadSite, FieldControl, fieldId, FormAlert, Honeypot, loadFieldRules } from '@/modules/leads';
import type { FieldValue } from '@/modules/leads';
import { CREDIT_HISTORIES, LOAN_TERM_MAX_YEARS, LOAN_TERM_MIN_YEARS } from '../finance.calc';
import { CREDIT_LABELS, FINANCE_CATEGORY } from '../finance.enquiry';

/** The plain form's endpoint: it stores the lead and answers with the success page or the form again. */
export const FINANCE_ENQUIRY_ACTION = '/api/finance-enquiry';
const FORM_ID = 'finance-enquiry';

/**
 * The lead forms' checks (and the phone rules' metadata with them) load when the visitor first
 * reaches the form, not with the page: the page's JavaScript stays within decision 033's budget.
 */
let checks: ReturnType<typeof loadFieldRules> | null = null;
function loadChecks() {
  // A failed load (offline) is tried again on the next submit.
  checks ??= loadFieldRules().catch((error: unknown) => {
    checks = null;
    throw error;
  });
  return checks;
}

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
 * The finance enquiry (SPEC §3 finance form): a plain HTML form posting to FINANCE_ENQUIRY_ACTION.
 * With JavaScript, submit first checks every field with the lead forms' own checks (fieldError,
 * the SPEC §5 messages) and shows each message beside its field; only a form that passes is
 * posted. Without it, the browser's checks and then the server's: a refused post comes back with
 * the values and messages it was refused with (`initialValues`, `errors`).
 */
export function FinanceEnquiryForm({
  site,
  hidden,
  initialValues,
  errors: serverErrors,
}: {
  site: LeadSite;
  hidden: Record<string, string | number | null>;
  initialValues: Record<string, string>;
  /** Each refused field's message, from the last post. */
  errors: Record<string, string>;
}) {
  const fields = financeFields(site);
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState(serverErrors);
  const refusedLabels = fields.filter((field) => serverErrors[field.name]).map((field) => field.label);

  // Hydrated: the form's own checks (with the spec's messages) replace the browser's bubbles.
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    let fieldError: Awaited<ReturnType<typeof loadChecks>>['fieldError'];
    try {
      ({ fieldError } = await loadChecks());
    } catch {
      return form.submit(); // the checks did not load: the server checks the same rules
    }
    const valueOf = (field: FieldDef): FieldValue => (field.kind === 'checkbox' ? data.get(field.name) !== null : String(data.get(field.name) ?? ''));
    const found: Record<string, string> = {};
    for (const field of fields) {
      const message = fieldError(field, valueOf(field), site);
      if (message) found[field.name] = message;
    }
    setErrors(found);
    const first = fields.find((field) => found[field.name]);
    if (!first) return form.submit();
    setTimeout(() => document.getElementById(fieldId(FORM_ID, first.name))?.focus(), 0);
  }

  return (
    <form ref={formRef} method="post" action={FINANCE_ENQUIRY_ACTION} onSubmit={(event) => void onSubmit(event)} onFocusCapture={() => void loadChecks().catch(() => undefined)} aria-labelledby="finance-enquiry-heading" className="relative">
      <h2 id="finance-enquiry-heading" className="text-xl font-bold text-gray-900">
        Finance enquiry
      </h2>
      <p className="mb-5 mt-1 text-gray-700">Tell us what you would like to finance and we will come back to you with options.</p>
      {refusedLabels.length > 0 ? (
        <div className="mb-5">
          <FormAlert tone="destructive">{`Please check ${refusedLabels.join(', ')} and send it again.`}</FormAlert>
        </div>
      ) : null}
      <input type="hidden" name="category" value={FINANCE_CATEGORY} />
      {Object.entries(hidden).map(([name, value]) => (value === null ? null : <input key={name} type="hidden" name={name} value={String(value)} />))}
      <Honeypot formId={FORM_ID} />
      <div className="grid gap-5 sm:grid-cols-2">
        {fields.map((field) => (
          <FieldControl
            key={field.name}
            formId={FORM_ID}
            field={field}
            value={field.kind === 'checkbox' ? initialValues[field.name] === 'on' || initialValues[field.name] === 'true' : initialValues[field.name]}
            error={errors[field.name]}
          />
        ))}
      </div>
      <div className="mt-6">
        <Button type="submit">Send Finance Enquiry</Button>
      </div>
    </form>
  );
}
