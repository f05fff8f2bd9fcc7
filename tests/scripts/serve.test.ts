import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript module without types (the start and test scripts need no build step)
import { serverProcessCount } from '../../scripts/lib.mjs';
// @ts-expect-error: plain JavaScript module without types
import { replacementDelay } from '../../scripts/supervision.mjs';

describe('serverProcessCount (scripts/serve.mjs)', () => {
  it('runs one per core unless WEB_CONCURRENCY names a positive whole number, on a PostgreSQL server and on the embedded database alike', () => {
    for (const database of [{ DATABASE_URL: 'postgres://db/dealers' }, {}]) {
      expect(serverProcessCount(database, 2)).toBe(2);
      expect(serverProcessCount(database, 8)).toBe(8);
      expect(serverProcessCount({ ...database, WEB_CONCURRENCY: '3' }, 2)).toBe(3);
      expect(serverProcessCount({ ...database, WEB_CONCURRENCY: '1' }, 2)).toBe(1);
      for (const odd of ['0', '-1', '1.5', 'lots', '']) expect(serverProcessCount({ ...database, WEB_CONCURRENCY: odd }, 2)).toBe(2);
    }
  });
});

describe('replacementDelay (scripts/supervision.mjs, decision 057)', () => {
  it('replaces a process at once unless a third one in a row dies young, then waits 1 s, 2 s, 4 s … up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => replacementDelay(n))).toEqual([0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
