import { describe, expect, it } from 'vitest';
import { headingFromSlug, pageHref, pageWindow, parseStockListSearchParams } from './stock-list.params';

describe('stock list query parameters', () => {
  it('reads q and page', () => {
    expect(parseStockListSearchParams({ q: ' mazda cx-5 ', page: '3' })).toEqual({ q: 'mazda cx-5', page: 3 });
    expect(parseStockListSearchParams({})).toEqual({ q: undefined, page: 1 });
  });

  it('falls back on unusable values instead of failing', () => {
    for (const page of ['0', '-1', 'abc', '2.5', '', '10001', 'Infinity', ['x', '2'], { a: 1 }]) {
      expect(parseStockListSearchParams({ page }).page).toBe(1);
    }
    expect(parseStockListSearchParams({ page: ['2', '3'] }).page).toBe(2);
    expect(parseStockListSearchParams({ q: 'x'.repeat(10_240) }).q).toBeUndefined();
    expect(parseStockListSearchParams({ q: ['ranger', 'hilux'] }).q).toBe('ranger');
    expect(parseStockListSearchParams({ q: '   ' }).q).toBeUndefined();
    expect(parseStockListSearchParams({ q: 'a\u0000b\nc' }).q).toBe('a b c');
    expect(parseStockListSearchParams({ q: 5 }).q).toBeUndefined();
  });

  it('builds page links that keep the query and drop page 1', () => {
    expect(pageHref('/search/used-cars', undefined, 1)).toBe('/search/used-cars');
    expect(pageHref('/search/used-cars', 'a&b=c', 2)).toBe('/search/used-cars?q=a%26b%3Dc&page=2');
  });

  it('numbers the pages around the current one, with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(6, 20)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 20]);
    expect(pageWindow(20, 20)).toEqual([1, 'gap', 18, 19, 20]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('names an all-stock page after its slug', () => {
    expect(headingFromSlug('new-used-and-demo-trucks')).toBe('New, used and demo trucks');
    expect(headingFromSlug('new-and-used-caravans-and-campers')).toBe('New and used caravans and campers');
    expect(headingFromSlug('used-cars-in-labrador')).toBe('Used cars in labrador');
  });
});
