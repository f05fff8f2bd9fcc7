import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = {
  include: ['src/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'tests/scripts/**/*.test.ts'],
  setupFiles: ['tests/support/setup.ts'],
  // Each project's migrated template database, which useTestDatabase() copies for every file.
  globalSetup: ['tests/support/template-database.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// Integration tests (*.int.test.ts and tests/integration) run on PGlite always, and again on the
// PostgreSQL server named by TEST_DATABASE_URL when it is set.
const integrationOnly = ['src/**/*.int.test.ts', 'tests/integration/**/*.test.ts'];

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src'),
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on the two-core CI machine, which then
    // sits half idle while a file imports or waits on PostgreSQL or a child process. Two at least.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      // Database faults (through a TCP proxy) and two servers on one database are PostgreSQL's (decision 055): the postgres project's alone.
      { extends: true as const, test: { ...shared, exclude: ['tests/integration/database-faults.test.ts', 'tests/integration/two-servers.test.ts'], name: 'pglite' } },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              // The embedded database shared by server processes is PGlite's alone (decision 046).
              test: { ...shared, include: integrationOnly, exclude: ['tests/integration/embedded-shared.test.ts'], name: 'postgres', env: { TEST_DB_KIND: 'postgres' } },
            },
          ]
        : []),
    ],
  },
});
