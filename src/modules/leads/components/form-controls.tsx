import { memo, type ChangeEvent } from 'react';
import { cn } from '@/components/ui/cn';
import type { FieldDef } from '../form-rules/fields';
import type { FieldValue } from '../form-rules/field-checks';

/** The pieces of a lead form: a labelled field with its error, the alert, the progress bar, the honeypot. */

const inputClasses =
  'block w-full rounded-site border bg-white px-3 py-2.5 text-base text-gray-900 shadow-sm ' +
  'placeholder:text-gray-500 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40';

const INPUT_TYPES: Partial<Record<FieldDef['kind'], { type: string; autoComplete?: string; inputMode?: 'numeric' | 'tel' | 'email' }>> = {
  first_name: { type: 'text', autoComplete: 'given-name' },
  last_name: { type: 'text', autoComplete: 'family-name' },
  email: { type: 'email', autoComplete: 'email', inputMode: 'email' },
  phone: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  postcode: { type: 'text', autoComplete: 'postal-code', inputMode: 'numeric' },
  date: { type: 'date' },
  year: { type: 'text', inputMode: 'numeric' },
  km: { type: 'text', inputMode: 'numeric' },
  rego: { type: 'text', autoComplete: 'off' },
  vin: { type: 'text', autoComplete: 'off' },
  text: { type: 'text' },
};

type FieldControlProps = {
  formId: string;
  field: FieldDef;
  value: FieldValue | undefined;
  error: string | undefined;
  /** Without it the field is uncontrolled (value is its default): a plain form a server page renders. */
  onChange?: (name: string, value: FieldValue) => void;
  /** A file field's chosen files. */
  onFiles?: (name: string, files: File[]) => void;
};

export function fieldId(formId: string, name: string): string {
  return `${formId}-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
}

/** Memoised: in a form, a keystroke re-renders only the field whose value changed. */
export const FieldControl = memo(function FieldControl({ formId, field, value, error, onChange, onFiles }: FieldControlProps) {
  const id = fieldId(formId, field.name);
  const errorId = `${id}-error`;
  const hintId = field.hint ? `${id}-hint` : null;
  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const shared = {
    id,
    name: field.name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required ? true : undefined,
    // Checked by the browser only in a form without noValidate (the plain form without JavaScript).
    required: field.required,
  } as const;
  const text = typeof value === 'string' ? value : '';
  const textValue = onChange
    ? { value: text, onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => onChange(field.name, event.target.value) }
    : { defaultValue: text };
  const border = error ? 'border-red-600' : 'border-gray-300';

  if (field.kind === 'checkbox') {
    return (
      <div className={cn(field.wide && 'sm:col-span-2')}>
        <div className="flex items-start gap-3">
          <input
            {...shared}
            type="checkbox"
            {...(onChange ? { checked: value === true, onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(field.name, event.target.checked) } : { defaultChecked: value === true })}
            className="mt-1 size-5 shrink-0 rounded border-gray-400 accent-brand"
          />
          <label htmlFor={id} className="text-gray-800">
            {field.label}
          </label>
        </div>
        <FieldError id={errorId} error={error} />
      </div>
    );
  }

  let control;
  if (field.kind === 'file') {
    control = (
      <input
        {...shared}
        type="file"
        accept={field.accept}
        multiple={field.multiple}
        onChange={(event) => onFiles?.(field.name, Array.from(event.target.files ?? []))}
        className={cn(inputClasses, border, 'file:mr-3 file:rounded-site file:border-0 file:bg-gray-100 file:px-3 file:py-1.5 file:font-medium')}
      />
    );
  } else if (field.kind === 'textarea') {
    control = <textarea {...shared} {...textValue} rows={4} className={cn(inputClasses, border)} />;
  } else if (field.kind === 'select' || field.kind === 'state') {
    control = (
      <select {...shared} {...textValue} className={cn(inputClasses, border, 'pr-8')}>
        <option value="">Please select</option>
        {(field.options ?? []).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  } else {
    const input = INPUT_TYPES[field.kind] ?? { type: 'text' };
    control = (
      <input
        {...shared}
        type={input.type}
        autoComplete={input.autoComplete}
        inputMode={input.inputMode}
        maxLength={field.maxLength ?? (field.kind === 'year' ? 4 : field.kind === 'vin' ? 20 : undefined)}
        pattern={field.pattern}
        min={field.min}
        {...textValue}
        className={cn(inputClasses, border)}
      />
    );
  }

  return (
    <div className={cn(field.wide && 'sm:col-span-2')}>
      <label htmlFor={id} className="mb-1.5 block font-medium text-gray-900">
        {field.label}
        {field.required || field.requiredUnless ? null : <span className="font-normal text-gray-600"> (optional)</span>}
      </label>
      {field.hint ? (
        <p id={hintId!} className="mb-1.5 text-sm text-gray-600">
          {field.hint}
        </p>
      ) : null}
      {control}
      <FieldError id={errorId} error={error} />
    </div>
  );
});

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1.5 text-sm font-medium text-red-700">
      {error}
    </p>
  );
}

export function FormAlert({ tone, children }: { tone: 'success' | 'destructive'; children: string }) {
  return (
    <div
      role="alert"
      className={cn(
        'rounded-site border px-4 py-3 font-medium',
        tone === 'success' ? 'border-green-300 bg-green-50 text-green-900' : 'border-red-300 bg-red-50 text-red-900',
      )}
    >
      {children}
    </div>
  );
}

export function StepProgress({ step, count, percent }: { step: number; count: number; percent: number }) {
  const label = `Step ${step} of ${count}`;
  return (
    <div className="mb-5">
      <p className="mb-1.5 text-sm font-semibold text-gray-700">{label}</p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-gray-200"
      >
        <div className="h-full rounded-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/**
 * The honeypot: people never see or reach it (off-screen, out of the tab order, hidden from
 * assistive technology, no autofill); form-filling bots do.
 */
export function Honeypot({ formId, value, onChange }: { formId: string; value?: string; onChange?: (value: string) => void }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={`${formId}-favourite_color`}>Favourite colour</label>
      <input
        id={`${formId}-favourite_color`}
        name="favourite_color"
        type="text"
        tabIndex={-1}
        autoComplete="off"
        {...(onChange ? { value, onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value) } : { defaultValue: '' })}
      />
    </div>
  );
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent"
    />
  );
}
