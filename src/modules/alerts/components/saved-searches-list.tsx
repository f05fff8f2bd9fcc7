'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { numberFormat } from '@/lib/intl';
import { useSignedIn } from '@/modules/identity';

/** The garage's saved searches (issue 35): what each finds now and since the last look; rename, pause, delete. */

type Listed = { id: string; name: string; href: string; paused: boolean; matching: number | null; new_since_last_visit: number | null };

const FAILED = 'That did not work just now. Please try again.';

async function send(method: 'PATCH' | 'DELETE', id: string, body?: object): Promise<string | null> {
  try {
    const response = await fetch(`/api/saved-searches/${encodeURIComponent(id)}`, {
      method,
      ...(body && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (response.ok) return null;
    const answer = (await response.json().catch(() => null)) as { error?: string; fields?: Record<string, string> } | null;
    return answer?.fields ? `Name ${Object.values(answer.fields)[0]}.` : (answer?.error ?? FAILED);
  } catch {
    return FAILED;
  }
}

function counts(search: Listed, nouns: { one: string; many: string }, locale: string): string {
  if (search.matching == null) return 'This search page is no longer on the website.';
  const number = (n: number) => numberFormat(locale).format(n);
  const found = `${number(search.matching)} ${search.matching === 1 ? nouns.one : nouns.many} now`;
  return search.new_since_last_visit ? `${found} · ${number(search.new_since_last_visit)} new since your last visit` : found;
}

/** `nouns`: the website's word for its vehicles ('car'/'cars', 'motorcycle'/'motorcycles'). */
export function SavedSearchesList({ nouns, locale }: { nouns: { one: string; many: string }; locale: string }) {
  const [searches, setSearches] = useState<Listed[] | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const signedIn = useSignedIn();

  // A signed-out visitor has none: asking would only answer 401.
  useEffect(() => {
    if (!signedIn) return;
    fetch('/api/saved-searches')
      .then(async (response) => (response.ok ? ((await response.json()) as { saved_searches: Listed[] }).saved_searches : []))
      .catch(() => [])
      .then(setSearches);
  }, [signedIn]);

  if (!searches || searches.length === 0) return null;

  async function change(search: Listed, body: { name?: string; paused?: boolean }) {
    const failed = await send('PATCH', search.id, body);
    setMessage(failed);
    if (!failed) {
      setSearches((list) => list?.map((s) => (s.id === search.id ? { ...s, ...body } : s)) ?? null);
      setEditing(null);
    }
  }

  async function remove(search: Listed) {
    const failed = await send('DELETE', search.id);
    setMessage(failed);
    if (!failed) setSearches((list) => list?.filter((s) => s.id !== search.id) ?? null);
  }

  return (
    <section id="saved-searches" aria-labelledby="saved-searches-heading" className="mt-10 space-y-4">
      <h2 id="saved-searches-heading" className="text-xl font-bold text-gray-900">
        Saved searches
      </h2>
      <p role="status" className={message ? 'text-sm text-red-800' : 'sr-only'}>
        {message}
      </p>
      <ul className="space-y-3">
        {searches.map((search) => (
          <li key={search.id} className="flex flex-col gap-2 rounded-site border border-gray-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
            {editing === search.id ? (
              <form
                className="flex flex-1 flex-wrap items-center gap-2"
                onSubmit={(event) => {
                  event.preventDefault();
                  void change(search, { name: String(new FormData(event.currentTarget).get('name') ?? '') });
                }}
              >
                <label className="sr-only" htmlFor={`name-${search.id}`}>
                  Name of the saved search
                </label>
                <input id={`name-${search.id}`} name="name" defaultValue={search.name} maxLength={100} className="min-w-0 flex-1 rounded-site border border-gray-300 px-3 py-2" autoFocus />
                <Button type="submit" size="sm">
                  Save name
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              </form>
            ) : (
              <div className="min-w-0">
                <a href={search.href} className="text-lg font-semibold text-gray-900 hover:underline">
                  {search.name}
                </a>
                <p className={search.new_since_last_visit ? 'text-sm font-medium text-emerald-800' : 'text-sm text-gray-700'}>
                  {counts(search, nouns, locale)}
                  {search.paused ? ' · Paused' : ''}
                </p>
              </div>
            )}
            {editing === search.id ? null : (
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setEditing(search.id)} aria-label={`Rename ${search.name}`}>
                  Rename
                </Button>
                <Button variant="outline" size="sm" onClick={() => void change(search, { paused: !search.paused })} aria-label={`${search.paused ? 'Resume' : 'Pause'} ${search.name}`}>
                  {search.paused ? 'Resume' : 'Pause'}
                </Button>
                <Button variant="ghost" size="sm" onClick={() => void remove(search)} aria-label={`Delete ${search.name}`}>
                  Delete
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
