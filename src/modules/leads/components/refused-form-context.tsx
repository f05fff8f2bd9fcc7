'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { RefusedForm } from '../leads.refused-form';

const RefusedFormContext = createContext<RefusedForm | null>(null);

/**
 * The lead form the server refused on this page, posted without JavaScript (decision 060): the
 * site layout reads its cookie and the form it names shows what was typed with each message.
 */
export function RefusedFormProvider({ refused, children }: { refused: RefusedForm | null; children: ReactNode }) {
  return <RefusedFormContext value={refused}>{children}</RefusedFormContext>;
}

/** The refused post of the form `formKey`, if this page has one. */
export function useRefusedForm(formKey: string): RefusedForm | null {
  const refused = useContext(RefusedFormContext);
  return refused && refused.form === formKey ? refused : null;
}
