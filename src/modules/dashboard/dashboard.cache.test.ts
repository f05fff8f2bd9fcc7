import { describe, expect, it } from 'vitest';
import { LruCache, stockEtag } from './dashboard.cache';

describe('LruCache', () => {
  it('keeps at most maxEntries, evicting the least recently used', () => {
    const cache = new LruCache<number>(3, 60_000);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
  });

  it('forgets entries older than maxAge', () => {
    const cache = new LruCache<string>(10, 1000);
    cache.set('k', 'v', 0);
    expect(cache.get('k', 999)).toBe('v');
    expect(cache.get('k', 2000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stays bounded under many distinct keys', () => {
    const cache = new LruCache<number>(1000, 60_000);
    for (let i = 0; i < 10_000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(1000);
    expect(cache.get('k9999')).toBe(9999);
    expect(cache.get('k0')).toBeUndefined();
  });
});

describe('stockEtag', () => {
  it('differs by website and by version', () => {
    expect(stockEtag(1, 5)).toBe('"w1-s5"');
    expect(new Set([stockEtag(1, 5), stockEtag(1, 6), stockEtag(2, 5)]).size).toBe(3);
  });
});
