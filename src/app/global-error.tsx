'use client';

import { useEffect, type CSSProperties } from 'react';

/**
 * An error in the site layout itself (its data, its header): the platform's own page instead of
 * Next's default, with no detail of the error (it may hold internals). It replaces the whole
 * document, so it brings its own <html> and <body>, and its own few styles: importing the site
 * stylesheet here made Next inline all of it a second time into every page's RSC payload
 * (+52 KB of HTML, +10 KB compressed, on every page).
 */
const styles = {
  body: { margin: 0, fontFamily: 'system-ui, sans-serif', background: '#fff', color: '#111827' },
  main: { maxWidth: '42rem', margin: '0 auto', padding: '4rem 1rem', textAlign: 'center' },
  heading: { fontSize: '1.875rem', fontWeight: 800, margin: 0 },
  text: { marginTop: '1rem', fontSize: '1.125rem', color: '#374151' },
  actions: { marginTop: '2rem', display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '0.75rem' },
  button: { minHeight: '2.75rem', borderRadius: '0.375rem', padding: '0 1.25rem', fontWeight: 600, fontSize: '1rem', cursor: 'pointer' },
  reference: { marginTop: '1.5rem', fontSize: '0.875rem', color: '#4b5563' },
} satisfies Record<string, CSSProperties>;

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <html lang="en">
      <body style={styles.body}>
        <main style={styles.main}>
          <div role="alert">
            <h1 style={styles.heading}>Something went wrong</h1>
            <p style={styles.text}>This page could not be loaded just now. Please try again in a minute.</p>
            <div style={styles.actions}>
              <button type="button" onClick={() => reset()} style={{ ...styles.button, border: 0, background: '#111827', color: '#fff' }}>
                Try again
              </button>
              {/* A full reload, not client navigation: the layout that failed must render afresh. */}
              {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- the full reload is the point */}
              <a href="/" style={{ ...styles.button, display: 'inline-flex', alignItems: 'center', border: '2px solid #111827', color: '#111827', textDecoration: 'none' }}>
                Back to home
              </a>
            </div>
            {error.digest ? <p style={styles.reference}>Reference: {error.digest}</p> : null}
          </div>
        </main>
      </body>
    </html>
  );
}
