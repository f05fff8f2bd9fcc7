/**
 * Intl formatters kept per locale and options: making one costs far more than formatting with it
 * (a search page formats a price and an odometer for every card). Client-safe.
 */
/** The locales and currencies a website can be configured with. */
export const LOCALES = ['en-AU', 'en-NZ', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const CURRENCIES = ['AUD', 'NZD', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const collators = new Map<string, Intl.Collator>();
/** Locales and options come from configuration, so few ever exist; the bound only guards memory. */
const MAX_KEPT = 500;

function kept<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_KEPT) cache.clear();
    cache.set(key, value);
  }
  return value;
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept(numberFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/** Throws as the constructor does (an unknown time zone, say). */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return kept(dateTimeFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function collator(locale: string, options: Intl.CollatorOptions = {}): Intl.Collator {
  return kept(collators, `${locale}|${JSON.stringify(options)}`, () => new Intl.Collator(locale, options));
}
