'use client';

import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useInputBeforeHydration } from '@/components/ui/use-input-before-hydration';
import { useHydrated } from '@/components/ui/use-hydrated';
import { CODE_MESSAGES } from '../identity.messages';
import type { PostedSignIn } from '../identity.sign-in';
import { RESEND_LABEL, ResendCodeButton } from './resend-code-button';
import { mergeLocalSaved } from './garage-store';

/**
 * The sign-in screen (SPEC §2, §4): the phone number, then the code sent to it. Status
 * verificationSent once the code is sent ('Code sent!', 'Resend Code' after 30 s),
 * verificationSubmitted once checked; then the cars saved in this browser join the account.
 * It is a plain form too (decision 060): posted before the page's scripts ran, or without them,
 * POST /api/auth/sign-in/form does the same steps and brings the visitor back here with `posted`.
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

function postedError(posted: PostedSignIn | null): { field: 'phone' | 'code'; message: string } | null {
  if (posted?.errors.code) return { field: 'code', message: posted.errors.code };
  if (posted?.errors.phone) return { field: 'phone', message: posted.errors.phone };
  return null;
}

export function SignInForm({ next, posted }: { next: string; posted: PostedSignIn | null }) {
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  const [status, setStatus] = useState<Status>(posted?.sent ? 'verificationSent' : 'idle');
  const [phone, setPhone] = useState(posted?.phone ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: 'phone' | 'code' | null; message: string } | null>(() => postedError(posted));
  /** The server's resend wait and how many codes were sent (a new count restarts the countdown). */
  const [resend, setResend] = useState({ after: posted?.resendAfter ?? 0, sends: 0 });
  // What was typed before React took the form over stays (decision 060).
  useInputBeforeHydration(
    formRef,
    (name) => (name === 'phone' ? (posted?.phone ?? '') : ''),
    (typed) => {
      if (typeof typed.phone === 'string') setPhone(typed.phone);
      if (typeof typed.code === 'string') setCode(typed.code);
    },
  );

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
    <form ref={formRef} method="post" action="/api/auth/sign-in/form" noValidate onSubmit={onSubmit} className="max-w-md space-y-5" data-status={status}>
      <input type="hidden" name="next" value={next} />
      <div>
        <label htmlFor="sign-in-phone" className="mb-1.5 block font-medium text-gray-900">
          Mobile number
        </label>
        <input
          id="sign-in-phone"
          name="phone"
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
            name="code"
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
        <Button type="submit" name="step" value={status === 'idle' ? 'send' : 'verify'} variant="primary" disabled={busy || status === 'verificationSubmitted'}>
          {busy ? 'Loading' : status === 'idle' ? 'Send Code' : 'Sign in'}
        </Button>
        {status === 'verificationSent' ? (
          hydrated ? (
            <ResendCodeButton key={resend.sends} seconds={resend.after} onResend={() => void sendCode()} busy={busy} />
          ) : (
            // Until the scripts run the countdown cannot count: a plain resend (the server keeps its own wait).
            <Button type="submit" name="step" value="resend" variant="outline" formNoValidate>
              {RESEND_LABEL}
            </Button>
          )
        ) : null}
      </div>
    </form>
  );
}
