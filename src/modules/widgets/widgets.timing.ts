/**
 * The widget loader's clock and script states (SPEC §4, §9; decision 037), client-safe and
 * dependency-free; imported on demand with the runtime and the chat button, never with the page.
 */

export { INTERACTION_DELAY_MS, afterFirstInteraction } from './widgets.trigger';

/** SPEC §9: interaction delay (widgets.trigger.ts), chat popup, open delay, widget poll, analytics poll (ms). */
export const CHAT_POPUP_MS = 3000;
export const OPEN_DELAY_MS = 1300;
export const WIDGET_POLL_MS = 100;
export const ANALYTICS_POLL_MS = 300;
export const FACEBOOK_EVENT_DELAY_MS = 250;

/** Resolves with check()'s first truthy value, asked every intervalMs; rejects after timeoutMs. */
export function pollFor<T>(check: () => T | null | undefined | false, intervalMs: number, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      let value: T | null | undefined | false = null;
      try {
        value = check();
      } catch {
        value = null;
      }
      if (value) return resolve(value);
      if (Date.now() - started >= timeoutMs) return reject(new Error(`timed out after ${timeoutMs} ms`));
      setTimeout(tick, intervalMs);
    };
    tick();
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type LoaderState = 'idle' | 'loading' | 'ready' | 'error';

/**
 * One widget's script: idle until load() is first called, then loading, then ready (the script
 * loaded and its ready check held) or error. load() is idempotent: the script is requested once
 * however often it is asked for, and a failure stays a failure (no retry storm).
 */
export class ScriptLoader {
  state: LoaderState = 'idle';
  error: string | null = null;
  private promise: Promise<boolean> | null = null;

  constructor(
    private readonly inject: () => Promise<void>,
    private readonly ready: () => Promise<unknown> = () => Promise.resolve(),
    private readonly onChange: (state: LoaderState, error: string | null) => void = () => {},
  ) {}

  /** Resolves true when ready, false on error; never rejects. */
  load(): Promise<boolean> {
    this.promise ??= (async () => {
      this.set('loading');
      try {
        await this.inject();
        await this.ready();
        this.set('ready');
        return true;
      } catch (error) {
        this.set('error', error instanceof Error ? error.message : String(error));
        return false;
      }
    })();
    return this.promise;
  }

  private set(state: LoaderState, error: string | null = null) {
    this.state = state;
    this.error = error;
    try {
      this.onChange(state, error);
    } catch {
      // A listener's failure is not the loader's.
    }
  }
}

/** Adds <script async src> to the document; resolves on load, rejects on error. */
export function injectScript(src: string, attributes: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.async = true;
    script.src = src;
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`script failed to load: ${src.split('?')[0]}`));
    document.head.appendChild(script);
  });
}

/** The browser's memory of the visitor closing the chat popup (SPEC §4: 'flag persisted'). */
export const POPUP_CLOSED_KEY = 'widgets-chat-popup-closed';
export function popupClosedBefore(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(POPUP_CLOSED_KEY) === '1';
  } catch {
    return false;
  }
}
export function rememberPopupClosed(storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(POPUP_CLOSED_KEY, '1');
  } catch {
    // Storage blocked: it closes for this page only.
  }
}

/**
 * The text button (SPEC §4): opens at once when the widget is ready; otherwise reports loading,
 * loads the script and opens OPEN_DELAY_MS after the click (or when the script is ready, if later).
 * Resolves whether it opened.
 */
export async function openWhenReady(loader: Pick<ScriptLoader, 'state' | 'load'>, open: () => boolean, onLoading: () => void = () => {}): Promise<boolean> {
  if (loader.state === 'ready') return open();
  onLoading();
  const [ok] = await Promise.all([loader.load(), sleep(OPEN_DELAY_MS)]);
  return ok ? open() : false;
}
