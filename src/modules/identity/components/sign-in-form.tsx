'use client';

import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { CODE_MESSAGES } from '../identity.messages';
import { ResendCodeButton } from './resend-code-button';
import { mergeLocalSaved } from './garage-store';

/**
 * The sign-in screen (SPEC §2, §4): the phone number, then the code sent to it. Status
 * verificationSent once the code is sent ('Code sent!', 'Resend Code' after 30 s),
 * verificationSubmitted once checked; then the cars saved in this browser join the account.
 */

type Status = 'idle' | 'verificationSent' | 'verificationSubmitted';

async function post(url: string, body: unknown): Promise<{ ok: boolean; body: { error?: string; fields?: Record<string, string>; resend_after?: number } }> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
    return { ok: response.ok, body: await response.json().catch(() => ({})) };
  } catch {
    return { ok: false, body: { error: 'An unknown error occurred.' } };
  }
}

export function SignInForm({ next }: { next: string }) {
  const [status, setStatus] = useState<Status>('idle');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: 'phone' | 'code' | null; message: string } | null>(null);
  /** The server's resend wait and how many codes were sent (a new count restarts the countdown). */
  const [resend, setResend] = useState({ after: 0, sends: 0 });

  async function sendCode() {
    setBusy(true);
    setError(null);
    const answer = await post('/api/phone-codes', { phone });
    setBusy(false);
    if (!answer.ok) return setError({ field: 'phone', message: answer.body.fields?.phone ?? answer.body.error ?? 'An unknown error occurred.' });
    setStatus('verificationSent');
    setResend((current) => ({ after: answer.body.resend_after ?? 30, sends: current.sends + 1 }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (status === 'idle') return void sendCode();
    const trimmed = code.trim();
    if (!trimmed) return setError({ field: 'code', message: CODE_MESSAGES.required });
    if (!/^\d{6}$/.test(trimmed)) return setError({ field: 'code', message: CODE_MESSAGES.digits });
    setBusy(true);
    setError(null);
    const answer = await post('/api/auth/sign-in', { phone, code: trimmed });
    if (!answer.ok) {
      setBusy(false);
      return setError({ field: 'code', message: answer.body.fields?.code ?? answer.body.error ?? 'An unknown error occurred.' });
    }
    setStatus('verificationSubmitted');
    await mergeLocalSaved();
    window.location.assign(next);
  }

  const errorId = 'sign-in-error';
  return (
    <form noValidate onSubmit={onSubmit} className="max-w-md space-y-5" data-status={status}>
      <div>
        <label htmlFor="sign-in-phone" className="mb-1.5 block font-medium text-gray-900">
          Mobile number
        </label>
        <input
          id="sign-in-phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          readOnly={status !== 'idle'}
          aria-invalid={error?.field === 'phone' || undefined}
          aria-describedby={error?.field === 'phone' ? errorId : undefined}
          className="min-h-11 w-full rounded-site border border-gray-400 px-3 text-base read-only:bg-gray-50"
        />
      </div>
      {status === 'idle' ? null : (
        <div>
          <p className="mb-3 font-medium text-green-800" role="status">
            Code sent!
          </p>
          <label htmlFor="sign-in-code" className="mb-1.5 block font-medium text-gray-900">
            Verification code
          </label>
          <input
            id="sign-in-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={error?.field === 'code' || undefined}
            aria-describedby={error?.field === 'code' ? errorId : undefined}
            className="min-h-11 w-full rounded-site border border-gray-400 px-3 text-base tracking-widest"
          />
        </div>
      )}
      {error ? (
        <p id={errorId} role="alert" className="font-medium text-red-800">
          {error.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="primary" disabled={busy || status === 'verificationSubmitted'}>
          {busy ? 'Loading' : status === 'idle' ? 'Send Code' : 'Sign in'}
        </Button>
        {status === 'verificationSent' ? (
          <ResendCodeButton key={resend.sends} seconds={resend.after} onResend={() => void sendCode()} busy={busy} />
        ) : null}
      </div>
    </form>
  );
}
