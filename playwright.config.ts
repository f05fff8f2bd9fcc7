import { defineConfig } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3200);

// Drives the system Chromium (Playwright cannot download browsers here). The server is the
// production build on a database of its own, prepared by tests/e2e/run.mjs.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.test-results/playwright',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: '.test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    // No -H 127.0.0.1: Next reports that host as localhost, sees its rewrites as another origin and
    // proxies them over HTTP to itself. The default (all interfaces, origin localhost) routes in process.
    command: `node_modules/.bin/next start -p ${E2E_PORT}`,
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.test-data/e2e',
      MEDIA_DIR: process.env.E2E_MEDIA_DIR ?? '.test-data/media',
      LOG_LEVEL: 'warn',
    },
  },
});
