/**
 * The visitor's cookie choice (decision 037), kept in the browser, and Google Consent Mode v2.
 * Client-safe, dependency-free, tiny: the widget host ships it on every page.
 */

export type ConsentChoice = 'granted' | 'denied';
export const CONSENT_KEY = 'widgets-consent';

export function storedConsent(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): ConsentChoice | null {
  try {
    const value = storage?.getItem(CONSENT_KEY);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

export function storeConsent(choice: ConsentChoice, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(CONSENT_KEY, choice);
  } catch {
    // Storage blocked: the choice holds for this page.
  }
}

/** Marketing (the Meta pixel) may run: no banner on this website, or the visitor said yes. */
export function marketingAllowed(required: boolean, choice: ConsentChoice | null): boolean {
  return !required || choice === 'granted';
}

/** Consent Mode v2's four signals for a state. */
export function consentSignals(granted: boolean) {
  const value = granted ? 'granted' : 'denied';
  return { ad_storage: value, ad_user_data: value, ad_personalization: value, analytics_storage: value };
}

type GtagWindow = { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };

/** The page's gtag(), made if missing (Google's own snippet: it queues into dataLayer until a tag loads). */
export function gtag(...args: unknown[]): void {
  const w = window as unknown as GtagWindow;
  w.dataLayer ??= [];
  w.gtag ??= function () {
    // gtag.js reads the arguments object itself, not an array.
    // eslint-disable-next-line prefer-rest-params
    w.dataLayer!.push(arguments);
  };
  w.gtag(...args);
}
