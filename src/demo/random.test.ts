import { describe, expect, it } from 'vitest';
import { hashString, mulberry32, Random } from './random';

describe('seeded randomness', () => {
  it('repeats the same sequence for the same seed, and differs for another', () => {
    const a = new Random('harbour');
    const b = new Random('harbour');
    const c = new Random('kiwi');
    const seqA = Array.from({ length: 20 }, () => a.float());
    expect(Array.from({ length: 20 }, () => b.float())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.float())).not.toEqual(seqA);
  });

  it('matches the canonical mulberry32', () => {
    // The widely published reference implementation, verbatim in behaviour.
    function reference(a: number) {
      return function () {
        let t = (a += 0x6d2b79f5);
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }
    for (const seed of [1, 42, 0xdeadbeef]) {
      const ours = mulberry32(seed);
      const theirs = reference(seed | 0);
      for (let i = 0; i < 50; i++) expect(ours()).toBe(theirs());
    }
  });

  it('stays in range', () => {
    const rng = new Random(42);
    for (let i = 0; i < 2000; i++) {
      const f = rng.float();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      const n = rng.int(3, 12);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(12);
    }
  });

  it('reaches both ends of an integer range and every item of a list', () => {
    const rng = new Random('ends');
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(rng.int(1, 5));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
    const picked = new Set<string>();
    for (let i = 0; i < 200; i++) picked.add(rng.pick(['a', 'b', 'c']));
    expect(picked.size).toBe(3);
  });

  it('picks by weight', () => {
    const rng = new Random('weights');
    let heavy = 0;
    for (let i = 0; i < 4000; i++) if (rng.weighted([['heavy', 9], ['light', 1]] as const) === 'heavy') heavy++;
    expect(heavy / 4000).toBeGreaterThan(0.85);
    expect(heavy / 4000).toBeLessThan(0.95);
    expect(() => rng.pick([])).toThrow();
  });

  it('forks streams that do not depend on how far the parent has run', () => {
    const a = new Random('site');
    const b = new Random('site');
    b.float();
    b.float();
    expect(a.fork('car:7').float()).toBe(b.fork('car:7').float());
    expect(a.fork('car:7').float()).not.toBe(a.fork('car:8').float());
  });

  it('samples distinct items and shuffles without losing any', () => {
    const rng = new Random('sample');
    const items = Array.from({ length: 30 }, (_, i) => i);
    const sample = rng.sample(items, 10);
    expect(new Set(sample).size).toBe(10);
    expect(rng.shuffle(items).sort((x, y) => x - y)).toEqual(items);
  });

  it('hashes strings stably (FNV-1a)', () => {
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
  });
});
