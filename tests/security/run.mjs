// `npm run test:security`: the hostile-request probe (tests/security/probe.ts) against the
// production build on 127.0.0.1, with a freshly seeded embedded database of its own. Reuses the
// e2e build when it is current. The server trusts one proxy hop (TRUSTED_PROXY_HOPS=1), so the
// probe can play many clients through X-Forwarded-For, as a load balancer would add it, and check
// that what a client writes before that entry never counts.
import fs from 'node:fs';
import path from 'node:path';
import { buildIfNeeded, root, startServer, tsx, waitForHttp } from '../../scripts/lib.mjs';

const port = Number(process.env.SECURITY_PORT ?? 3260);
const dataDir = path.resolve(root, process.env.SECURITY_DATA_DIR ?? '.test-data/security');
const mediaDir = path.resolve(root, process.env.E2E_MEDIA_DIR ?? '.test-data/media');
fs.rmSync(dataDir, { recursive: true, force: true });

await buildIfNeeded();
const { DATABASE_URL: _serverDatabase, ...inherited } = process.env;
const env = { ...inherited, DATA_DIR: dataDir, MEDIA_DIR: mediaDir };
if ((await tsx('scripts/db-prepare.ts', [], { env, stdio: ['inherit', 'ignore', 'inherit'] })) !== 0) process.exit(1);

/** Dashboard API keys of two dealerships on two websites, made before the server takes the database. */
async function apiKey(dealership) {
  const key = {};
  const code = await tsx('scripts/apikey-create.ts', ['--dealership', dealership], {
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
    onLine: (line) => {
      const [, name, value] = /^\s*(key id|secret|website id|dealership id):\s+(\S+)/.exec(line) ?? [];
      if (name) key[name] = value;
    },
  });
  if (code !== 0 || !key['key id'] || !key.secret || !key['dealership id']) throw new Error(`no API key for ${dealership}`);
  return { credentials: `${key['key id']}:${key.secret}`, dealershipId: key['dealership id'] };
}
const keys = { a: await apiKey('harbour-city-mazda'), b: await apiKey('kiwi-motors') };

const server = startServer(port, { ...env, LOG_LEVEL: 'error', TRUSTED_PROXY_HOPS: '1', LEAD_WORKER: '0' });
let code = 1;
try {
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, 120_000);
  code = await tsx('tests/security/probe.ts', [], {
    env: {
      ...process.env,
      SECURITY_PORT: String(port),
      SECURITY_KEY_A: keys.a.credentials,
      SECURITY_KEY_B: keys.b.credentials,
      SECURITY_DEALERSHIP_A: keys.a.dealershipId,
      SECURITY_DEALERSHIP_B: keys.b.dealershipId,
    },
  });
} finally {
  server.kill('SIGTERM');
}
process.exit(code);
