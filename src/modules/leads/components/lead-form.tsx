'use client';

import { useRouter } from 'next/navigation';
import { useInputBeforeHydration } from '@/components/ui/use-input-before-hydration';
import { PLAIN_FORM, PLAIN_FORM_ACTION, plainFormKinds } from '../leads.plain-form';
import { REFUSED_FORM_ANCHOR } from '../leads.refused-form';
import { useRefusedForm } from './refused-form-context';
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { FieldDef, LeadSite, StepDef } from '../form-rules/fields';
import { todayIn } from '../form-rules/checks';
import { fieldError, submitValue, type FieldValue } from '../form-rules/field-checks';
import { filesError, LEAD_MESSAGES } from '../form-rules/messages';
import { storedTrailFields } from './visit-recorder';
import { progressPercent, successPath, advanceStep, alertTone, FORM_LABELS, goBackStep, initialStepState, normaliseCategory, parseStoredDetails, successSlug, STORED_DETAIL_KEYS, type StepState, type SuccessForm } from '../form-rules/flow';
import { FieldControl, fieldId, FormAlert, Honeypot, Spinner, StepProgress } from './form-controls';
import { newIdempotencyKey, saveValuationData, sendLead, saveValuation, storeDetails } from './lead-client';
import { numberFormat } from '@/lib/intl';
import { spell } from '@/lib/format';
import { InstantEstimate, LOOKUP_FIELDS, VehicleLookup, estimateData, estimateForValues, estimateLeadFields } from '@/modules/vehicles';
import type { Estimate } from '@/modules/vehicles';

/**
 * The form engine (SPEC §2 Multi-step form screen, §4 Lead form and Enquiry form states). One
 * step is the enquiry form; several steps get the heading, 'Step X of Y' progress bar, Go Back
 * and Continue/Submit. A lead is created on the first step and updated with the returned id on
 * later steps (partial saves are 'Incomplete'); validation runs only on submit.
 */

export type LeadFormProps = {
  site: LeadSite;
  steps: StepDef[];
  /** The lead's category; a field named 'category' (an enquiry type select) overrides it. */
  category: string;
  subcategory?: string | null;
  /** Fixed payload values: car_id, car_dealership_id, stock_number, 'Vehicle Make', location_id… */
  hidden?: Record<string, string | number | boolean | null>;
  /** The car's type, for the success page's category slug. */
  carType?: string | null;
  /** The form the success page names (a test drive booking), when not the category's words. */
  successForm?: SuccessForm;
  submitLabel?: string;
  /** Fields also saved as a valuation linked to the lead after the last step (trade-in, sell my car). */
  valuationFields?: string[];
  /** Values the form starts with (a preselected enquiry type); stored user details fill the rest. */
  initialValues?: Record<string, string>;
  /** Show the step heading and description (a page or dialog title may already say it). */
  showHeading?: boolean;
  className?: string;
};

type Values = Record<string, FieldValue>;
type Alert = { title?: string; message: string; tone: 'success' | 'destructive' };

const STORAGE_KEY = 'lead-user-details';
const LOOKUP_SLOT = 'vehicle-lookup' as const;
const subscribeStorage = (onChange: () => void) => {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
};
function storedSnapshot(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function LeadForm({
  site,
  steps,
  category,
  subcategory = null,
  hidden = {},
  carType = null,
  successForm,
  submitLabel = FORM_LABELS.submit,
  showHeading = true,
  initialValues,
  valuationFields,
  className,
}: LeadFormProps) {
  const router = useRouter();
  const formId = `lead-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const storedRaw = useSyncExternalStore(subscribeStorage, storedSnapshot, () => null);
  const stored = useMemo(() => parseStoredDetails(storedRaw), [storedRaw]);
  // Back from a post without JavaScript that the server refused: what was typed, each message.
  const refused = useRefusedForm(category);
  const [edited, setEdited] = useState<Values>(() => ({ ...initialValues, ...(refused ? refusedValues(refused.values, steps) : {}) }));
  const [errors, setErrors] = useState<Record<string, string>>(() => refused?.errors ?? {});
  const [alert, setAlert] = useState<Alert | null>(() => (refused ? { title: LEAD_MESSAGES.enquiryFailed, message: LEAD_MESSAGES.checkFields, tone: 'destructive' } : null));
  const [stepState, setStepState] = useState<StepState>(initialStepState);
  const [busy, setBusy] = useState(false);
  const [honeypot, setHoneypot] = useState('');
  /** Files chosen in file fields (photos, a CV), sent as parts with their step. */
  const [files, setFiles] = useState<Record<string, File[]>>({});
  const leadId = useRef<string | null>(null);
  const editToken = useRef<string | null>(null);
  /** The instant estimate of a vehicle step (issue 19), sent with the lead and stored with the valuation. */
  const estimate = useRef<Estimate | null>(null);
  /** What each saved step sent, so an unchanged step is not resent. */
  const savedSteps = useRef(new Map<number, string>());
  const startedAt = useRef<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    startedAt.current = Date.now();
  }, []);

  const multiStep = steps.length > 1;
  // A multi-step form always names its steps; a single step may leave that to the page or dialog.
  const headingVisible = showHeading || multiStep;
  const stepIndex = stepState.current;
  const step = steps[stepIndex]!;
  const isLast = stepIndex === steps.length - 1;

  const valueOf = (name: string): FieldValue | undefined =>
    name in edited ? edited[name] : (stored[name as keyof typeof stored] ?? undefined);
  const fieldNames = new Set(step.fields.map((field) => field.name));
  useInputBeforeHydration(formRef, valueOf, (typed) =>
    setEdited((current) => ({ ...current, ...Object.fromEntries(Object.entries(typed).filter(([name]) => fieldNames.has(name))) })),
  );

  // Stable, with onFiles and the fields as shown, so a keystroke re-renders only its own field
  // (FieldControl is memoised): a whole form per key was most of typing's cost on a phone (issue 32).
  const onChange = useCallback((name: string, value: FieldValue) => {
    setEdited((current) => ({ ...current, [name]: value }));
    // Checked again on the next submit; the stale message goes now.
    setErrors((current) => {
      if (!(name in current)) return current;
      const next = { ...current };
      delete next[name];
      return next;
    });
  }, []);
  const onFiles = useCallback(
    (name: string, chosen: File[]) => {
      setFiles((current) => ({ ...current, [name]: chosen }));
      onChange(name, chosen.map((file) => file.name).join(', '));
    },
    [onChange],
  );

  const textOf = (name: string): string => {
    const value = valueOf(name);
    return typeof value === 'string' ? value : '';
  };
  const hasVehicleStep = steps.some((candidate) => candidate.lookup === 'vehicle');
  const money = (amount: number) =>
    numberFormat(site.money?.locale ?? 'en-AU', { style: 'currency', currency: site.money?.currency ?? 'AUD', maximumFractionDigits: 0 }).format(amount);

  function fillValues(patch: Record<string, string>) {
    setEdited((current) => ({ ...current, ...patch }));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([name]) => !(name in patch))));
  }

  function focusField(name: string) {
    // After React has rendered the error (aria-invalid, aria-describedby) for it.
    setTimeout(() => document.getElementById(fieldId(formId, name))?.focus(), 0);
  }

  function stepPayload(index: number): Record<string, unknown> {
    const payload: Record<string, unknown> = {};
    for (const field of steps[index]!.fields) {
      if (field.kind === 'file') continue;
      let value = submitValue(field, valueOf(field.name), site);
      if (field.name === 'location_id' && typeof value === 'string') value = Number(value);
      payload[field.name] = value;
    }
    return payload;
  }

  /** A field's submit value, wherever its step is. */
  function stepValue(name: string): unknown {
    const field = steps.flatMap((step) => step.fields).find((candidate) => candidate.name === name);
    return field ? submitValue(field, valueOf(name), site) : null;
  }

  function buildLead(complete: boolean): { lead: Record<string, unknown>; sentSteps: Map<number, string> } {
    const sentSteps = new Map<number, string>();
    const fields: Record<string, unknown> = {};
    const lastIndex = complete ? steps.length - 1 : stepIndex;
    for (let index = 0; index <= lastIndex; index += 1) {
      if (stepState.skipped.includes(index) && index !== stepIndex) continue;
      const payload = stepPayload(index);
      const snapshot = JSON.stringify(payload);
      if (leadId.current && savedSteps.current.get(index) === snapshot) continue;
      sentSteps.set(index, snapshot);
      Object.assign(fields, payload);
    }
    // A shown select is sent as chosen, blank too (the API refuses a blank required select).
    const chosenCategory = 'category' in fields ? (fields.category ?? '') : category;
    const dealershipSlug = 'dealership_slug' in fields ? (fields.dealership_slug ?? '') : (hidden.dealership_slug ?? site.dealershipSlug);
    // Sent as chosen: the API normalises it ('Careers Enquiry' → 'General Enquiry' / 'Career
    // Enquiry', event 51) in one place.
    const firstName = valueOf('name');
    const lastName = valueOf('last_name');
    const nameFields: Record<string, unknown> = {};
    if ('name' in fields || 'last_name' in fields) {
      const first = typeof firstName === 'string' ? firstName.trim() : '';
      const last = typeof lastName === 'string' ? lastName.trim() : '';
      Object.assign(nameFields, { name: [first, last].filter(Boolean).join(' '), first_name: first, last_name: last });
    }
    const lead: Record<string, unknown> = {
      ...hidden,
      ...fields,
      ...nameFields,
      category: chosenCategory,
      subcategory,
      website_slug: site.websiteSlug,
      ...(dealershipSlug === null ? {} : { dealership_slug: dealershipSlug }),
      source: 'Website',
      url: window.location.href,
      user_agent: navigator.userAgent,
      ...storedTrailFields(),
      favourite_color: honeypot,
      fill_ms: startedAt.current === null ? undefined : Math.max(0, Date.now() - startedAt.current),
      ...(complete && estimate.current ? estimateLeadFields(estimate.current, money) : {}),
    };
    if (multiStep) {
      Object.assign(lead, {
        lead_id: leadId.current,
        lead_status: complete ? 'Complete' : 'Incomplete',
        form_completed: complete,
        skipped_steps: stepState.skipped.map((index) => index + 1),
        step_number: stepIndex + 1,
      });
    }
    return { lead, sentSteps };
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found: Record<string, string> = {};
    for (const field of step.fields) {
      const message = field.kind === 'file' ? filesError(files[field.name] ?? []) : fieldError(field, valueOf(field.name), site, valueOf);
      if (message) found[field.name] = message;
    }
    const fileFields = step.fields.filter((field) => field.kind === 'file');
    const stepFiles = fileFields.flatMap((field) => files[field.name] ?? []);
    setErrors(found);
    const firstInvalid = step.fields.find((field) => found[field.name]);
    if (firstInvalid) {
      setAlert(null);
      focusField(firstInvalid.name);
      return;
    }

    // A website that does not show the estimate still sends it to the dealer with the lead.
    if (isLast && hasVehicleStep && !estimate.current) estimate.current = await estimateForValues(textOf);
    const { lead, sentSteps } = buildLead(isLast);
    if (!isLast && leadId.current && sentSteps.size === 0 && stepFiles.length === 0) {
      // Back and forward again over a saved, unchanged step: nothing to resend.
      setStepState((current) => advanceStep(current, steps.length));
      setTimeout(() => headingRef.current?.focus(), 0);
      return;
    }
    setBusy(true);
    setAlert(null);
    const result = await sendLead({
      method: leadId.current ? 'PUT' : 'POST',
      leadId: leadId.current,
      editToken: editToken.current,
      lead,
      idempotencyKey: newIdempotencyKey(),
      files: stepFiles,
    });

    if (!result.ok) {
      // The API names a refused file 'files' or 'files.N': the step's file field shows it.
      const fieldOf = (name: string) => (/^files(\.\d+)?$/.test(name) && fileFields[0] ? fileFields[0].name : name);
      const known = Object.fromEntries(
        Object.entries(result.fieldErrors)
          .map(([name, message]) => [fieldOf(name), message])
          .filter(([name]) => step.fields.some((field) => field.name === name)),
      );
      setErrors(known);
      // 'Please check the highlighted fields' with none of this step's fields to highlight would
      // leave the visitor stuck: say it failed instead.
      const message = Object.keys(known).length === 0 && Object.keys(result.fieldErrors).length > 0 ? LEAD_MESSAGES.leadFailed : result.error;
      setAlert(
        multiStep
          ? { message, tone: alertTone(step.heading) }
          : { title: LEAD_MESSAGES.enquiryFailed, message, tone: 'destructive' },
      );
      setBusy(false);
      const firstServerError = step.fields.find((field) => known[field.name]);
      if (firstServerError) focusField(firstServerError.name);
      else setTimeout(() => alertRef.current?.focus(), 0);
      return;
    }

    leadId.current = result.id;
    if (result.token) editToken.current = result.token;
    for (const [index, snapshot] of sentSteps) savedSteps.current.set(index, snapshot);
    if (!isLast) {
      setStepState((current) => advanceStep(current, steps.length));
      setErrors({});
      setBusy(false);
      setTimeout(() => headingRef.current?.focus(), 0);
      return;
    }
    // Stays disabled while the success page loads (SPEC §4).
    if (valuationFields) {
      const vehicle = Object.fromEntries(valuationFields.map((name) => [name, lead[name] ?? stepValue(name)]));
      const saved = await saveValuation({ ...vehicle, lead_id: result.id, car_id: hidden.car_id ?? null }, editToken.current);
      if (saved && estimate.current) await saveValuationData(saved, 'simple_autograb', estimateData(estimate.current));
    }
    storeDetails(Object.fromEntries(STORED_DETAIL_KEYS.map((key) => [key, valueOf(key)])));
    router.push(
      successPath(successSlug(carType, normaliseCategory(String(lead.category)).category), {
        car_id: typeof hidden.car_id === 'number' || typeof hidden.car_id === 'string' ? hidden.car_id : null,
        form: successForm,
      }),
    );
  }

  function onSkip() {
    setErrors({});
    setAlert(null);
    setStepState((current) => advanceStep(current, steps.length, true));
    setTimeout(() => headingRef.current?.focus(), 0);
  }

  function onBack() {
    setErrors({});
    setAlert(null);
    setStepState((current) => goBackStep(current));
    setTimeout(() => headingRef.current?.focus(), 0);
  }

  // A vehicle step shows the fields a lookup reads, then the lookup, then the rest.
  const fieldsInOrder: (FieldDef | typeof LOOKUP_SLOT)[] =
    step.lookup === 'vehicle'
      ? [...step.fields.filter((f) => LOOKUP_FIELDS.has(f.name)), LOOKUP_SLOT, ...step.fields.filter((f) => !LOOKUP_FIELDS.has(f.name))]
      : step.fields;
  // What the visitor reads, in the website's spelling ('ZIP code', 'Inquiry' on en-US sites).
  const say = (text: string) => spell(site, text);
  const today = todayIn(site.timeZone);
  const shownFields = useMemo(() => {
    const shownField = (field: FieldDef): FieldDef => ({
      ...field,
      label: spell(site, field.label),
      hint: field.hint && spell(site, field.hint),
      options: field.options?.map((option) => ({ ...option, label: spell(site, option.label) })),
      // Past dates are refused: the date picker starts at today in the website's time zone.
      ...(field.kind === 'date' ? { min: today } : {}),
    });
    return new Map(steps.flatMap((candidate) => candidate.fields).map((field) => [field, shownField(field)]));
  }, [site, steps, today]);
  const shown = (field: FieldDef): FieldDef => shownFields.get(field)!;
  const headingId = `${formId}-heading`;
  const percent = progressPercent(stepIndex, steps.length);
  return (
    <form
      ref={formRef}
      noValidate
      method="post"
      action={PLAIN_FORM_ACTION}
      onSubmit={onSubmit}
      aria-labelledby={headingVisible ? headingId : undefined}
      aria-busy={busy || undefined}
      className={cn('relative', className)}
      data-step={stepIndex + 1}
    >
      {multiStep ? <StepProgress step={stepIndex + 1} count={steps.length} percent={percent} /> : null}
      {headingVisible ? (
        <div className="mb-5">
          <h2
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            className="text-xl font-bold text-gray-900 focus:outline-none"
          >
            {say(step.heading)}
          </h2>
          {step.description ? <p className="mt-1 text-gray-700">{say(step.description)}</p> : null}
        </div>
      ) : null}

      {alert ? (
        <div ref={alertRef} id={refused ? REFUSED_FORM_ANCHOR : undefined} tabIndex={-1} className="mb-5 focus:outline-none">
          <FormAlert tone={alert.tone}>{alert.title ? `${alert.title}: ${alert.message}` : alert.message}</FormAlert>
        </div>
      ) : null}

      <div className="grid gap-x-4 gap-y-5 sm:grid-cols-2">
        {fieldsInOrder.map((field) =>
          field === LOOKUP_SLOT ? (
            <VehicleLookup key="vehicle-lookup" valueOf={textOf} fill={fillValues} />
          ) : (
            <FieldControl
              key={field.name}
              formId={formId}
              field={shown(field)}
              value={valueOf(field.name)}
              error={errors[field.name]}
              onChange={onChange}
              onFiles={onFiles}
            />
          ),
        )}
      </div>
      {step.lookup === 'vehicle' && (site.instantEstimate ?? true) ? (
        <InstantEstimate valueOf={textOf} money={money} onEstimate={(value) => (estimate.current = value)} />
      ) : null}
      <Honeypot formId={formId} value={honeypot} onChange={setHoneypot} />
      {/* Without JavaScript the browser posts the form itself (decision 060): every step at once, and what the script would add. */}
      {multiStep && stepIndex === 0 ? (
        <noscript>
          {steps.slice(1).map((later) => (
            <fieldset key={later.heading} className="mt-6">
              <legend className="text-lg font-bold text-gray-900">{later.heading}</legend>
              <div className="mt-3 grid gap-x-4 gap-y-5 sm:grid-cols-2">
                {later.fields.map((field) => (
                  <FieldControl key={field.name} formId={formId} field={shown(field)} value={valueOf(field.name)} error={errors[field.name]} />
                ))}
              </div>
            </fieldset>
          ))}
        </noscript>
      ) : null}
      {Object.entries(plainFormHidden(steps, category, subcategory, carType, successForm, hidden)).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}

      <div className="mt-6 flex flex-wrap items-center gap-3">
        {multiStep && stepState.history.length > 0 ? (
          <Button variant="outline" onClick={onBack} disabled={busy}>
            {FORM_LABELS.goBack}
          </Button>
        ) : null}
        <Button type="submit" variant="primary" disabled={busy} className="min-w-36">
          {busy ? (
            <>
              <Spinner />
              {FORM_LABELS.loading}
            </>
          ) : isLast ? (
            say(submitLabel)
          ) : (
            FORM_LABELS.continue
          )}
        </Button>
        {multiStep && step.optional && !isLast ? (
          <Button variant="ghost" onClick={onSkip} disabled={busy}>
            Skip this step
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** A refused post's values as the form's state: a ticked box came back as 'on'. */
function refusedValues(values: Record<string, string>, steps: StepDef[]): Values {
  const checkboxes = new Set(steps.flatMap((step) => step.fields).filter((field) => field.kind === 'checkbox').map((field) => field.name));
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, checkboxes.has(name) ? value === 'on' || value === 'true' : value]));
}

/** What the script-driven form adds to its fields, as hidden inputs of the plain post (leads.plain-form.ts). */
function plainFormHidden(
  steps: StepDef[],
  category: string,
  subcategory: string | null,
  carType: string | null,
  successForm: SuccessForm | undefined,
  hidden: Record<string, string | number | boolean | null>,
): Record<string, string> {
  const fields = steps.flatMap((step) => step.fields);
  const shown = new Set(fields.map((field) => field.name));
  const out: Record<string, string> = { [PLAIN_FORM.kinds]: plainFormKinds(fields), [PLAIN_FORM.form]: category };
  if (carType) out[PLAIN_FORM.carType] = carType;
  if (successForm) out[PLAIN_FORM.successForm] = successForm;
  if (!shown.has('category')) out.category = category;
  if (subcategory) out.subcategory = subcategory;
  for (const [name, value] of Object.entries(hidden)) if (value !== null && !shown.has(name)) out[name] = String(value);
  return out;
}
