import { describe, expect, it } from 'vitest';
import { cleanFilterValue, foldForSearch, isStockNumberLike, MAX_QUERY_LENGTH, MAX_QUERY_TERMS, searchTerms, TYPO_MIN_LENGTH } from './search.text';
import { ACCENTED_LETTERS, UNACCENTED_LETTERS } from './search.letters';

describe('isStockNumberLike (SPEC §5: letters, 3+ digits, letters)', () => {
  it.each(['AB12345', '12345', '4521X', 'ab123c', '123', 'X999', 'abc1234def'])('%s is stock-number-like', (term) => {
    expect(isStockNumberLike(term)).toBe(true);
  });

  it.each(['hilux', 'cx5', 'cx-5', 'AB12', '12', 'A1B234', 'AB-12345', '12 345', '', '1.234', 'AB123C4'])('%s is not', (term) => {
    expect(isStockNumberLike(term)).toBe(false);
  });
});

describe('searchTerms', () => {
  it('gives nothing for an empty, blank or missing query', () => {
    expect(searchTerms(undefined)).toEqual([]);
    expect(searchTerms(null)).toEqual([]);
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms('   \t ')).toEqual([]);
    expect(searchTerms('"""')).toEqual([]);
  });

  it('marks stock-number-like terms exact, with no typo tolerance', () => {
    expect(searchTerms('AB12345')).toEqual([{ text: 'ab12345', exact: true, fuzzy: false }]);
    expect(searchTerms('12345')).toEqual([{ text: '12345', exact: true, fuzzy: false }]);
    expect(searchTerms('4521X')).toEqual([{ text: '4521x', exact: true, fuzzy: false }]);
  });

  it('matches other words as text, fuzzily only from 5 characters', () => {
    expect(TYPO_MIN_LENGTH).toBe(5);
    expect(searchTerms('hilux')).toEqual([{ text: 'hilux', exact: false, fuzzy: true }]);
    expect(searchTerms('toyta')).toEqual([{ text: 'toyta', exact: false, fuzzy: true }]);
    expect(searchTerms('kia')).toEqual([{ text: 'kia', exact: false, fuzzy: false }]);
    expect(searchTerms('cx5')).toEqual([{ text: 'cx5', exact: false, fuzzy: false }]);
    expect(searchTerms('golf')).toEqual([{ text: 'golf', exact: false, fuzzy: false }]);
    expect(searchTerms('cx-30')).toEqual([{ text: 'cx-30', exact: false, fuzzy: true }]);
  });

  it('lowercases, splits on whitespace and drops repeated words', () => {
    expect(searchTerms('  Toyota   HiLux\tSR5 toyota TOYOTA ').map((t) => t.text)).toEqual(['toyota', 'hilux', 'sr5']);
  });

  it('removes double quotes, so a quoted phrase reads as its words', () => {
    expect(searchTerms('"mazda"').map((t) => t.text)).toEqual(['mazda']);
    expect(searchTerms('"toyota hilux"').map((t) => t.text)).toEqual(['toyota', 'hilux']);
    expect(searchTerms('ab"12345').map((t) => t.text)).toEqual(['ab', '12345']);
    expect(searchTerms('"AB12345"')).toEqual([{ text: 'ab12345', exact: true, fuzzy: false }]);
  });

  it('removes control characters, NUL included', () => {
    expect(searchTerms('toy\u0000ota').map((t) => t.text)).toEqual(['toy', 'ota']);
    expect(searchTerms('\u0007hilux\u001f\u007f').map((t) => t.text)).toEqual(['hilux']);
    expect(searchTerms('a\nb\rc').map((t) => t.text)).toEqual(['a', 'b', 'c']);
    for (const term of searchTerms('x\u0000\u0001\u001b\u007fy z')) expect(term.text).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it('folds accents the way the search_text column does', () => {
    expect(searchTerms('ŠKODA Citroën').map((t) => t.text)).toEqual(['skoda', 'citroen']);
    expect(searchTerms('Škoda')[0]).toEqual({ text: 'skoda', exact: false, fuzzy: true });
  });

  it('bounds the query length and the number of terms', () => {
    expect(MAX_QUERY_LENGTH).toBe(100);
    expect(MAX_QUERY_TERMS).toBe(8);
    const [long] = searchTerms('x'.repeat(10_000));
    expect(long.text).toHaveLength(MAX_QUERY_LENGTH);
    const many = searchTerms(Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '));
    expect(many).toHaveLength(MAX_QUERY_TERMS);
    expect(many[0].text).toBe('word0');
    // 100 characters of 'Toyota Toyota …' end in 'to': one repeated word and the cut one.
    expect(searchTerms('Toyota '.repeat(2_000)).map((t) => t.text)).toEqual(['toyota', 'to']);
    // Cut at 100 characters before splitting: the second word keeps 4 of its letters.
    expect(searchTerms(`${'x'.repeat(95)} yyyyyyyyyy`).map((t) => t.text)).toEqual(['x'.repeat(95), 'yyyy']);
  });

  it('keeps SQL and pattern characters as plain text for the engine to escape', () => {
    expect(searchTerms("' or 1=1 --").map((t) => t.text)).toEqual(["'", 'or', '1=1', '--']);
    expect(searchTerms('100%_\\').map((t) => t.text)).toEqual(['100%_\\']);
    expect(searchTerms('100%_\\')[0].exact).toBe(false);
  });
});

describe('foldForSearch', () => {
  it('lowercases and folds every listed accented letter', () => {
    expect(foldForSearch('ŠKODA Octavia')).toBe('skoda octavia');
    expect(foldForSearch('Citroën Über Peugeot Ñandú Žiguli Čapek Řezník')).toBe('citroen uber peugeot nandu ziguli capek reznik');
    expect(foldForSearch(ACCENTED_LETTERS)).toBe(UNACCENTED_LETTERS.toLowerCase());
    expect(ACCENTED_LETTERS).toHaveLength(UNACCENTED_LETTERS.length);
  });

  it('leaves other text alone apart from case', () => {
    expect(foldForSearch('CX-5 🚗 東京')).toBe('cx-5 🚗 東京');
    expect(foldForSearch('')).toBe('');
  });
});

describe('cleanFilterValue (SPEC §5: double quotes are removed from filter values)', () => {
  it('removes double quotes and control characters and trims', () => {
    expect(cleanFilterValue('"Toyota"')).toBe('Toyota');
    expect(cleanFilterValue('  Toy"ota  ')).toBe('Toyota');
    expect(cleanFilterValue('To\u0000yo\nta\u007f')).toBe('Toyota');
    expect(cleanFilterValue('""')).toBe('');
    expect(cleanFilterValue(' \t ')).toBe('');
  });

  it('keeps everything else as written', () => {
    expect(cleanFilterValue('ŠKODA')).toBe('ŠKODA');
    expect(cleanFilterValue("O'Brien %_\\ Motors")).toBe("O'Brien %_\\ Motors");
    expect(cleanFilterValue('Toyota:HiLux')).toBe('Toyota:HiLux');
  });
});
