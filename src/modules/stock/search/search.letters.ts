/**
 * Letters folded for search: the search_text column's translate() (stock.schema.ts) and
 * foldForSearch (search.text.ts) use the same pairs, so 'skoda' finds ŠKODA.
 */
export const ACCENTED_LETTERS = 'ŠšÉéÈèÊêËëÁáÀàÂâÄäÍíÏïÓóÔôÖöÚúÜüÇçÑñŽžČčŘř';
export const UNACCENTED_LETTERS = 'SsEeEeEeEeAaAaAaAaIiIiOoOoOoUuUuCcNnZzCcRr';
