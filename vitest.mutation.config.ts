import base from './vitest.config';

/**
 * The Vitest configuration StrykerJS runs (stryker.config.mjs): the project's, on PGlite only.
 * MUTATION_TESTS narrows the test files (comma-separated globs), e.g. to the unit tests for a
 * quick run on the pure rule files: MUTATION_TESTS='src/**\/*.test.ts'.
 */
const only = process.env.MUTATION_TESTS?.split(',').filter(Boolean);
const [pglite] = (base.test?.projects ?? []) as { test?: Record<string, unknown> }[];

const config = {
  ...base,
  test: {
    ...base.test,
    // One test process per Stryker runner (stryker.config.mjs sets how many runners).
    maxWorkers: 1,
    projects: [only ? { ...pglite, test: { ...pglite.test, include: only } } : pglite],
  },
};

export default config;
