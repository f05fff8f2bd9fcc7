// After `next build` (decision 061): the client chunks a page runs as it starts (the framework's
// root chunks and each route's entry chunks) begin with V8's explicit compile hint, so Chromium
// compiles their functions on the thread that streams the script instead of one by one on the main
// thread as they are first called. Chunks loaded later (a dialog, the payment step) are left lazy.
// `node scripts/compile-hints.mjs [distDir]` runs it alone; it is idempotent.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

function filesUnder(directory, name) {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile() && entry.name === name).map((entry) => path.join(entry.parentPath, entry.name));
}

/** The chunks every page and each route load at start, as paths relative to the dist dir ('static/chunks/…'). */
export function startupChunks(distDir) {
  const chunks = new Set(JSON.parse(fs.readFileSync(path.join(distDir, 'build-manifest.json'), 'utf8')).rootMainFiles ?? []);
  for (const file of filesUnder(path.join(distDir, 'server', 'app'), 'page_client-reference-manifest.js')) {
    // The manifest is a script that assigns globalThis.__RSC_MANIFEST[route]; run it in an empty context.
    const context = vm.createContext({});
    vm.runInContext(fs.readFileSync(file, 'utf8'), context);
    for (const manifest of Object.values(context.__RSC_MANIFEST ?? {})) {
      for (const files of Object.values(manifest.entryJSFiles ?? {})) for (const chunk of files) chunks.add(chunk.replace(/^\/_next\//, ''));
    }
  }
  return [...chunks].filter((chunk) => chunk.endsWith('.js'));
}

/** Adds the hint to each startup chunk that lacks it; returns how many files it changed. */
export function addCompileHints(distDir) {
  let changed = 0;
  for (const chunk of startupChunks(distDir)) {
    const file = path.join(distDir, chunk);
    const source = fs.readFileSync(file, 'utf8');
    if (source.startsWith(COMPILE_HINT)) continue;
    fs.writeFileSync(file, COMPILE_HINT + source);
    changed += 1;
  }
  return changed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const distDir = path.resolve(process.argv[2] ?? process.env.NEXT_DIST_DIR ?? '.next');
  console.log(`Compile hints: ${addCompileHints(distDir)} startup chunks marked in ${path.relative(process.cwd(), distDir) || '.'}`);
}
