// Prepares a fresh demo database for the browser tests, then runs Playwright against the
// production build. The database is new each run; generated photos are kept between runs.
import fs from 'node:fs';
import path from 'node:path';
import { buildIfNeeded, root, run, tsx } from '../../scripts/lib.mjs';

// E2E_DATA_DIR / E2E_MEDIA_DIR let several runs (e.g. one spec each) use databases of their own.
const dataDir = path.resolve(root, process.env.E2E_DATA_DIR ?? '.test-data/e2e');
const mediaDir = path.resolve(root, process.env.E2E_MEDIA_DIR ?? '.test-data/media');
fs.rmSync(dataDir, { recursive: true, force: true });

await buildIfNeeded();
// The browser tests always run on the embedded database, as `npm start` does on a fresh clone.
const { DATABASE_URL: _serverDatabase, ...inherited } = process.env;
// The dealer's webhook receiver stand-in is on 127.0.0.1: allowed only when the variable says so.
const env = { ...inherited, DATA_DIR: dataDir, MEDIA_DIR: mediaDir, LEAD_WEBHOOK_ALLOW_PRIVATE: '1' };
if ((await tsx('scripts/db-prepare.ts', [], { env, stdio: ['inherit', 'ignore', 'inherit'] })) !== 0) process.exit(1);

// A Dashboard API key for the stock-sync journey, made before the server takes the database.
const key = {};
const made = await tsx('scripts/apikey-create.ts', ['--dealership', 'harbour-city-mazda'], {
  env,
  stdio: ['inherit', 'pipe', 'inherit'],
  onLine: (line) => {
    const [, name, value] = /^\s*(key id|secret):\s+(\S+)/.exec(line) ?? [];
    if (name) key[name] = value;
  },
});
if (made !== 0 || !key['key id'] || !key.secret) {
  console.error('Could not create the e2e Dashboard API key.');
  process.exit(1);
}

// harbour-city-mazda's lead webhook (its reservations on harbour-city-motors among them) to the
// receiver stand-in Playwright starts (FAKE_WEBHOOK_PORT of playwright.config.ts), which checks
// each POST's signature with the secret made here.
const webhookPort = Number(process.env.E2E_PORT ?? 3200) + 10_001;
let webhookSecret = '';
const hooked = await tsx('scripts/leads-webhook.ts', ['--dealership', 'harbour-city-mazda', '--url', `http://127.0.0.1:${webhookPort}/dealer/leads`], {
  env,
  stdio: ['inherit', 'pipe', 'inherit'],
  onLine: (line) => (webhookSecret = /^\s*secret:\s+(\S+)/.exec(line)?.[1] ?? webhookSecret),
});
if (hooked !== 0 || !webhookSecret) {
  console.error('Could not set the e2e dealer webhook.');
  process.exit(1);
}

const code = await run(path.join(root, 'node_modules/.bin/playwright'), ['test', ...process.argv.slice(2)], {
  env: { ...env, E2E_DATA_DIR: dataDir, E2E_MEDIA_DIR: mediaDir, E2E_API_KEY_ID: key['key id'], E2E_API_SECRET: key.secret, E2E_WEBHOOK_SECRET: webhookSecret },
});
process.exit(code);
