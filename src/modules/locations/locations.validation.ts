/** Postcode checks of the location finder (SPEC §5, §8), on the one postcode rule of src/lib/postcode.ts. Client-safe. */

import { POSTCODE_RULES, postcodeError, type PostcodeCountry } from '@/lib/postcode';

export { POSTCODE_MESSAGES, POSTCODE_RULES, postcodeCountry, type PostcodeCountry } from '@/lib/postcode';

export type PostcodeCheck = { success: true; postcode: string } | { success: false; message: string };

/**
 * A postcode of the country (4 digits; a US ZIP or ZIP+4); surrounding spaces are ignored. The
 * postcode proper is what is geocoded: a ZIP+4 gives its five-digit ZIP.
 */
export function checkPostcode(country: PostcodeCountry, raw: string): PostcodeCheck {
  const postcode = raw.trim();
  const message = postcodeError(country, postcode);
  return message ? { success: false, message } : { success: true, postcode: postcode.slice(0, POSTCODE_RULES[country].digits) };
}
