import { z } from 'zod';

/** Postcode rules and messages (SPEC §5, §8). Client-safe: the finder form and the server share them. */

export type PostcodeCountry = 'AU' | 'NZ' | 'US';

export const POSTCODE_MESSAGES = {
  /** SPEC §5: malformed Australian (and New Zealand) postcode. */
  malformed: 'Invalid postcode. Please enter a 4-digit number.',
  /** US ZIP codes have five digits; same wording as the four-digit rule. */
  malformedZip: 'Invalid ZIP code. Please enter a 5-digit number.',
  /** SPEC §8: geocoding found nothing. */
  notFound: 'Invalid postcode',
} as const;

export const POSTCODE_LENGTH: Record<PostcodeCountry, number> = { AU: 4, NZ: 4, US: 5 };

/** The country a website's postcodes belong to, from its locale. */
export function postcodeCountry(locale: string): PostcodeCountry {
  return locale === 'en-US' ? 'US' : locale === 'en-NZ' ? 'NZ' : 'AU';
}

/** Exactly 4 digits (5 for US ZIP codes); surrounding spaces are ignored. */
export function postcodeSchema(country: PostcodeCountry) {
  const length = POSTCODE_LENGTH[country];
  return z
    .string(country === 'US' ? POSTCODE_MESSAGES.malformedZip : POSTCODE_MESSAGES.malformed)
    .trim()
    .regex(new RegExp(`^\\d{${length}}$`), country === 'US' ? POSTCODE_MESSAGES.malformedZip : POSTCODE_MESSAGES.malformed);
}
