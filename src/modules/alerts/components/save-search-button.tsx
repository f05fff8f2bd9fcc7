'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { buttonClasses } from '@/components/ui/button';

export const SAVE_SEARCH_MESSAGES = {
  button: 'Save this search',
  failed: 'We could not save this search just now. Please try again.',
} as const;

/**
 * 'Save this search' on a search page (issue 35): a form that posts the page's search, so a tap
 * before the page's scripts run still saves it (the server answers with the garage, or sign-in
 * first). Once hydrated it saves in place and says so; signed out, it goes to sign-in and back.
 * The same for every visitor (search pages come from the page cache).
 */
export function SaveSearchButton({ href, garagePath }: { href: string; garagePath: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ saved: boolean; text: string } | null>(null);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const response = await fetch('/api/saved-searches', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ href }) });
      if (response.status === 401) {
        router.push(`/sign-in?next=${encodeURIComponent(href)}`);
        return;
      }
      const body = (await response.json().catch(() => null)) as { saved_search?: { name: string }; error?: string; fields?: Record<string, string> } | null;
      if (response.ok && body?.saved_search) setResult({ saved: true, text: `Saved “${body.saved_search.name}”.` });
      else setResult({ saved: false, text: body?.fields?.href ?? body?.error ?? SAVE_SEARCH_MESSAGES.failed });
    } catch {
      setResult({ saved: false, text: SAVE_SEARCH_MESSAGES.failed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action="/api/saved-searches/form" onSubmit={(event) => void save(event)} className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <input type="hidden" name="href" value={href} />
      <button type="submit" className={buttonClasses('outline', 'sm')} aria-disabled={busy}>
        {SAVE_SEARCH_MESSAGES.button}
      </button>
      <p role="status" className={result ? (result.saved ? 'text-sm text-emerald-800' : 'text-sm text-red-800') : 'sr-only'}>
        {result?.text}
        {result?.saved ? (
          <>
            {' '}
            <a href={garagePath} className="font-semibold underline underline-offset-2">
              See it in your garage
            </a>
          </>
        ) : null}
      </p>
    </form>
  );
}
