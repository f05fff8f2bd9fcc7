'use client';

import { useEffect, useTransition } from 'react';
import { useRouter, useSearchParams } from 'next/navigation';

/**
 * With JavaScript, the filter form applies each change at once (a client navigation to the same
 * GET URL the form would submit), and back/forward put the controls in step with the URL. The
 * form itself works without this.
 */
export function SearchFormEnhancer({ formId, drawerId }: { formId: string; drawerId: string }) {
  const router = useRouter();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;

    const apply = () => {
      const params = new URLSearchParams();
      for (const [key, value] of new FormData(form)) {
        if (typeof value === 'string' && value.trim() !== '') params.append(key, value.trim());
      }
      const query = params.toString();
      const url = `${form.getAttribute('action') ?? location.pathname}${query ? `?${query}` : ''}`;
      startTransition(() => router.push(url, { scroll: false }));
    };
    const onChange = (event: Event) => {
      const target = event.target as HTMLInputElement | HTMLSelectElement;
      if (target.form !== form || target.id === drawerId) return;
      // Text is applied on submit (Enter); choices and numbers as soon as they change.
      if (target instanceof HTMLInputElement && target.type === 'search') return;
      apply();
    };
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault();
      apply();
      const drawer = document.getElementById(drawerId);
      if (drawer instanceof HTMLInputElement) drawer.checked = false;
    };
    const onKey = (event: KeyboardEvent) => {
      const drawer = document.getElementById(drawerId);
      if (event.key === 'Escape' && drawer instanceof HTMLInputElement && drawer.checked) drawer.checked = false;
    };
    document.addEventListener('change', onChange);
    form.addEventListener('submit', onSubmit);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('change', onChange);
      form.removeEventListener('submit', onSubmit);
      document.removeEventListener('keydown', onKey);
    };
  }, [formId, drawerId, router]);

  // After a navigation (including back and forward) the controls show the URL's state again.
  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    for (const element of Array.from(form.elements)) {
      if (element instanceof HTMLInputElement) {
        if (element.type === 'checkbox' && element.id !== drawerId) element.checked = element.defaultChecked;
        else if (element.type === 'number' || element.type === 'search') element.value = element.defaultValue;
      } else if (element instanceof HTMLSelectElement) {
        for (const option of Array.from(element.options)) option.selected = option.defaultSelected;
      }
    }
  }, [formId, drawerId, searchParams]);

  useEffect(() => {
    document.getElementById(formId)?.setAttribute('aria-busy', pending ? 'true' : 'false');
  }, [formId, pending]);

  return null;
}
