/** Postcode rules and messages (SPEC §5, §8). Client-safe and without zod: the finder form and the server share them. */

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

export type PostcodeCheck = { success: true; postcode: string } | { success: false; message: string };

/** Exactly 4 digits (5 for US ZIP codes); surrounding spaces are ignored. */
export function checkPostcode(country: PostcodeCountry, raw: string): PostcodeCheck {
  const postcode = raw.trim();
  if (new RegExp(`^\\d{${POSTCODE_LENGTH[country]}}$`).test(postcode)) return { success: true, postcode };
  return { success: false, message: country === 'US' ? POSTCODE_MESSAGES.malformedZip : POSTCODE_MESSAGES.malformed };
}
