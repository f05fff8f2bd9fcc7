import { ACCENTED_LETTERS, UNACCENTED_LETTERS } from './search.letters';

/**
 * Free-text search terms (SPEC §5). Pure and client-safe.
 *
 * - Double quotes and control characters are removed; length and term count are bounded.
 * - A stock-number-like term (letters, 3 or more digits, letters: AB12345, 12345, 4521X) is matched
 *   exactly as a whole word, as the spec's quoting does; no typo tolerance.
 * - Other terms match as a substring, and from TYPO_MIN_LENGTH letters also by trigram similarity.
 */

export const MAX_QUERY_LENGTH = 100;
export const MAX_QUERY_TERMS = 8;
/** Shorter words get no typo tolerance: 'kia' must not find a Nissan Kicks. */
export const TYPO_MIN_LENGTH = 5;

const STOCK_NUMBER_LIKE = /^[a-z]*\d{3,}[a-z]*$/;

export type SearchTerm = { text: string; exact: boolean; fuzzy: boolean };

const FOLD = new Map([...ACCENTED_LETTERS].map((letter, i) => [letter, UNACCENTED_LETTERS[i]]));

/** Lowercase with the same accents folded as the search_text column (Škoda → skoda). */
export function foldForSearch(text: string): string {
  return [...text].map((letter) => FOLD.get(letter) ?? letter).join('').toLowerCase();
}

/** SPEC §5: double quotes are removed from search filter values (and control characters). */
export function cleanFilterValue(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
}

export function isStockNumberLike(term: string): boolean {
  return STOCK_NUMBER_LIKE.test(term.toLowerCase());
}

export function searchTerms(q: string | undefined | null): SearchTerm[] {
  if (!q) return [];
  const cleaned = foldForSearch(q.replace(/[\u0000-\u001f\u007f"]/g, ' '))
    .trim()
    .slice(0, MAX_QUERY_LENGTH);
  const words = [...new Set(cleaned.split(/\s+/).filter(Boolean))].slice(0, MAX_QUERY_TERMS);
  return words.map((text) => {
    const exact = isStockNumberLike(text);
    return { text, exact, fuzzy: !exact && text.length >= TYPO_MIN_LENGTH };
  });
}
