'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';

/**
 * 'Resend Code' after a phone code was sent (SPEC §4), counting down the server's resend wait
 * ('Resend Code (29 s)') and usable only once it is over: the sign-in page and the finance popup
 * both use this one button. Give it a new `key` with each send so the countdown starts again.
 */

export const RESEND_LABEL = 'Resend Code';

export function resendLabel(secondsLeft: number): string {
  return secondsLeft > 0 ? `${RESEND_LABEL} (${secondsLeft} s)` : RESEND_LABEL;
}

export function ResendCodeButton({ seconds, onResend, busy = false }: { seconds: number; onResend: () => void; busy?: boolean }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return (
    <Button variant="outline" onClick={onResend} disabled={busy || left > 0} data-resend-in={left}>
      {resendLabel(left)}
    </Button>
  );
}
