/**
 * The search page under load: a production build in its own dist dir, served on 127.0.0.1:3300
 * from the bench's embedded database, hammered by autocannon for a fixed time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const BENCH_DIST_DIR = '.next-bench';
const serveScript = path.join(ROOT, 'scripts', 'serve.mjs');

export type LoadResult = {
  url: string;
  host: string;
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
  /** Size of one page of HTML, as a check that the page rendered cards. */
  pageBytes: number;
  /** What the page cache answered to the last warm-up request (the X-Page-Cache header). */
  pageCache: string;
};

/**
 * 'same URL': every request asks for the landing page, as most visitors do, so the page cache
 * answers after the first. 'new URL each time': a tracking parameter the page ignores
 * (?utm_content=N) makes every URL new, so every request renders: the cost of a cache miss.
 */
export type LoadMode = 'same URL' | 'new URL each time';

/**
 * Builds into .next-bench unless a build newer than every source file is there (scripts/lib.mjs).
 * `next build` adds its dist dir's type folders to tsconfig.json; the file is put back as it was.
 */
export async function buildIfNeeded(): Promise<void> {
  const tsconfig = path.join(ROOT, 'tsconfig.json');
  const before = fs.readFileSync(tsconfig);
  const code = `import { buildIfNeeded } from ${JSON.stringify(path.join(ROOT, 'scripts', 'lib.mjs'))}; await buildIfNeeded(${JSON.stringify(BENCH_DIST_DIR)});`;
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, NEXT_DIST_DIR: BENCH_DIST_DIR, NEXT_TELEMETRY_DISABLED: '1' },
      });
      child.on('error', reject);
      child.on('exit', (status) => (status === 0 ? resolve() : reject(new Error(`next build failed (exit ${status})`))));
    });
  } finally {
    if (!fs.readFileSync(tsconfig).equals(before)) fs.writeFileSync(tsconfig, before);
  }
}

export type Server = { child: ChildProcess; logFile: string; stop: () => Promise<void> };

/**
 * The server as `npm start` runs it (scripts/serve.mjs: `next start`, one process per core, on the
 * embedded database through the cluster primary that holds it) on the port (no -H: it breaks host
 * rewrites), output to logFile.
 */
export function startServer(port: number, env: Record<string, string>, logFile: string): Server {
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [serveScript, '-p', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', NEXT_DIST_DIR: BENCH_DIST_DIR, ...env },
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    logFile,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** GET with a Host header (fetch cannot set one). */
export function get(url: string, host: string): Promise<{ status: number; body: string; pageCache: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { host }, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          pageCache: String(response.headers['x-page-cache'] ?? 'none'),
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

export async function waitForServer(url: string, host: string, server: Server, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`the server exited (code ${server.child.exitCode}); see ${server.logFile}`);
    try {
      const { status } = await get(url, host);
      if (status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s; see ${server.logFile}`);
}

export async function loadTest(
  url: string,
  host: string,
  mode: LoadMode,
  options: { connections: number; durationS: number; warmupRequests: number },
): Promise<LoadResult> {
  let counter = 0;
  const nextUrl = () => (mode === 'same URL' ? url : `${url}?utm_content=${++counter}`);
  let pageBytes = 0;
  let pageCache = 'none';
  for (let i = 0; i < options.warmupRequests; i++) {
    const answer = await get(nextUrl(), host);
    if (answer.status !== 200) throw new Error(`GET ${url} (Host: ${host}) answered ${answer.status} during warm-up`);
    pageBytes = Buffer.byteLength(answer.body);
    pageCache = answer.pageCache;
  }
  const path = new URL(url).pathname;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationS,
    headers: { host },
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (request) => {
          const next = new URL(nextUrl());
          return { ...request, path: next.pathname + next.search };
        },
      },
    ],
  });
  const requests = result.requests.total ?? Math.round(result.requests.average * result.duration);
  return {
    url,
    host,
    connections: options.connections,
    durationS: options.durationS,
    requests,
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    pageBytes,
    pageCache,
  };
}
