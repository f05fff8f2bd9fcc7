import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '@/db/client';
import { apiKeys, dealerships, websites } from '@/modules/tenancy/tenancy.schema';
import { verifySecret } from '@/lib/http';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

async function runScript(script: string, args: string[], dataDir: string) {
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', path.join(ROOT, 'scripts', script), ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// The scripts open the embedded database of DATA_DIR; this folder runs in the PGlite project only.
describe('the stock:import and apikey:create scripts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stock-import-'));

  beforeAll(async () => {
    const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    const [site] = await handle.db.insert(websites).values({ slug: 'script-motors', name: 'Script Motors', config: {} }).returning();
    await handle.db.insert(dealerships).values({ websiteId: site.id, slug: 'script-motors-dealer', name: 'Script Motors' });
    await handle.close();
  });

  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('imports the CSV fixture, prints a line per row and the totals, and exits 1 because rows were rejected', async () => {
    const { code, stdout } = await runScript('stock-import.ts', ['--website', 'script-motors', path.join(FIXTURES, 'stock-import.csv')], dataDir);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('row 1: accepted toyota-corolla-2021-t1001');
    expect(lines[3]).toBe('row 4: rejected – year: must not be more than 2 years ahead; price: must be at least 0');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('3 accepted, 7 rejected');
    expect(code).toBe(1);
  });

  it('exits 0 when every row is accepted', async () => {
    const good = path.join(dataDir, 'good.json');
    fs.writeFileSync(good, JSON.stringify([{ slug: 'only-good', make: 'Kia', model: 'Rio', year: 2020, car_type: 'used' }]));
    const { code, stdout } = await runScript('stock-import.ts', ['--website', 'script-motors', good], dataDir);
    expect(stdout.trim().split('\n')).toEqual(['row 1: accepted only-good', '1 accepted, 0 rejected']);
    expect(code).toBe(0);
  });

  it('exits 2 on unusable input: missing file, unreadable CSV, unknown website, no arguments', async () => {
    const bad = path.join(dataDir, 'bad.csv');
    fs.writeFileSync(bad, 'slug,make\n"unterminated,Toyota\n');
    const missing = await runScript('stock-import.ts', ['--website', 'script-motors', path.join(dataDir, 'nope.csv')], dataDir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
    const unreadable = await runScript('stock-import.ts', ['--website', 'script-motors', bad], dataDir);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/unreadable CSV/);
    const unknown = await runScript('stock-import.ts', ['--website', 'no-such-site', path.join(FIXTURES, 'stock-import.csv')], dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No website/);
    expect((await runScript('stock-import.ts', [], dataDir)).code).toBe(2);
  });

  it('creates an API key, printing the secret once and storing only its hash', async () => {
    const { code, stdout } = await runScript('apikey-create.ts', ['--dealership', 'script-motors-dealer'], dataDir);
    expect(code).toBe(0);
    const keyId = /key id:\s+(dk_[0-9a-f]{24})/.exec(stdout)?.[1];
    const secret = /secret:\s+([A-Za-z0-9_-]{43})/.exec(stdout)?.[1];
    expect(keyId && secret).toBeTruthy();
    expect(stdout).toContain(`curl -u '${keyId}:${secret}' http://script-motors.localhost:3000/websites/`);
    const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const [row] = await handle.db.select().from(apiKeys).where(eq(apiKeys.keyId, keyId!));
      expect(row.secretHash).not.toContain(secret!);
      expect(await verifySecret(secret!, row.secretHash)).toBe(true);
    } finally {
      await handle.close();
    }
    expect((await runScript('apikey-create.ts', ['--dealership', 'nobody'], dataDir)).code).toBe(1);
  });
});
