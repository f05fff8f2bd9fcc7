import { defineConfig } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3200);
/** The Till gateway stand-in (tests/e2e/fake-till.mjs) the server's Till adapter talks to. */
export const FAKE_TILL_PORT = E2E_PORT + 10_000;
/** The dealer's webhook receiver stand-in (tests/e2e/fake-dealer-webhook.mjs); tests/e2e/run.mjs points harbour-city-mazda's lead webhook at it. */
export const FAKE_WEBHOOK_PORT = E2E_PORT + 10_001;
export const fakeWebhookUrl = (path = '/') => `http://127.0.0.1:${FAKE_WEBHOOK_PORT}${path}`;
/** Till's keys in the browser tests: gold-coast-used-cars (configured for Till) pays through Till's hosted page. */
export const E2E_TILL = { apiKey: 'e2e-till-api-key', sharedSecret: 'e2e-till-shared-secret', username: 'e2e-till-user', password: 'e2e-till-password' };

// Drives Debian's Chromium headless shell (Playwright cannot download browsers here): the build
// Playwright itself runs headless tests in, about half the CPU of the full browser's headless mode
// on the same pages (the run is CPU-bound, docs/testing.md). The server is the
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
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: 'node tests/e2e/fake-till.mjs',
      url: `http://127.0.0.1:${FAKE_TILL_PORT}/health`,
      reuseExistingServer: false,
      env: {
        FAKE_TILL_PORT: String(FAKE_TILL_PORT),
        TILL_API_KEY: E2E_TILL.apiKey,
        TILL_SHARED_SECRET: E2E_TILL.sharedSecret,
        TILL_USERNAME: E2E_TILL.username,
        TILL_PASSWORD: E2E_TILL.password,
      },
    },
    {
      command: 'node tests/e2e/fake-dealer-webhook.mjs',
      url: fakeWebhookUrl('/health'),
      reuseExistingServer: false,
      // The signing secret run.mjs got when it set the webhook.
      env: { FAKE_WEBHOOK_PORT: String(FAKE_WEBHOOK_PORT), FAKE_WEBHOOK_SECRET: process.env.E2E_WEBHOOK_SECRET ?? '' },
    },
    {
      // The server as `npm start` runs it (scripts/serve.mjs): one process per core, sharing the
      // embedded database through the cluster primary (decision 046).
      // No -H 127.0.0.1: Next reports that host as localhost, sees its rewrites as another origin and
      // proxies them over HTTP to itself. The default (all interfaces, origin localhost) routes in process.
      // Idle connections kept for 2 minutes: with Node's 5 s a test's `request`, idle that long
      // between two calls, could reuse a socket the server was closing (ECONNRESET).
      command: `node scripts/serve.mjs -p ${E2E_PORT} --keepAliveTimeout 120000`,
      url: `http://127.0.0.1:${E2E_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        DATA_DIR: process.env.E2E_DATA_DIR ?? '.test-data/e2e',
        MEDIA_DIR: process.env.E2E_MEDIA_DIR ?? '.test-data/media',
        LOG_LEVEL: 'warn',
        TILL_API_URL: `http://127.0.0.1:${FAKE_TILL_PORT}`,
        TILL_API_KEY: E2E_TILL.apiKey,
        TILL_SHARED_SECRET: E2E_TILL.sharedSecret,
        TILL_USERNAME: E2E_TILL.username,
        TILL_PASSWORD: E2E_TILL.password,
        // The dealer's webhook receiver stand-in listens on 127.0.0.1; production refuses such addresses.
        LEAD_WEBHOOK_ALLOW_PRIVATE: '1',
        // A test may be a visitor of its own address (X-Forwarded-For), as behind a load balancer:
        // limits per address (phone codes: 10 an hour) would otherwise count every test's as one
        // visitor's. Without the header the address is the socket's, as before.
        TRUSTED_PROXY_HOPS: '1',
        // Visitors' alerts swept every 2 s instead of every minute, and each sweep's finds sent at once
        // instead of in a daily digest (tests/e2e/alerts.spec.ts waits for them).
        ALERTS_SWEEP_INTERVAL_MS: '2000',
        ALERTS_DIGEST_INTERVAL_MS: '0',
      },
    },
  ],
});
