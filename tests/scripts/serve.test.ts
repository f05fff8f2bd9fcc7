import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript module without types (the start and test scripts need no build step)
import { serverProcessCount } from '../../scripts/lib.mjs';

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
