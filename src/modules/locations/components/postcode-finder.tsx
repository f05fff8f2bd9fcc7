'use client';

import { useId, useRef, useState, useTransition, type FormEvent } from 'react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { SearchIcon } from '@/components/ui/icons';
import { checkPostcode, POSTCODE_RULES, type PostcodeCountry } from '../locations.validation';

type Props = {
  /** The page the form submits to (GET ?postcode=). */
  action: string;
  country: PostcodeCountry;
  postcode: string;
  /** The server's answer to the submitted postcode: validation message or 'Invalid postcode'. */
  error: string | null;
  label: string;
};

/**
 * The postcode finder: a GET form that works without JavaScript (the server sorts the locations).
 * With JavaScript the postcode is checked before anything is sent and the list is re-sorted by a
 * client navigation, keeping the scroll position.
 */
export function PostcodeFinder({ action, country, postcode, error, label }: Props) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [clientError, setClientError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const message = clientError ?? error;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = input.current?.value ?? '';
    const checked = checkPostcode(country, value);
    if (!checked.success) {
      setClientError(checked.message);
      input.current?.focus();
      return;
    }
    setClientError(null);
    startTransition(() => router.push(`${action}?postcode=${encodeURIComponent(checked.postcode)}`, { scroll: false }));
  }

  return (
    <form method="get" action={action} onSubmit={onSubmit} noValidate className="max-w-xl" role="search" aria-label="Find your nearest location">
      <label htmlFor={`${id}-postcode`} className="block font-semibold text-gray-900">
        {label}
      </label>
      <div className="mt-2 flex gap-2">
        <input
          ref={input}
          id={`${id}-postcode`}
          name="postcode"
          defaultValue={postcode}
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={POSTCODE_RULES[country].maxLength}
          pattern={POSTCODE_RULES[country].pattern}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-error` : undefined}
          className="min-h-11 w-36 rounded-site border border-gray-400 px-3 text-lg tracking-widest text-gray-900 aria-invalid:border-red-700"
        />
        <Button type="submit" disabled={pending} aria-disabled={pending || undefined}>
          <SearchIcon size={18} />
          {pending ? 'Finding…' : 'Find nearest'}
        </Button>
      </div>
      <p id={`${id}-error`} role="alert" className="mt-2 min-h-6 text-sm font-semibold text-red-700">
        {message}
      </p>
    </form>
  );
}
