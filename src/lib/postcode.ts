/**
 * Postcode rules by the website's country (SPEC §5; issue 31): one rule per country gives the
 * field's label, its input attributes, the check and the message, so every form, the location
 * finder and the lead API agree. Client-safe and without zod.
 */

export type PostcodeCountry = 'AU' | 'NZ' | 'US';

export const POSTCODE_MESSAGES = {
  /** SPEC §5: malformed Australian (and New Zealand) postcode. */
  malformed: 'Invalid postcode. Please enter a 4-digit number.',
  /** US ZIP codes have five digits (ZIP+4 also accepted); same wording as the four-digit rule. */
  malformedZip: 'Invalid ZIP code. Please enter a 5-digit number.',
  /** SPEC §8: geocoding found nothing. */
  notFound: 'Invalid postcode',
} as const;

export type PostcodeRule = {
  /** What the visitor reads: 'Postcode', or 'ZIP code' in the US. */
  label: string;
  /** Digits of the postcode proper (the ZIP without its +4). */
  digits: number;
  /** The input's maxlength: 4, or 10 for a ZIP+4 ('75201-1234'). */
  maxLength: number;
  /** The input's pattern attribute (the whole value must match). */
  pattern: string;
  message: string;
};

const FOUR_DIGITS: PostcodeRule = { label: 'Postcode', digits: 4, maxLength: 4, pattern: '\\d{4}', message: POSTCODE_MESSAGES.malformed };

export const POSTCODE_RULES: Record<PostcodeCountry, PostcodeRule> = {
  AU: FOUR_DIGITS,
  NZ: FOUR_DIGITS,
  US: { label: 'ZIP code', digits: 5, maxLength: 10, pattern: '\\d{5}(-\\d{4})?', message: POSTCODE_MESSAGES.malformedZip },
};

/** The country a website's postcodes belong to, from its locale. */
export function postcodeCountry(locale: string): PostcodeCountry {
  return locale === 'en-US' ? 'US' : locale === 'en-NZ' ? 'NZ' : 'AU';
}

const patterns = new Map<PostcodeCountry, RegExp>();

/** Whether the trimmed text is a postcode of the country (a US ZIP or ZIP+4). */
export function isPostcode(country: PostcodeCountry, text: string): boolean {
  let pattern = patterns.get(country);
  if (!pattern) patterns.set(country, (pattern = new RegExp(`^(?:${POSTCODE_RULES[country].pattern})$`)));
  return pattern.test(text.trim());
}

/** The message for a malformed postcode, or null when it is a postcode of the country. */
export function postcodeError(country: PostcodeCountry, text: string): string | null {
  return isPostcode(country, text) ? null : POSTCODE_RULES[country].message;
}

/** Australia's states and territories, as a visitor picks them (trade-in registration). */
export const AUSTRALIAN_STATES = ['NSW', 'QLD', 'VIC', 'ACT', 'NT', 'SA', 'TAS', 'WA'] as const;
export type AustralianState = (typeof AUSTRALIAN_STATES)[number];
