import type { Currency, Locale } from '@/lib/intl';
import { dateTimeFormat, numberFormat } from './intl';

/** Locale formatting for one website: currency, distance unit and spelling. Client-safe. */

/** The parts of a website's configuration that say how it writes numbers and dates. */
type LocaleConfig = { locale: Locale; currency: Currency; distanceUnit: 'km' | 'mi' };

export const KM_PER_MILE = 1.609344;

export function formatMoney(config: LocaleConfig, amount: number): string {
  return numberFormat(config.locale, {
    style: 'currency',
    currency: config.currency,
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  }).format(amount);
}

/** Odometer readings are stored in kilometres; shown in the website's unit. */
export function odometerValue(config: LocaleConfig, km: number): number {
  return config.distanceUnit === 'mi' ? Math.round(km / KM_PER_MILE) : km;
}

/** An odometer reading already in the website's unit: '12,345 km' or '12,345 mi'. */
export function formatOdometerValue(config: LocaleConfig, value: number): string {
  return `${numberFormat(config.locale).format(value)} ${config.distanceUnit === 'mi' ? 'mi' : 'km'}`;
}

export function formatOdometer(config: LocaleConfig, km: number): string {
  return formatOdometerValue(config, odometerValue(config, km));
}

export function formatDistance(config: LocaleConfig, km: number): string {
  const value = config.distanceUnit === 'mi' ? km / KM_PER_MILE : km;
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ${config.distanceUnit === 'mi' ? 'mi' : 'km'}`;
}

/** What a website's dates are written in: its locale and its time zone (never the visitor's browser's). */
export type DateConfig = { locale: Locale; timeZone: string };

const DATE_STYLES = {
  /** '3 March 2026' / 'March 3, 2026' */
  date: { day: 'numeric', month: 'long', year: 'numeric' },
  /** '28 Nov 2026, 6:07 pm AEDT' / 'Nov 28, 2026, 1:07 AM CST' */
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof DATE_STYLES;

/**
 * An instant as the website writes it, on the server and in the browser alike (issue 31: not the
 * visitor's browser locale). Every date a visitor or a dealer reads goes through here. An unknown
 * time zone in the configuration falls back to UTC, named, rather than failing the page.
 */
export function formatDate(config: DateConfig, instant: Date | number | string, style: DateStyle = 'date'): string {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  const options = DATE_STYLES[style];
  try {
    return dateTimeFormat(config.locale, { ...options, timeZone: config.timeZone }).format(date);
  } catch {
    return dateTimeFormat(config.locale, { ...options, timeZone: 'UTC' }).format(date);
  }
}

/**
 * Words of the interface as US visitors read them (issue 31), longest first where one contains
 * another. Matched at the start of a word, so 'Enquiry' also changes 'Enquiry type'.
 */
const US_SPELLING: Record<string, string> = {
  'Registration (Rego)': 'License plate',
  'Registration state': 'State',
  Colour: 'Color',
  colour: 'color',
  Favourites: 'Favorites',
  favourites: 'favorites',
  Centre: 'Center',
  centre: 'center',
  Enquiries: 'Inquiries',
  enquiries: 'inquiries',
  Enquire: 'Inquire',
  enquire: 'inquire',
  Enquiry: 'Inquiry',
  enquiry: 'inquiry',
  Kilometres: 'Miles',
  kilometres: 'miles',
  Licence: 'License',
  licence: 'license',
  Postcode: 'ZIP code',
  postcode: 'ZIP code',
  Petrol: 'Gas',
  petrol: 'gas',
  Rego: 'License plate',
  rego: 'license plate',
};
const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const US_PATTERN = new RegExp(
  `\\b(${Object.keys(US_SPELLING)
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join('|')})`,
  'g',
);

/** Interface words in the website's spelling: 'Colour' becomes 'Color' on en-US sites. */
export function spell(config: { locale: Locale }, text: string): string {
  return config.locale === 'en-US' ? text.replace(US_PATTERN, (word) => US_SPELLING[word] ?? word) : text;
}
