// Helpers shared by the start, test and e2e scripts (plain Node, no build step needed).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * Runs a command, streaming its output; resolves with its exit code. onLine gets its stdout line by
 * line, onOutput its stdout and stderr as they come (both need piped stdio).
 */
export function run(command, args, { onLine, onOutput, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    if (onOutput) for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk) => onOutput(String(chunk)));
    if (onLine && child.stdout) {
      let buffered = '';
      child.stdout.on('data', (chunk) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop();
        lines.forEach(onLine);
      });
      child.stdout.on('end', () => buffered && onLine(buffered));
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function runOrExit(command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) process.exit(code);
}

export function tsx(script, args = [], options = {}) {
  return run(bin('tsx'), ['--conditions=react-server', script, ...args], options);
}

const BUILD_INPUTS = ['src', 'scripts/compile-hints.mjs', 'next.config.ts', 'postcss.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Builds the production bundle unless one newer than every source file exists. */
export async function buildIfNeeded(distDir = process.env.NEXT_DIST_DIR ?? '.next') {
  const buildId = path.join(root, distDir, 'BUILD_ID');
  const built = fs.statSync(buildId, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...BUILD_INPUTS.map((entry) => newestMtime(path.join(root, entry))));
  if (built > sources) return;
  console.log(built ? 'Sources changed since the last build: building…' : 'No production build yet: building…');
  // `next build` adds the dist dir's type folders to tsconfig.json. Put back as it was, mtime
  // included: a newer tsconfig.json would make the next call build again.
  const tsconfig = path.join(root, 'tsconfig.json');
  const before = { text: fs.readFileSync(tsconfig), stat: fs.statSync(tsconfig) };
  await runOrExit(bin('next'), ['build'], { env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  const { addCompileHints } = await import('./compile-hints.mjs');
  addCompileHints(path.join(root, distDir));
  if (!fs.readFileSync(tsconfig).equals(before.text)) {
    fs.writeFileSync(tsconfig, before.text);
    fs.utimesSync(tsconfig, before.stat.atime, before.stat.mtime);
  }
}

/**
 * How many server processes scripts/serve.mjs runs: one per core (WEB_CONCURRENCY overrides), on a
 * PostgreSQL server and on the embedded database alike (there the cluster primary holds it for
 * them, decision 046).
 */
export function serverProcessCount(env = process.env, cores = os.availableParallelism()) {
  const asked = Number(env.WEB_CONCURRENCY);
  return Number.isInteger(asked) && asked > 0 ? asked : cores;
}

/**
 * Imports a TypeScript module of the application into this plain-Node process the way the operator
 * scripts run (tsx, with the react-server condition that lets `server-only` modules load): for the
 * cluster primary of scripts/serve.mjs, which holds the embedded database for its server processes.
 * The server processes it forks do not inherit the loader.
 */
export async function importServerModule(file) {
  const { register } = await import('node:module');
  const condition = `export async function resolve(specifier, context, next) {
    return next(specifier, { ...context, conditions: [...context.conditions, 'react-server'] });
  }`;
  register(`data:text/javascript,${encodeURIComponent(condition)}`);
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx({ tsconfig: path.join(root, 'tsconfig.json') });
  return import(pathToFileURL(path.join(root, file)).href);
}

export function startServer(port, env = process.env) {
  // No -H: with -H 127.0.0.1 Next mistakes its own host rewrites for another origin (see playwright.config.ts).
  return spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), '-p', String(port)], {
    cwd: root,
    stdio: 'inherit',
    env: { NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
  });
}

export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
