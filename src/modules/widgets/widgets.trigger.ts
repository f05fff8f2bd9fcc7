/**
 * The moment third-party widgets may start (SPEC §4, §9): the visitor's first interaction or 3 s.
 * A module of its own because the widget host ships it on every page; Turbopack keeps whole
 * modules, so the loader's other helpers (widgets.timing.ts) stay out of the page.
 */

export const INTERACTION_DELAY_MS = 3000;

const INTERACTIONS = ['scroll', 'click', 'touchstart', 'keydown', 'pointerdown', 'wheel'] as const;

/**
 * The widget groups that start at the first interaction or 3 s (SPEC §4's analytics loaders); chat,
 * the chatbot and the tools wait for a real interaction or for the visitor opening them (decision 043).
 */
export const TIMED_GROUPS: readonly string[] = ['analytics', 'marketing'];

/**
 * Calls run once, at the visitor's first scroll, click, touch or key, or after delayMs, whichever
 * comes first (delayMs null: only an interaction). Returns a cancel function.
 */
export function afterFirstInteraction(run: () => void, delayMs: number | null = INTERACTION_DELAY_MS, target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  let done = false;
  const options = { capture: true, passive: true } as const;
  const cancel = () => {
    done = true;
    clearTimeout(timer);
    for (const type of INTERACTIONS) target.removeEventListener(type, fire, options);
  };
  function fire() {
    if (done) return;
    cancel();
    run();
  }
  const timer = delayMs == null ? undefined : setTimeout(fire, delayMs);
  for (const type of INTERACTIONS) target.addEventListener(type, fire, options);
  return cancel;
}

