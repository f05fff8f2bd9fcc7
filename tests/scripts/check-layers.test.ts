import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The layer check of `npm run lint` (scripts/check-layers.mjs, decision 063), run on small trees
 * written here with the project's own rules: each rule of the decision must refuse its break.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const trees: string[] = [];

type Exception = { from: string; to: string; reason: string };

/** A tree of files (path → source) with a tsconfig for '@/…' and a config of the project's rules and these exceptions. */
function tree(files: Record<string, string>, exceptions: Exception[] = []): { dir: string; config: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  trees.push(dir);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./src/*'] }, moduleResolution: 'bundler', module: 'esnext' } }));
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), source);
  }
  const config = path.join(dir, 'layers.cjs');
  fs.writeFileSync(
    config,
    `const rules = require(${JSON.stringify(path.join(ROOT, '.dependency-cruiser.cjs'))});\n` +
      `module.exports = { forbidden: rules.forbidden, options: rules.options };\n` +
      `Object.defineProperty(module.exports, 'EXCEPTIONS', { value: ${JSON.stringify(exceptions)}, enumerable: false });\n`,
  );
  return { dir, config };
}

function check({ dir, config }: { dir: string; config: string }): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts/check-layers.mjs')], { env: { ...process.env, LAYERS_ROOT: dir, LAYERS_CONFIG: config } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

// Two domains and tenancy, side by side as the decision wants them.
const GOOD = {
  'src/lib/format.ts': 'export const format = (n: number) => String(n);\n',
  'src/modules/tenancy/tenancy.config.ts': "import { format } from '@/lib/format';\nexport const site = format(1);\n",
  'src/modules/stock/stock.queries.ts': "import { site } from '@/modules/tenancy/tenancy.config';\nexport const cars = () => site;\n",
  'src/modules/stock/server.ts': "export { cars } from './stock.queries';\n",
  'src/modules/leads/leads.commands.ts': "import { cars } from '@/modules/stock/server';\nexport const lead = () => cars();\n",
  'src/screens/car-page.tsx': "import { lead } from '@/modules/leads/leads.commands';\nexport const page = () => lead();\n",
};

afterEach(() => {
  for (const dir of trees.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the layer check (decision 063)', () => {
  it('passes domains that reach each other through their faces, in one direction', async () => {
    const result = await check(tree(GOOD));
    expect(result.output).toMatch(/^Layers ok/);
    expect(result.code).toBe(0);
  });

  it('refuses two domains that import each other, even through their faces', async () => {
    const result = await check(
      tree({
        ...GOOD,
        'src/modules/leads/server.ts': "export { lead } from './leads.commands';\n",
        'src/modules/stock/stock.rules.ts': "import { lead } from '@/modules/leads/server';\nexport const rule = () => lead();\n",
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('no-module-loops: leads, stock import each other');
  });

  it("refuses another domain's file reached past its face, and a domain importing a screen", async () => {
    const result = await check(
      tree({
        ...GOOD,
        'src/modules/leads/leads.email.ts': "import { cars } from '@/modules/stock/stock.queries';\nimport { page } from '@/screens/car-page';\nexport const email = () => [cars(), page()];\n",
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('other-domains-through-their-face: src/modules/leads/leads.email.ts → src/modules/stock/stock.queries.ts');
    expect(result.output).toContain('domains-below-screens: src/modules/leads/leads.email.ts → src/screens/car-page.tsx');
  });

  it('refuses the platform importing a domain, and tenancy importing another domain', async () => {
    const result = await check(
      tree({
        ...GOOD,
        'src/lib/money.ts': "import { site } from '@/modules/tenancy/tenancy.config';\nexport const money = () => site;\n",
        'src/modules/tenancy/tenancy.queries.ts': "import { cars } from '@/modules/stock/server';\nexport const q = () => cars();\n",
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('platform-below-domains: src/lib/money.ts → src/modules/tenancy/tenancy.config.ts');
    expect(result.output).toContain('tenancy-below-domains: src/modules/tenancy/tenancy.queries.ts → src/modules/stock/server.ts');
  });

  it('lets a listed exception through, and fails when a listed exception no longer occurs', async () => {
    const deep = { ...GOOD, 'src/modules/leads/leads.email.ts': "import { cars } from '@/modules/stock/stock.queries';\nexport const email = () => cars();\n" };
    const listed = { from: 'src/modules/leads/leads.email.ts', to: 'src/modules/stock/stock.queries.ts', reason: 'a test' };
    expect((await check(tree(deep, [listed]))).code).toBe(0);
    const stale = await check(tree(GOOD, [listed]));
    expect(stale.code).toBe(1);
    expect(stale.output).toContain('exception no longer needed');
  });

  it('allows at most 10 exceptions', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({ from: `src/modules/leads/f${i}.ts`, to: 'src/modules/stock/stock.queries.ts', reason: 'a test' }));
    const files = Object.fromEntries(eleven.map((e) => [e.from, "import { cars } from '@/modules/stock/stock.queries';\nexport const f = () => cars();\n"]));
    const result = await check(tree({ ...GOOD, ...files }, eleven));
    expect(result.code).toBe(1);
    expect(result.output).toContain('11 exceptions listed; at most 10');
  });
});
