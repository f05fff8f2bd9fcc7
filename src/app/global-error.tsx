'use client';

import { useEffect } from 'react';
import './globals.css';

/**
 * An error in the site layout itself (its data, its header): the platform's own page instead of
 * Next's default, in the platform's styles, with no detail of the error (it may hold internals).
 * It replaces the whole document, so it brings its own <html> and <body>.
 */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <html lang="en">
      <body className="bg-white text-gray-900">
        <main className="mx-auto max-w-2xl px-4 py-16 text-center md:py-24">
          <div role="alert">
            <h1 className="text-3xl font-extrabold tracking-tight md:text-4xl">Something went wrong</h1>
            <p className="mt-4 text-lg text-gray-700">This page could not be loaded just now. Please try again in a minute.</p>
            <div className="mt-8 flex flex-wrap justify-center gap-3">
              <button type="button" onClick={() => reset()} className="min-h-11 rounded-md bg-gray-900 px-5 font-semibold text-white">
                Try again
              </button>
              {/* A full reload, not client navigation: the layout that failed must render afresh. */}
              <a href="/" className="inline-flex min-h-11 items-center rounded-md border-2 border-gray-900 px-5 font-semibold">
                Back to home
              </a>
            </div>
            {error.digest ? <p className="mt-6 text-sm text-gray-600">Reference: {error.digest}</p> : null}
          </div>
        </main>
      </body>
    </html>
  );
}
