/**
 * Vehicle Identification Numbers (ISO 3779; the check digit and model year of 49 CFR 565).
 * Client-safe and pure: the forms and the lookup share one rule.
 *
 * A VIN is 17 letters and digits without I, O and Q. Position 9 is a check digit only where the
 * North American rule applies (world manufacturer identifiers starting 1–5); Australian-delivered
 * cars from Japan, Korea, Europe or Thailand usually carry a VIN without one, so elsewhere the
 * digit is reported, not enforced.
 */

export const VIN_LENGTH = 17;
const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

const TRANSLITERATION: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8,
  J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

export const VIN_MESSAGES = {
  format: 'A VIN is 17 letters and digits (no I, O or Q).',
  checkDigit: 'This VIN does not add up. Please check it against the registration papers.',
} as const;

/** Upper-case, without spaces or dashes. */
export function normaliseVin(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

export function isVinFormat(vin: string): boolean {
  return VIN_PATTERN.test(vin);
}

/** The check digit position 9 should hold ('0'–'9' or 'X'). */
export function expectedCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < VIN_LENGTH; i += 1) {
    const c = vin[i];
    const value = c >= '0' && c <= '9' ? Number(c) : (TRANSLITERATION[c] ?? 0);
    sum += value * WEIGHTS[i];
  }
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/** North American manufacturers (WMI 1–5) must carry the check digit. */
export function checkDigitApplies(vin: string): boolean {
  return /^[1-5]/.test(vin);
}

export type VinCheck =
  | { ok: true; vin: string; checkDigit: 'valid' | 'invalid-not-required' }
  | { ok: false; vin: string; message: string };

/** Format and, where it applies, the check digit. */
export function checkVin(value: string): VinCheck {
  const vin = normaliseVin(value);
  if (!isVinFormat(vin)) return { ok: false, vin, message: VIN_MESSAGES.format };
  const valid = vin[8] === expectedCheckDigit(vin);
  if (!valid && checkDigitApplies(vin)) return { ok: false, vin, message: VIN_MESSAGES.checkDigit };
  return { ok: true, vin, checkDigit: valid ? 'valid' : 'invalid-not-required' };
}

const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/**
 * The model years position 10 can mean (the code repeats every 30 years), newest first, not after
 * `latest`. Only meaningful where the manufacturer follows the North American rule.
 */
export function modelYearsOf(vin: string, latest: number): number[] {
  const index = YEAR_CODES.indexOf(vin[9] ?? '');
  if (index < 0) return [];
  const years: number[] = [];
  for (let year = 1980 + index; year <= latest; year += 30) years.push(year);
  return years.reverse();
}
