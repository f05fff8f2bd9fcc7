'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { contactFields, type FieldDef, type LeadSite, fieldError, submitValue, type FieldValue, LEAD_MESSAGES, FieldControl, fieldId, FormAlert, Spinner, newIdempotencyKey, sendLead, storedTrailFields } from '@/modules/leads';
import { ResendCodeButton } from '@/modules/identity';
import { clampLoanTermYears, clampPurchasePrice, COMPARISON_RATE_WARNING, CREDIT_HISTORIES, DEFAULT_CREDIT_HISTORY, LOAN_TERM_DEFAULT_YEARS, LOAN_TERM_MAX_YEARS, LOAN_TERM_MIN_YEARS, PURCHASE_PRICE_DEFAULT, PURCHASE_PRICE_MAX, purchasePriceFloor, type CreditHistory, type InstantQuote } from '../finance.calc';
import { formatRepayment } from '../finance.display';
import { numberFormat } from '@/lib/intl';
import { CREDIT_LABELS, FINANCE_CATEGORY, FINANCE_MESSAGES } from '../finance.enquiry';
import type { InstantFinanceCar } from './finance-dialogs';

/**
 * The instant finance popup (issue 15, SPEC §2, §4, §5, §8): the quick estimate and the visitor's
 * details, then the phone code, then the application: the lead to the dealer and the customer to
 * the finance partner in parallel, and on to the partner's (or the dealer's) next page.
 */

export const STAGES = ['Quick Estimate', 'Your Details', 'Instant pre-approval', 'Apply to lender'] as const;
export const QUOTE_DEBOUNCE_MS = 500;
const CODE_TIMEOUT_MS = 15_000;

type Props = { car: InstantFinanceCar | null; site: LeadSite; initialPrice?: number; whoIsHelping: string | null };
type CodeState = 'not-sent' | 'sending' | 'sent';

const detailFields: FieldDef[] = contactFields();
const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, 7);
const dollars = (value: number) => `$${numberFormat('en-AU').format(value)}`;

async function postJson(url: string, body: unknown, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<{ ok: boolean; status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers }, body: JSON.stringify(body), signal });
  let parsed: Record<string, unknown> = {};
  try {
    parsed = (await response.json()) as Record<string, unknown>;
  } catch {
    // Not JSON: an unexpected error like any other.
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

const errorOf = (body: Record<string, unknown>, fallback: string) => (typeof body.error === 'string' && body.error ? body.error : fallback);

export function InstantFinanceForm({ car, site, initialPrice, whoIsHelping }: Props) {
  const formId = `finance-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  // A car's own price is financed even below $10,000 (decision 052); a typed budget starts at $10,000.
  const floor = purchasePriceFloor(car?.price);
  // The code is texted, so 'Your Details' takes mobiles only (SPEC §5 'Must be an Australian mobile number.').
  const mobileSite: LeadSite = { ...site, phoneRule: { ...site.phoneRule, mobileOnly: true } };
  const [stage, setStage] = useState<0 | 1>(0);
  const [price, setPrice] = useState(String(clampPurchasePrice(initialPrice ?? PURCHASE_PRICE_DEFAULT, floor)));
  const [term, setTerm] = useState(LOAN_TERM_DEFAULT_YEARS);
  const [credit, setCredit] = useState<CreditHistory>(DEFAULT_CREDIT_HISTORY);
  const [quote, setQuote] = useState<InstantQuote | null>(null);
  const [details, setDetails] = useState<Record<string, FieldValue>>({ subscribe: false });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [codeState, setCodeState] = useState<CodeState>('not-sent');
  /** The server's resend wait and how many codes were sent (a new count restarts the countdown). */
  const [resend, setResend] = useState({ after: 0, sends: 0 });
  const [code, setCode] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lead = useRef<{ id: string; token: string | null } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The quote follows the inputs 500 ms after they stop changing (SPEC §7); a failure clears it.
  const quotedPrice = clampPurchasePrice(price, floor);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await postJson(
          '/api/youx/quote',
          { selfAssessedCreditScore: credit, purchasePrice: quotedPrice, loanTerm: term, year: car?.year, vin: car?.vin ?? undefined, nvic: car?.nvic ?? undefined, whoIsHelping: whoIsHelping ?? undefined },
          controller.signal,
        );
        if (!answer.ok) throw new Error(errorOf(answer.body, `HTTP ${answer.status}`));
        setQuote(answer.body as unknown as InstantQuote);
      } catch (error) {
        if (controller.signal.aborted) return;
        setQuote(null);
        console.warn(FINANCE_MESSAGES.quoteFailed, error);
      }
    }, QUOTE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [quotedPrice, term, credit, car, whoIsHelping]);

  const phoneField = detailFields.find((field) => field.name === 'phone')!;
  const text = (name: string) => (typeof details[name] === 'string' ? (details[name] as string).trim() : '');
  const submitPhone = () => String(submitValue(phoneField, details.phone, site) ?? '');

  function leadPayload(complete: boolean): Record<string, unknown> {
    const first = text('name');
    const last = text('last_name');
    return {
      name: [first, last].filter(Boolean).join(' '),
      first_name: first,
      last_name: last,
      email: text('email'),
      phone: submitPhone(),
      postcode: text('postcode'),
      opt_in: details.subscribe === true,
      category: FINANCE_CATEGORY,
      tags: ['YouX'],
      amount: quotedPrice,
      term,
      selfAssessedCreditScore: credit,
      ...(quote ? { weeklyRepaymentAmount: quote.weeklyRepaymentAmount, advertisedRate: quote.advertisedRate, comparisonRate: quote.comparisonRate } : {}),
      ...(car ? { car_id: car.id, vin: car.vin ?? '', nvic: car.nvic ?? '', year: car.year } : {}),
      ...(whoIsHelping ? { whoIsHelping } : {}),
      website_slug: site.websiteSlug,
      dealership_slug: car?.dealershipSlug ?? site.dealershipSlug,
      source: 'Website',
      url: window.location.href,
      user_agent: navigator.userAgent,
      ...storedTrailFields(),
      lead_id: lead.current?.id ?? null,
      lead_status: complete ? 'Complete' : 'Incomplete',
      form_completed: complete,
      step_number: complete ? 2 : 1,
    };
  }

  function focusFirst(names: string[]) {
    const name = names[0];
    if (name) setTimeout(() => document.getElementById(fieldId(formId, name))?.focus(), 0);
  }

  async function toCodeStep(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setPrice(String(quotedPrice));
    const found: Record<string, string> = {};
    for (const field of detailFields) {
      const message = fieldError(field, details[field.name], mobileSite);
      if (message) found[field.name] = message;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirst(Object.keys(found));
    setBusy(true);
    setAlert(null);
    // The partial lead: the dealer sees the enquiry even if the visitor stops at the code.
    const saved = await sendLead({ method: lead.current ? 'PUT' : 'POST', leadId: lead.current?.id, editToken: lead.current?.token, lead: leadPayload(false), idempotencyKey: newIdempotencyKey() });
    setBusy(false);
    if (!saved.ok) {
      setErrors(Object.fromEntries(Object.entries(saved.fieldErrors).filter(([name]) => detailFields.some((f) => f.name === name))));
      setAlert(saved.error);
      return;
    }
    lead.current = { id: saved.id, token: saved.token ?? lead.current?.token ?? null };
    setStage(1);
    setTimeout(() => headingRef.current?.focus(), 0);
  }

  async function sendCode() {
    const phoneError = fieldError(phoneField, details.phone, mobileSite);
    if (phoneError) {
      setErrors({ code: phoneError });
      return;
    }
    setCodeState('sending');
    setAlert(null);
    try {
      const answer = await postJson('/api/phone-codes', { phone: submitPhone(), first_name: text('name'), last_name: text('last_name') || undefined, email: text('email') || undefined }, AbortSignal.timeout(CODE_TIMEOUT_MS));
      if (!answer.ok) {
        // A code already sent stays usable; only the first send goes back to 'Send Code'.
        setCodeState(resend.sends > 0 ? 'sent' : 'not-sent');
        setAlert(errorOf(answer.body, LEAD_MESSAGES.leadFailed));
        return;
      }
      const after = typeof answer.body.resend_after === 'number' ? answer.body.resend_after : 30;
      setResend((current) => ({ after, sends: current.sends + 1 }));
      setCodeState('sent');
    } catch {
      setCodeState(resend.sends > 0 ? 'sent' : 'not-sent');
      setAlert(FINANCE_MESSAGES.codeTimeout);
    }
  }

  async function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const trimmed = code.trim();
    const codeError = !trimmed ? LEAD_MESSAGES.codeRequired : /^\d{6}$/.test(trimmed) ? null : LEAD_MESSAGES.code;
    if (codeError) {
      setErrors({ code: codeError });
      return focusFirst(['code']);
    }
    setBusy(true);
    setAlert(null);
    setErrors({});
    try {
      const verified = await postJson('/api/phone-codes/verify', { phone: submitPhone(), code: trimmed });
      if (!verified.ok) {
        const fields = (verified.body.fields ?? {}) as Record<string, string>;
        setErrors({ code: typeof fields.code === 'string' ? fields.code : errorOf(verified.body, LEAD_MESSAGES.leadFailed) });
        return focusFirst(['code']);
      }
      const data = {
        nvic: car?.nvic ?? '',
        vin: car?.vin ?? '',
        selfAssessedCreditScore: credit,
        purchasePrice: quotedPrice,
        year: car?.year ?? null,
        loanTerm: term,
        phoneNumber: submitPhone(),
        firstName: text('name'),
        lastName: text('last_name'),
        email: text('email'),
        subscribe: details.subscribe === true,
        postCode: text('postcode'),
      };
      const additionalData = {
        phone: submitPhone(),
        purchasePrice: quotedPrice,
        loanTerm: term,
        selfAssessedCreditScore: credit,
        car_id: car?.id ?? null,
        vin: car?.vin ?? '',
        dealership_slug: car?.dealershipSlug ?? site.dealershipSlug,
        car_type: car?.carType ?? null,
        postcode: text('postcode'),
        whoIsHelping: whoIsHelping ?? '',
        subscribe: details.subscribe === true,
        lead_attributes: { lead_id: lead.current?.id ?? null },
        category: FINANCE_CATEGORY,
      };
      // SPEC §7: the lead and the customer in parallel; either failing stops here with its message.
      const [leadResult, customer] = await Promise.all([
        sendLead({ method: 'PUT', leadId: lead.current?.id, editToken: lead.current?.token, lead: leadPayload(true), idempotencyKey: newIdempotencyKey() }),
        // One key per attempt: a retried request hands the applicant over once.
        postJson('/api/youx/create-customer', { data, additionalData }, undefined, { 'Idempotency-Key': newIdempotencyKey() }).catch(() => null),
      ]);
      if (!leadResult.ok) return setAlert(FINANCE_MESSAGES.leadFailed);
      if (!customer) return setAlert(FINANCE_MESSAGES.customerFailed);
      if (!customer.ok) return setAlert(errorOf(customer.body, FINANCE_MESSAGES.customerFailed));
      const redirectUrl = customer.body.redirectUrl;
      if (typeof redirectUrl !== 'string' || !redirectUrl) return setAlert(FINANCE_MESSAGES.noRedirect);
      window.location.assign(redirectUrl);
    } finally {
      setBusy(false);
    }
  }

  const stageIndex = stage === 0 ? 0 : 2;
  return (
    <div>
      <ol className="mb-5 grid grid-cols-2 gap-2 text-xs font-semibold sm:grid-cols-4" aria-label="Stages">
        {STAGES.map((label, i) => (
          <li
            key={label}
            aria-current={i === stageIndex || (stage === 0 && i === 1) ? 'step' : undefined}
            className={cn('rounded-site border px-2 py-1.5 text-center', i <= stageIndex + (stage === 0 ? 1 : 0) ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 text-slate-600')}
          >
            {label}
          </li>
        ))}
      </ol>
      {alert ? (
        <div className="mb-4">
          <FormAlert tone="destructive">{alert}</FormAlert>
        </div>
      ) : null}

      {stage === 0 ? (
        <form noValidate onSubmit={toCodeStep} aria-busy={busy || undefined}>
          <h3 ref={headingRef} tabIndex={-1} className="text-lg font-bold text-slate-900 outline-none">
            Quick Estimate
          </h3>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={`${formId}-price`} className="block text-sm font-semibold text-slate-900">
                Purchase price ($)
              </label>
              <input
                id={`${formId}-price`}
                inputMode="numeric"
                autoComplete="off"
                value={price}
                onChange={(e) => setPrice(digitsOnly(e.target.value))}
                onBlur={() => setPrice(String(clampPurchasePrice(price, floor)))}
                className="mt-1 block min-h-11 w-full rounded-site border border-slate-400 px-3"
                aria-describedby={`${formId}-price-hint`}
              />
              <p id={`${formId}-price-hint`} className="mt-1 text-xs text-slate-600">
                {`${dollars(floor)} to ${dollars(PURCHASE_PRICE_MAX)}`}
              </p>
            </div>
            <div>
              <label htmlFor={`${formId}-term`} className="block text-sm font-semibold text-slate-900">
                Loan term: <span data-testid="loan-term-value">{term} years</span>
              </label>
              <input
                id={`${formId}-term`}
                type="range"
                min={LOAN_TERM_MIN_YEARS}
                max={LOAN_TERM_MAX_YEARS}
                step={1}
                value={term}
                aria-valuetext={`${term} years`}
                onChange={(e) => setTerm(clampLoanTermYears(e.target.value))}
                className="mt-3 block w-full accent-slate-900"
              />
            </div>
          </div>
          <fieldset className="mt-4">
            <legend className="text-sm font-semibold text-slate-900">Credit history</legend>
            <div className="mt-1 flex flex-wrap gap-2">
              {CREDIT_HISTORIES.map((value) => (
                <label key={value} className={cn('inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-site border px-4', credit === value ? 'border-slate-900 bg-slate-100' : 'border-slate-300')}>
                  <input type="radio" name={`${formId}-credit`} value={value} checked={credit === value} onChange={() => setCredit(value)} />
                  {CREDIT_LABELS[value]}
                </label>
              ))}
            </div>
          </fieldset>
          <QuoteFigures quote={quote} />

          <h3 className="mt-6 text-lg font-bold text-slate-900">Your Details</h3>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            {detailFields.map((field) => (
              <FieldControl key={field.name} formId={formId} field={field} value={details[field.name]} error={errors[field.name]} onChange={(name, value) => setDetails((d) => ({ ...d, [name]: value }))} />
            ))}
            <FieldControl
              formId={formId}
              field={{ name: 'subscribe', label: 'Keep me up to date with news and offers', kind: 'checkbox', wide: true }}
              value={details.subscribe}
              error={undefined}
              onChange={(name, value) => setDetails((d) => ({ ...d, [name]: value }))}
            />
          </div>
          <div className="mt-6">
            <Button type="submit" disabled={busy} className="w-full sm:w-auto">
              {busy ? <Spinner /> : null}
              Get A Personalised Quote
            </Button>
          </div>
        </form>
      ) : (
        <form noValidate onSubmit={apply} aria-busy={busy || undefined}>
          <h3 ref={headingRef} tabIndex={-1} className="text-lg font-bold text-slate-900 outline-none">
            Instant pre-approval
          </h3>
          <p className="mt-1 text-slate-700">We will text a 6-digit code to {text('phone')} to confirm it is yours.</p>
          <QuoteFigures quote={quote} />
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {resend.sends > 0 ? (
              <ResendCodeButton key={resend.sends} seconds={resend.after} onResend={() => void sendCode()} busy={codeState === 'sending'} />
            ) : (
              <Button type="button" variant="outline" onClick={() => void sendCode()} disabled={codeState === 'sending'}>
                {codeState === 'sending' ? <Spinner /> : null}
                Send Code
              </Button>
            )}
            <p role="status" className="text-sm font-semibold text-emerald-800">
              {codeState === 'sent' ? 'Code sent!' : codeState === 'sending' ? 'Sending…' : ''}
            </p>
          </div>
          <div className="mt-4 max-w-xs">
            <label htmlFor={fieldId(formId, 'code')} className="block text-sm font-semibold text-slate-900">
              Verification code
            </label>
            <input
              id={fieldId(formId, 'code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={10}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={errors.code ? `${fieldId(formId, 'code')}-error` : undefined}
              className="mt-1 block min-h-11 w-full rounded-site border border-slate-400 px-3 tracking-widest"
            />
            {errors.code ? (
              <p id={`${fieldId(formId, 'code')}-error`} className="mt-1 text-sm font-semibold text-red-700">
                {errors.code}
              </p>
            ) : null}
          </div>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button type="button" variant="outline" onClick={() => setStage(0)} disabled={busy}>
              Back
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? <Spinner /> : null}
              Apply to lender
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The weekly repayment, the advertised rate and the comparison rate, all the same size (National Credit Code). */
function QuoteFigures({ quote }: { quote: InstantQuote | null }) {
  return (
    <div className="mt-5 rounded-site bg-slate-50 p-4" aria-live="polite" data-testid="finance-quote">
      {quote ? (
        <>
          <dl className="grid grid-cols-3 gap-3 text-center">
            <div>
              <dt className="text-xs font-semibold text-slate-600">Weekly repayment</dt>
              <dd className="text-lg font-bold text-slate-900" data-testid="weekly-repayment">
                {formatRepayment(quote.weeklyRepaymentAmount)}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold text-slate-600">Advertised rate</dt>
              <dd className="text-lg font-bold text-slate-900">{quote.advertisedRate.toFixed(2)}% p.a.</dd>
            </div>
            <div>
              <dt className="text-xs font-semibold text-slate-600">Comparison rate</dt>
              <dd className="text-lg font-bold text-slate-900">{quote.comparisonRate.toFixed(2)}% p.a.</dd>
            </div>
          </dl>
          <p className="mt-3 text-xs text-slate-600">{COMPARISON_RATE_WARNING}</p>
        </>
      ) : (
        <p className="text-center text-sm text-slate-600">Your estimate appears here.</p>
      )}
    </div>
  );
}
