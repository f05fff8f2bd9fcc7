'use client';

import { useEffect, useRef } from 'react';

/**
 * The heading of a multi-step checkout: it takes the focus each time the step changes (not on the
 * first render), so screen readers hear where they are.
 */
export function useStepHeading(step: unknown) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);
  return headingRef;
}
