'use client';

import { useEffect } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { Container } from '@/components/ui/container';

/**
 * A page failed to render: the dealer's header and footer stay (they come from the layout), the
 * visitor can try again or go home. The error's message is never shown (it may hold internals).
 */
export default function SiteError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error instanceof Error && 'digest' in error ? String((error as { digest?: string }).digest ?? '') : '';

  return (
    <Container className="py-16 md:py-24">
      <div role="alert" className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">Something went wrong</h1>
        <p className="mt-4 text-lg text-gray-700">
          This page could not be loaded just now. Please try again, or call us if it keeps happening.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button variant="primary" onClick={() => retry()}>
            Try again
          </Button>
          <LinkButton href="/" variant="outline">
            Back to home
          </LinkButton>
        </div>
        {digest ? <p className="mt-6 text-sm text-gray-600">Reference: {digest}</p> : null}
      </div>
    </Container>
  );
}
