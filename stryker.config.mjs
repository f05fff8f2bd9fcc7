// @ts-check
import fs from 'node:fs';
import path from 'node:path';
/**
 * `npm run test:mutation` (issue 36): StrykerJS over the files that hold the rules moving money,
 * leads and limits. Each mutant is run against the Vitest tests that cover it (coverage per test),
 * one at a time (the machines here have two shared cores). Incremental: the results are kept in
 * reports/mutation/stryker-incremental.json (committed), so a rerun tests only mutants in code or
 * tests that changed. Not run in CI: a full run takes hours (docs/testing.md has the figures).
 * A subset: `npm run test:mutation -- --mutate src/modules/finance/finance.calc.ts`.
 */
// Tests read shared data beside the project (../shared, e.g. the GeoNames postcode files); the
// sandboxes are .stryker-tmp/sandbox-*, so .stryker-tmp/shared must lead there too.
const shared = path.resolve('..', 'shared');
const link = path.join('.stryker-tmp', 'shared');
if (fs.existsSync(shared) && !fs.existsSync(link)) {
  fs.mkdirSync('.stryker-tmp', { recursive: true });
  fs.symlinkSync(shared, link);
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  // The first run of the covering tests takes minutes on a loaded two-core machine.
  dryRunTimeoutMinutes: 60,
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    // Money: the finance calculator and its display, the reservation rule and commands, the payment
    // adapters' signatures and notification parsing, the card checks.
    'src/modules/finance/finance.calc.ts',
    'src/modules/finance/finance.display.ts',
    'src/modules/stock/car-page.rules.ts',
    'src/modules/checkout/checkout.commands.ts',
    'src/modules/checkout/checkout.validation.ts',
    'src/modules/checkout/adapters/till.ts',
    'src/modules/checkout/adapters/stgeorge.ts',
    'src/modules/checkout/adapters/sandbox.ts',
    // Leads: the form rules (the API's schemas and the field checks), limits, delivery and retry.
    'src/modules/leads/form-rules/schemas.ts',
    'src/modules/leads/form-rules/checks.ts',
    'src/modules/leads/leads.limits.ts',
    'src/modules/leads/leads.delivery.ts',
    // Limits and identity: phone codes, sessions, the shared limiter.
    'src/modules/identity/identity.codes.ts',
    'src/modules/identity/identity.sessions.ts',
    'src/lib/rate-limit.ts',
    // Postcode and phone rules per country.
    'src/lib/phone.ts',
    'src/modules/locations/locations.validation.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
  ignoreStatic: true,
  timeoutMS: 30_000,
  // The sandbox copy needs the sources and tests only, not builds, data or reports.
  ignorePatterns: ['.next*', '.data*', '.test-data', '.test-results', '.bench-data', 'test-results', 'docs', 'reports', '*.tsbuildinfo'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};

export default config;
