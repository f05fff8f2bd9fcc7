'use client';

import { useEffect, useRef, useTransition } from 'react';
import { useRouter, useSearchParams } from 'next/navigation';

/**
 * With React, the filter form's changes become client navigations. The page's inline
 * apply-on-change script (src/lib/apply-on-change.ts) turns each change into the form's URL, before
 * and after hydration; this hands it the router. The server renders the form and the sort box with a
 * key per URL state, so after any navigation (back and forward included) they are new elements
 * showing that state; this puts the focus back on the control the visitor used, and closes the
 * phone drawer once the visitor asks for the results.
 */
/** Finds the control the visitor changed again once the form is re-rendered: its name, and for a checkbox its value. */
function controlSelector(control: HTMLInputElement | HTMLSelectElement): string {
  const name = `[name="${CSS.escape(control.name)}"]`;
  return control instanceof HTMLInputElement && control.type === 'checkbox' ? `${name}[value="${CSS.escape(control.value)}"]` : name;
}

export function SearchFormEnhancer({ formId, drawerId }: { formId: string; drawerId: string }) {
  const router = useRouter();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const lastControl = useRef<string | null>(null);

  useEffect(() => {
    const drawer = () => {
      const element = document.getElementById(drawerId);
      return element instanceof HTMLInputElement ? element : null;
    };
    window.__applyForm = (url, form) => {
      if (form.id !== formId) return void location.assign(url);
      // After the next paint: the tick shows at once, and the router's work is not part of the
      // interaction (it was most of a tick's 200 ms on a mid-range phone, issue 32).
      requestAnimationFrame(() => setTimeout(() => startTransition(() => router.push(url, { scroll: false })), 0));
    };
    const onChange = (event: Event) => {
      const target = event.target as HTMLInputElement | HTMLSelectElement;
      if (target.form?.id === formId && target.id !== drawerId) lastControl.current = controlSelector(target);
    };
    const onSubmit = (event: SubmitEvent) => {
      if ((event.target as HTMLFormElement).id !== formId) return;
      lastControl.current = null;
      const open = drawer();
      if (open) open.checked = false;
    };
    const onKey = (event: KeyboardEvent) => {
      const open = drawer();
      if (event.key === 'Escape' && open?.checked) open.checked = false;
    };
    document.addEventListener('change', onChange);
    document.addEventListener('submit', onSubmit);
    document.addEventListener('keydown', onKey);
    return () => {
      delete window.__applyForm;
      document.removeEventListener('change', onChange);
      document.removeEventListener('submit', onSubmit);
      document.removeEventListener('keydown', onKey);
    };
  }, [formId, drawerId, router]);

  useEffect(() => {
    if (lastControl.current) document.querySelector<HTMLElement>(lastControl.current)?.focus({ preventScroll: true });
    lastControl.current = null;
  }, [searchParams]);

  useEffect(() => {
    document.getElementById(formId)?.setAttribute('aria-busy', pending ? 'true' : 'false');
  }, [formId, pending, searchParams]);

  return null;
}
