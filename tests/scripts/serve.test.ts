import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript module without types (the start and test scripts need no build step)
import { serverProcessCount } from '../../scripts/lib.mjs';

describe('serverProcessCount (scripts/serve.mjs)', () => {
  it('runs one process on the embedded database, whatever WEB_CONCURRENCY says', () => {
    expect(serverProcessCount({}, 8)).toBe(1);
    expect(serverProcessCount({ WEB_CONCURRENCY: '4' }, 8)).toBe(1);
  });

  it('runs one per core on a PostgreSQL server unless WEB_CONCURRENCY names a positive whole number', () => {
    const url = 'postgres://db/dealers';
    expect(serverProcessCount({ DATABASE_URL: url }, 2)).toBe(2);
    expect(serverProcessCount({ DATABASE_URL: url, WEB_CONCURRENCY: '3' }, 2)).toBe(3);
    for (const odd of ['0', '-1', '1.5', 'lots', '']) expect(serverProcessCount({ DATABASE_URL: url, WEB_CONCURRENCY: odd }, 2)).toBe(2);
  });
});
