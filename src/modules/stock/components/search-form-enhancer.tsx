'use client';

import { useEffect, useRef, useTransition } from 'react';
import { useRouter, useSearchParams } from 'next/navigation';

/**
 * With JavaScript, the filter form applies each change at once (a client navigation to the same
 * GET URL the form would submit). The form works without this. The server renders the form and
 * the sort box with a key per URL state, so after any navigation (back and forward included) they
 * are new elements showing that state; this puts the focus back on the control the visitor used.
 */
/** Finds the control the visitor changed again once the form is re-rendered: its name, and for a checkbox its value. */
function controlSelector(control: HTMLInputElement | HTMLSelectElement): string {
  const name = `[name="${CSS.escape(control.name)}"]`;
  return control instanceof HTMLInputElement && control.type === 'checkbox' ? `${name}[value="${CSS.escape(control.value)}"]` : name;
}

export function SearchFormEnhancer({ formId, drawerId, defaultSort }: { formId: string; drawerId: string; defaultSort: string }) {
  const router = useRouter();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const lastControl = useRef<string | null>(null);

  useEffect(() => {
    const currentForm = () => {
      const form = document.getElementById(formId);
      return form instanceof HTMLFormElement ? form : null;
    };
    const apply = (form: HTMLFormElement) => {
      const params = new URLSearchParams();
      for (const [key, value] of new FormData(form)) {
        if (typeof value !== 'string' || value.trim() === '') continue;
        if (key === 'sort' && value === defaultSort) continue;
        params.append(key, value.trim());
      }
      const query = params.toString();
      const url = `${form.getAttribute('action') ?? location.pathname}${query ? `?${query}` : ''}`;
      startTransition(() => router.push(url, { scroll: false }));
    };
    const onChange = (event: Event) => {
      const target = event.target as HTMLInputElement | HTMLSelectElement;
      const form = currentForm();
      if (!form || target.form !== form || target.id === drawerId) return;
      // Text is applied on submit (Enter); choices and numbers as soon as they change.
      if (target instanceof HTMLInputElement && target.type === 'search') return;
      lastControl.current = controlSelector(target);
      apply(form);
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = currentForm();
      if (!form || event.target !== form) return;
      event.preventDefault();
      lastControl.current = null;
      apply(form);
      const drawer = document.getElementById(drawerId);
      if (drawer instanceof HTMLInputElement) drawer.checked = false;
    };
    const onKey = (event: KeyboardEvent) => {
      const drawer = document.getElementById(drawerId);
      if (event.key === 'Escape' && drawer instanceof HTMLInputElement && drawer.checked) drawer.checked = false;
    };
    document.addEventListener('change', onChange);
    document.addEventListener('submit', onSubmit);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('change', onChange);
      document.removeEventListener('submit', onSubmit);
      document.removeEventListener('keydown', onKey);
    };
  }, [formId, drawerId, defaultSort, router]);

  useEffect(() => {
    if (lastControl.current) document.querySelector<HTMLElement>(lastControl.current)?.focus({ preventScroll: true });
    lastControl.current = null;
  }, [searchParams]);

  useEffect(() => {
    document.getElementById(formId)?.setAttribute('aria-busy', pending ? 'true' : 'false');
  }, [formId, pending, searchParams]);

  return null;
}
