'use client';

import { useLayoutEffect, type RefObject } from 'react';

export type EarlyInput = Record<string, string | boolean>;

/**
 * What a visitor typed, chose or ticked in a server-rendered form before React took it over
 * (decision 060). React leaves the page's fields as they are while it hydrates, but the first render
 * after that writes each controlled field's state back into the DOM, which wiped what a quick visitor
 * had typed. So the fields' values become state first: once, in a layout effect, which runs before
 * that render. `rendered(name)` is the value the server rendered for a field; `adopt` gets those the
 * visitor changed.
 */
export function useInputBeforeHydration(
  formRef: RefObject<HTMLFormElement | null>,
  rendered: (name: string) => unknown,
  adopt: (changed: EarlyInput) => void,
): void {
  useLayoutEffect(() => {
    const form = formRef.current;
    if (form) {
      const changed = changedFields(form, rendered);
      if (Object.keys(changed).length > 0) adopt(changed);
    }
    // Once, on the first commit: only what happened before React took over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

const NOT_TYPED = new Set(['hidden', 'file', 'submit', 'button', 'reset', 'image']);

/** The form's fields whose value differs from what was rendered for them. */
export function changedFields(form: HTMLFormElement, rendered: (name: string) => unknown): EarlyInput {
  const changed: EarlyInput = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement)) continue;
    if (!element.name || (element instanceof HTMLInputElement && NOT_TYPED.has(element.type))) continue;
    const before = rendered(element.name);
    if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      if (element.checked !== (before === true)) changed[element.name] = element.checked;
    } else if (element instanceof HTMLInputElement && element.type === 'radio') {
      if (element.checked && element.value !== before) changed[element.name] = element.value;
    } else if (element.value !== (before == null || typeof before === 'boolean' ? '' : String(before))) {
      changed[element.name] = element.value;
    }
  }
  return changed;
}
