'use client';

import { useEffect, useRef, useState } from 'react';
import { FormAlert } from '@/modules/leads';
import type { PaymentStep } from '../payment-step';

/**
 * A hosted payment page's step (decision 041): the browser is sent to the provider's page (Till:
 * a redirect; St George IPG Connect: a signed form posted to it) and comes back to /checkout,
 * which waits for the provider's notification. Sent at once; the button is there if the browser
 * did not go (scripts blocked, a pop-up blocker, the visitor pressed Back).
 */

export const HOSTED_MESSAGES = {
  leaving: (amount: string) => `You are being taken to the secure payment page to pay your ${amount} deposit. You will come back here when you have paid.`,
  blocked: 'Your browser did not open the secure payment page. Please try the button again, or call us and we will hold the car for you.',
} as const;

type Props = {
  step: Extract<PaymentStep, { kind: 'redirect' | 'form-post' }>;
  amountDisplay: string;
  submitClasses: string;
};

export function HostedPayment({ step, amountDisplay, submitClasses }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const [blocked, setBlocked] = useState(false);

  useEffect(() => {
    // A Content-Security-Policy that refuses the provider's address says so here, instead of nothing happening.
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.effectiveDirective === 'form-action') setBlocked(true);
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    if (step.kind === 'redirect') window.location.assign(step.url);
    else formRef.current?.submit();
    return () => document.removeEventListener('securitypolicyviolation', onViolation);
  }, [step]);

  return (
    <div className="space-y-5" data-payment={step.kind}>
      {blocked ? <FormAlert tone="destructive">{HOSTED_MESSAGES.blocked}</FormAlert> : <p className="text-gray-800">{HOSTED_MESSAGES.leaving(amountDisplay)}</p>}
      {step.kind === 'redirect' ? (
        <a href={step.url} className={submitClasses}>
          Continue to the payment page
        </a>
      ) : (
        <form ref={formRef} method="post" action={step.url}>
          {Object.entries(step.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className={submitClasses}>
            Continue to the payment page
          </button>
        </form>
      )}
    </div>
  );
}
