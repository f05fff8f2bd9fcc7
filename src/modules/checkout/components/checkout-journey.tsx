'use client';

import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { FieldControl, fieldId, FormAlert, StepProgress, createValuation, newIdempotencyKey, saveValuationData, sendLead, isFieldRequired, VALUATION_FIELD_NAMES, type FieldDef, type LeadSite, LEAD_MESSAGES, progressPercent } from '@/modules/leads';
import type { FieldValue } from '@/modules/leads';
import type { Estimate } from '@/modules/vehicles';
import { estimateData, estimateForValues, estimateLeadFields, InstantEstimate, LOOKUP_FIELDS, VehicleLookup } from '@/modules/vehicles';
import { useStepHeading } from './use-step-heading';
import type { DepositFlow } from './checkout-page';

// The deposit step is the journey's last: loaded when the visitor reaches it, not with the page
// (decision 033's budget for /checkout-journey).
const CheckoutFlow = lazy(() => import('./checkout-flow').then((m) => ({ default: m.CheckoutFlow })));

/**
 * The online purchase (/checkout-journey, issue 16): the buyer's choices, one step each — cash or
 * finance (with the finance estimate for this car and its disclaimer), a trade-in (the valuation
 * form's vehicle fields, lookup and instant estimate, saved as a valuation of the lead), pick-up
 * location or delivery postcode — then the deposit step (CheckoutFlow). Like every multi-step
 * form, the first step creates a partial lead ('Incomplete') through the lead API and each later
 * step updates it; the reservation names that lead, which becomes the reservation's own lead when
 * the deposit is captured, so the dealer gets one lead.
 */

export type JourneyFinance = { weekly: string; monthly: string; rate: string; comparisonRate: string; disclaimer: string } | null;

export type CheckoutJourneyProps = {
  flow: DepositFlow;
  site: LeadSite;
  locations: { id: number; name: string }[];
  /** The repayment estimate for this car's price, where the website shows one. */
  finance: JourneyFinance;
  vehicleFields: FieldDef[];
};

type StepName = 'payment' | 'trade_in' | 'fulfilment' | 'deposit';
const STEPS: StepName[] = ['payment', 'trade_in', 'fulfilment', 'deposit'];
const HEADINGS: Record<StepName, string> = {
  payment: 'How would you like to pay?',
  trade_in: 'Do you have a car to trade in?',
  fulfilment: 'Pick up or delivery?',
  deposit: 'Your details and deposit',
};
const FORM_ID = 'journey';
const TRY_AGAIN = 'Sorry, we could not save your answer. Please try again.';
const CHECK_FIELDS = 'Please check the highlighted fields.';
const POSTCODE_FIELD: FieldDef = { name: 'delivery_postcode', label: 'Delivery postcode', kind: 'postcode', required: true };

const buttonClasses =
  'inline-flex min-h-12 w-full items-center justify-center rounded-site px-5 py-2 text-base font-semibold disabled:opacity-60 sm:w-auto';

export function CheckoutJourney({ flow, site, locations, finance, vehicleFields }: CheckoutJourneyProps) {
  const [index, setIndex] = useState(0);
  const [values, setValues] = useState<Record<string, FieldValue>>(() => ({
    payment_method: 'cash',
    trade_in: 'no',
    fulfilment: locations.length ? 'pickup' : 'delivery',
    pickup_location_id: String(locations[0]?.id ?? ''),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lead, setLead] = useState<{ id: string; token: string | null } | null>(null);
  const [valuation, setValuation] = useState<{ id: string; snapshot: string } | null>(null);
  const estimate = useRef<Estimate | null>(null);
  /** What each saved step sent, so an unchanged step is not resent. */
  const saved = useRef(new Map<StepName, string>());
  const headingRef = useStepHeading(index);
  const alertRef = useRef<HTMLDivElement>(null);
  const step = STEPS[index]!;

  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '');
  const setValue = (name: string, value: FieldValue) => setValues((current) => ({ ...current, [name]: value }));
  const fill = (patch: Record<string, string>) => setValues((current) => ({ ...current, ...patch }));
  const money = (amount: number) =>
    new Intl.NumberFormat(site.money?.locale ?? 'en-AU', { style: 'currency', currency: site.money?.currency ?? 'AUD', maximumFractionDigits: 0 }).format(amount);
  const tradingIn = values.trade_in === 'yes';
  const delivery = values.fulfilment === 'delivery';
  const pickup = locations.find((l) => String(l.id) === values.pickup_location_id);
  const pickupField: FieldDef = { name: 'pickup_location_id', label: 'Pick-up location', kind: 'select', required: true, options: locations.map((l) => ({ value: String(l.id), label: l.name })) };

  function fail(found: Record<string, string>, message: string | null) {
    setErrors(found);
    setAlert(message);
    const first = Object.keys(found)[0];
    requestAnimationFrame(() => {
      if (first) document.getElementById(fieldId(FORM_ID, first))?.focus();
      else alertRef.current?.focus();
    });
  }

  /**
   * Saves the step on the partial lead: created by the first save, updated by the others (SPEC §4).
   * A refusal is shown on the step; `quiet` (the details, which the reservation checks again with
   * the same rules and shows on its own form) only skips the save.
   */
  async function saveStep(name: StepName, fields: Record<string, unknown>, quiet = false): Promise<boolean> {
    const body = { ...fields, lead_status: 'Incomplete', form_completed: false, step_number: STEPS.indexOf(name) + 1 };
    const snapshot = JSON.stringify(body);
    if (lead && saved.current.get(name) === snapshot) return true;
    const result = await sendLead({
      method: lead ? 'PUT' : 'POST',
      leadId: lead?.id,
      editToken: lead?.token,
      idempotencyKey: newIdempotencyKey(),
      lead: !lead
        ? { ...body, category: 'Reservation', subcategory: 'Online Purchase', car_id: flow.car.id, website_slug: site.websiteSlug, url: `${window.location.pathname}${window.location.search}` }
        : { ...body, lead_id: lead.id },
    });
    if (!result.ok) {
      if (!quiet)
        fail(Object.fromEntries(Object.entries(result.fieldErrors).filter(([key]) => key in fields)), result.error);
      return false;
    }
    if (!lead) setLead({ id: result.id, token: result.token });
    saved.current.set(name, snapshot);
    return true;
  }

  /**
   * The trade-in's vehicle, saved as a valuation of the lead: required fields and the year and
   * kilometres' form checked here, the rest by the valuation API (its 422 names the fields), so
   * the page carries no field-rule code (decision 033's budget).
   */
  async function saveTradeIn(owner: { id: string; token: string | null }): Promise<Record<string, unknown> | null> {
    const found: Record<string, string> = {};
    const km = text('km').replace(/[\s,]/g, '');
    for (const field of vehicleFields) if (isFieldRequired(field, text) && !text(field.name).trim()) found[field.name] = LEAD_MESSAGES.required;
    if (!found.year && !/^\d{4}$/.test(text('year').trim())) found.year = LEAD_MESSAGES.year;
    if (km && !/^\d{1,7}$/.test(km)) found.km = LEAD_MESSAGES.km;
    if (Object.keys(found).length) {
      fail(found, CHECK_FIELDS);
      return null;
    }
    const vehicle: Record<string, string | number | null> = Object.fromEntries(VALUATION_FIELD_NAMES.map((name) => [name, text(name).trim() || null]));
    vehicle.year = Number(text('year').trim());
    vehicle.km = km ? Number(km) : null;
    const snapshot = JSON.stringify(vehicle);
    let current = valuation;
    if (current?.snapshot !== snapshot) {
      estimate.current ??= site.instantEstimate === false ? null : await estimateForValues(text);
      const made = await createValuation({ ...vehicle, lead_id: owner.id, car_id: flow.car.id }, owner.token);
      if (!made.ok) {
        fail(made.fieldErrors, Object.keys(made.fieldErrors).length ? CHECK_FIELDS : TRY_AGAIN);
        return null;
      }
      if (estimate.current) await saveValuationData(made, 'simple_autograb', estimateData(estimate.current));
      current = { id: made.id, snapshot };
      setValuation(current);
    }
    const described = [vehicle.year, vehicle.make, vehicle.model].filter(Boolean).join(' ');
    return {
      trade_in: 'yes',
      valuation_id: current.id,
      trade_in_vehicle: `${described}${vehicle.rego ? ` (rego ${vehicle.rego} ${vehicle.state ?? ''})`.trimEnd() : ''}`,
      message: text('message').trim() || null,
      ...(estimate.current ? estimateLeadFields(estimate.current, money) : {}),
    };
  }

  /** The delivery postcode, checked against the postcode data by the server. */
  async function checkPostcode(postcode: string): Promise<boolean> {
    if (!postcode) {
      fail({ delivery_postcode: LEAD_MESSAGES.required }, null);
      return false;
    }
    try {
      const response = await fetch(`/api/checkout/delivery?postcode=${encodeURIComponent(postcode)}`, { headers: { Accept: 'application/json' } });
      if (response.ok) return true;
      const body = (await response.json().catch(() => ({}))) as { error?: string; fields?: { postcode?: string } };
      if (body.fields?.postcode) fail({ delivery_postcode: body.fields.postcode }, null);
      else fail({}, body.error ?? TRY_AGAIN);
    } catch {
      fail({}, TRY_AGAIN);
    }
    return false;
  }

  async function next(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({});
    setAlert(null);
    let fields: Record<string, unknown> | null = null;
    if (step === 'payment') {
      const finance_estimate = values.payment_method === 'finance' && finance ? `from ${finance.weekly}/week (${finance.monthly}/month) at ${finance.rate}% p.a., comparison rate ${finance.comparisonRate}% p.a.` : null;
      fields = { payment_method: values.payment_method, finance_estimate };
    } else if (step === 'trade_in') {
      // The lead exists from the first step: the valuation is linked to it with its token.
      fields = tradingIn && lead ? await saveTradeIn(lead) : { trade_in: 'no', valuation_id: null };
    } else if (step === 'fulfilment') {
      const postcode = text('delivery_postcode').trim();
      if (!delivery && !pickup) fail({ pickup_location_id: LEAD_MESSAGES.required }, null);
      else if (!delivery) fields = { fulfilment: 'Pick up', pickup_location_id: pickup!.id, pickup_location: pickup!.name, delivery_postcode: null };
      else if (await checkPostcode(postcode)) fields = { fulfilment: 'Delivery', delivery_postcode: postcode, pickup_location_id: null, pickup_location: null };
    }
    if (fields && (await saveStep(step, fields))) setIndex((current) => current + 1);
    setBusy(false);
  }

  function back() {
    setErrors({});
    setAlert(null);
    setIndex((current) => Math.max(0, current - 1));
  }

  const radioGroup = (name: string, legend: string, items: [string, string][]) => (
    <fieldset>
      <legend className="sr-only">{legend}</legend>
      <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
        {items.map(([value, label]) => (
          <label key={value} className="flex min-h-11 items-center gap-2 text-gray-800">
            <input type="radio" name={name} value={value} checked={values[name] === value} onChange={() => setValue(name, value)} className="size-5 accent-brand" />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );

  const field = (def: FieldDef) => <FieldControl key={def.name} formId={FORM_ID} field={def} value={values[def.name]} error={errors[def.name]} onChange={setValue} />;

  const summary = [
    values.payment_method === 'finance' ? 'Finance' : 'Cash or bank transfer',
    tradingIn ? `Trade-in: ${[text('year'), text('make'), text('model')].filter(Boolean).join(' ')}` : 'No trade-in',
    delivery ? `Delivery to ${text('delivery_postcode')}` : `Pick up from ${pickup?.name ?? ''}`,
  ];

  return (
    <div data-checkout="journey" data-step-name={step}>
      <StepProgress step={index + 1} count={STEPS.length} percent={progressPercent(index, STEPS.length)} />
      {step === 'deposit' ? (
        <div className="space-y-5">
          <div className="rounded-site bg-gray-50 p-4">
            <h2 ref={headingRef} tabIndex={-1} className="font-semibold text-gray-900 outline-none">
              Your choices
            </h2>
            <ul className="mt-1 list-disc pl-5 text-gray-800" data-checkout="choices-summary">
              {summary.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
          <Suspense fallback={<p className="mt-5 text-slate-600">Loading</p>}>
          <CheckoutFlow
            {...flow}
            choices={{
              values: {
                lead_id: lead?.id,
                payment_method: values.payment_method,
                trade_in: tradingIn,
                ...(tradingIn && valuation ? { valuation_id: valuation.id } : {}),
                ...(delivery ? { delivery_postcode: text('delivery_postcode').trim() } : { pickup_location_id: pickup?.id }),
              },
              leadToken: lead?.token ?? null,
              saveDetails: async (details) => {
                await saveStep('deposit', details, true);
              },
            }}
            onBack={back}
          />
          </Suspense>
        </div>
      ) : (
        <form onSubmit={next} noValidate aria-labelledby={`${FORM_ID}-heading`} className="space-y-5" data-step={step}>
          <h2 id={`${FORM_ID}-heading`} ref={headingRef} tabIndex={-1} className="text-xl font-bold text-gray-900 outline-none">
            {HEADINGS[step]}
          </h2>
          {alert ? (
            <div ref={alertRef} tabIndex={-1} className="outline-none">
              <FormAlert tone="destructive">{alert}</FormAlert>
            </div>
          ) : null}
          {step === 'payment' ? (
            <>
              {radioGroup('payment_method', HEADINGS.payment, [
                ['cash', 'Cash or bank transfer'],
                ['finance', 'Finance'],
              ])}
              <div aria-live="polite">
                {values.payment_method === 'finance' ? (
                  finance ? (
                    <div className="rounded-site border border-gray-200 bg-gray-50 p-4" data-checkout="finance-estimate">
                      <p className="text-gray-900">
                        Estimated repayments from <b>{`${finance.weekly}/week`}</b> (<b>{`${finance.monthly}/month`}</b>) at <b>{`${finance.rate}% p.a.`}</b> · comparison rate{' '}
                        <b>{`${finance.comparisonRate}% p.a.`}</b>
                        <span aria-hidden="true">*</span>
                      </p>
                      <p className="mt-2 text-sm text-gray-700">We will talk you through finance options when we call you about the car.</p>
                      <p className="mt-3 text-xs leading-relaxed text-slate-600">* {finance.disclaimer}</p>
                    </div>
                  ) : (
                    <p className="text-gray-800">We will talk you through finance options when we call you about the car.</p>
                  )
                ) : null}
              </div>
            </>
          ) : null}
          {step === 'trade_in' ? (
            <>
              {radioGroup('trade_in', HEADINGS.trade_in, [
                ['no', 'No'],
                ['yes', 'Yes, value my car'],
              ])}
              {tradingIn ? (
                <div className="space-y-5" data-checkout="trade-in">
                  <p className="text-gray-700">Look your car up by its rego or VIN, or type its details. The more we know, the more accurate our valuation.</p>
                  <div className="grid gap-5 sm:grid-cols-2">
                    {vehicleFields.filter((f) => LOOKUP_FIELDS.has(f.name)).map(field)}
                    <VehicleLookup valueOf={text} fill={fill} />
                    {vehicleFields.filter((f) => !LOOKUP_FIELDS.has(f.name)).map(field)}
                  </div>
                  {site.instantEstimate === false ? null : <InstantEstimate valueOf={text} money={money} onEstimate={(value) => (estimate.current = value)} />}
                </div>
              ) : null}
            </>
          ) : null}
          {step === 'fulfilment' ? (
            <>
              {radioGroup('fulfilment', HEADINGS.fulfilment, [
                ...(locations.length ? ([['pickup', 'Pick up from a dealership']] as [string, string][]) : []),
                ['delivery', 'Deliver to my postcode'],
              ])}
              {delivery
                ? field(POSTCODE_FIELD)
                : field(pickupField)}
            </>
          ) : null}
          <div className="flex flex-col-reverse gap-3 sm:flex-row">
            {index > 0 ? (
              <button type="button" onClick={back} className={`${buttonClasses} border-2 border-slate-900 text-slate-900`}>
                Go Back
              </button>
            ) : null}
            <button type="submit" disabled={busy} aria-busy={busy || undefined} className={`${buttonClasses} bg-brand text-brand-foreground hover:brightness-110`}>
              {busy ? 'Saving…' : 'Continue'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
