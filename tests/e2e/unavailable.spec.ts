import { spawn, type ChildProcess } from 'node:child_process';
import { E2E_PORT } from '../../playwright.config';
import { expect, test } from './support';

// A second server on the same build whose database cannot be reached (nothing listens on port 1).
const PORT = E2E_PORT + 7;
let server: ChildProcess;

test.beforeAll(async () => {
  server = spawn('node_modules/.bin/next', ['start', '-p', String(PORT)], {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'fatal' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 120; i++) {
    try {
      await fetch(`http://127.0.0.1:${PORT}/api/health`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error('the second server did not start');
});

test.afterAll(() => {
  server?.kill();
});

test('with the database down, the search page is a friendly 503 that asks to try again', async ({ page }) => {
  const response = await page.goto(`http://harbour-city-motors.localhost:${PORT}/search/new-used-and-demo-cars?make=Mazda`);
  expect(response?.status()).toBe(503);
  expect(response?.headers()['retry-after']).toBe('30');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We will be right back');
  await expect(page.getByRole('link', { name: 'Try again' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(/ECONNREFUSED|Error:|at /);
});

test('with the database down, the search API answers 503 JSON', async ({ request }) => {
  const response = await request.post(`http://127.0.0.1:${PORT}/api/search`, {
    headers: { Host: 'harbour-city-motors.localhost', 'Content-Type': 'application/json' },
    data: {},
  });
  expect(response.status()).toBe(503);
  expect(await response.json()).toEqual({ error: expect.stringContaining('unavailable') });
});
