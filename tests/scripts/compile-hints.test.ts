import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { addCompileHints } from '../../scripts/compile-hints.mjs';

/**
 * Decision 061: after the build, the chunks a page runs at start (the build manifest's root chunks
 * and each route's entry chunks in its client reference manifest) begin with V8's compile hint;
 * a chunk only loaded later, and the polyfills, do not.
 */

const HINT = '//# allFunctionsCalledOnLoad\n';
let distDir = '';
afterEach(() => fs.rmSync(distDir, { recursive: true, force: true }));

function write(relative: string, text: string) {
  const file = path.join(distDir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function fakeBuild() {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-hints-'));
  write('build-manifest.json', JSON.stringify({ polyfillFiles: ['static/chunks/polyfills.js'], rootMainFiles: ['static/chunks/react.js', 'static/chunks/runtime.js'] }));
  const manifest = (route: string, entry: Record<string, string[]>) =>
    `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST[${JSON.stringify(route)}] = ${JSON.stringify({ clientModules: {}, entryJSFiles: entry })};`;
  write('server/app/(site)/page_client-reference-manifest.js', manifest('/(site)/page', { '[project]/src/app/(site)/layout': ['static/chunks/layout.js', 'static/chunks/layout.css'] }));
  write('server/app/(site)/cars/[slug]/page_client-reference-manifest.js', manifest('/(site)/cars/[slug]/page', { '[project]/src/app/(site)/cars/[slug]/page': ['static/chunks/layout.js', 'static/chunks/car.js'] }));
  for (const name of ['react', 'runtime', 'layout', 'car', 'dialog', 'polyfills']) write(`static/chunks/${name}.js`, `self.${name}=function(){return 1};`);
  write('static/chunks/layout.css', 'a{color:red}');
}

const read = (name: string) => fs.readFileSync(path.join(distDir, 'static/chunks', name), 'utf8');

describe('compile hints on the startup chunks', () => {
  it('marks the root and entry chunks once, and leaves later chunks, the polyfills and styles alone', () => {
    fakeBuild();
    expect(addCompileHints(distDir)).toBe(4);
    for (const name of ['react.js', 'runtime.js', 'layout.js', 'car.js']) expect(read(name)).toBe(`${HINT}self.${name.slice(0, -3)}=function(){return 1};`);
    expect(read('dialog.js')).toBe('self.dialog=function(){return 1};');
    expect(read('polyfills.js')).toBe('self.polyfills=function(){return 1};');
    expect(read('layout.css')).toBe('a{color:red}');
    // A second run (a rebuild that kept the files, or `npm run build` twice) changes nothing.
    expect(addCompileHints(distDir)).toBe(0);
    expect(read('car.js').startsWith(HINT + HINT)).toBe(false);
  });
});
