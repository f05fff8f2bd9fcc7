/**
 * Requests/s and p99 of the pages most visitors and crawlers ask for, under autocannon, against a
 * server that is already running (scripts/bench-pages.ts starts one): the home page and a content
 * page, both answered from the page cache after their first render; a search page asked for at the
 * same URL every time (cached); and a search page at a new URL on every request (a different
 * price_max each time, a real filter, so every request misses the cache and renders).
 * Targets (issue 18): home and content ≥ 500 requests/s, uncached search ≥ 100 requests/s.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { get } from './http';

export type ThroughputRow = { label: string; requestsPerSec: number; p99Ms: number; non2xx: number };

export type ThroughputOptions = {
  /** Seconds per page. */
  durationS: number;
  connections?: number;
  /** The website's slug; its host is {slug}.localhost with the origin's port. */
  tenant?: string;
  contentPath?: string;
  searchPath?: string;
  log?: (line: string) => void;
};

type Target = { label: string; path: string; cached: boolean; next?: () => string };

export const PAGE_THROUGHPUT_TARGETS: Record<string, number> = {
  'home page': 500,
  'content page': 500,
  'search page, new URL each request': 100,
};

function targets(searchPath: string, contentPath: string): Target[] {
  // Prices from $5,000 up, one dollar apart: a filter no earlier request has used.
  let price = 5_000;
  return [
    { label: 'home page', path: '/', cached: true },
    { label: 'content page', path: contentPath, cached: true },
    { label: 'search page, same URL', path: searchPath, cached: true },
    { label: 'search page, new URL each request', path: searchPath, cached: false, next: () => `${searchPath}?price_max=${++price}` },
  ];
}

/** Measures each page in turn against origin (e.g. http://127.0.0.1:3450) and returns one row per page. */
export async function measurePageThroughput(origin: string, options: ThroughputOptions): Promise<ThroughputRow[]> {
  const { durationS, connections = 20, tenant = 'harbour-city-motors', log = () => {} } = options;
  const base = new URL(origin);
  const host = `${tenant}.localhost:${base.port || 80}`;
  const rows: ThroughputRow[] = [];
  for (const target of targets(options.searchPath ?? '/search/used-cars', options.contentPath ?? '/about-us')) {
    const next = target.next ?? (() => target.path);
    // Warm-up: the page answers 200, and a cached page is in the cache before the clock starts.
    for (let i = 0; i < 2; i++) {
      const answer = await get(new URL(next(), origin).toString(), host);
      if (answer.status !== 200) throw new Error(`GET ${target.path} (Host: ${host}) answered ${answer.status} during warm-up`);
      if (i === 1 && target.cached && answer.pageCache !== 'hit') log(`  note: ${target.path} answered X-Page-Cache: ${answer.pageCache} on its second request`);
    }
    const result = await autocannon({
      url: new URL(target.path, origin).toString(),
      connections,
      duration: durationS,
      headers: { host },
      requests: [{ method: 'GET', path: target.path, setupRequest: (request) => ({ ...request, path: next() }) }],
    });
    const row = { label: target.label, requestsPerSec: Math.round(result.requests.average), p99Ms: result.latency.p99, non2xx: result.non2xx + result.errors };
    log(`  ${row.label}: ${row.requestsPerSec} requests/s, p99 ${row.p99Ms} ms, ${row.non2xx} non-2xx or errors`);
    rows.push(row);
  }
  return rows;
}

/** The rows as a Markdown table, with the target beside each page that has one. */
export function pageThroughputTable(rows: ThroughputRow[], connections = 20): string {
  const lines = [
    `| Page (${connections} connections) | Requests/s | p99 (ms) | Non-2xx | Target |`,
    '| --- | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const target = PAGE_THROUGHPUT_TARGETS[row.label];
    const verdict = target === undefined ? '' : `≥ ${target} ${row.requestsPerSec >= target && row.non2xx === 0 ? '✓' : '✗'}`;
    lines.push(`| ${row.label} | ${row.requestsPerSec.toLocaleString('en-AU')} | ${row.p99Ms} | ${row.non2xx} | ${verdict} |`);
  }
  return lines.join('\n');
}

export type RawComparisonRow = { label: string; appRequestsPerSec: number[]; rawRequestsPerSec: number[]; ratio: number; failed: number };

/** Issue 33: a page from the page cache must answer at least this share of a raw Node server's requests/s for the same bytes. */
export const RAW_RATIO_TARGET = 0.7;

type Recorded = { status: number; headers: Record<string, string | string[]>; body: string };

/** The bytes the application answers for `urlPath` from its page cache (asserted a hit), as a raw server would replay them. */
function record(origin: string, urlPath: string, host: string): Promise<Recorded & { cache: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(urlPath, origin), { headers: { host } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined && !['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) headers[name] = value;
          }
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64'), cache: String(response.headers['x-page-cache']) });
        });
      })
      .on('error', reject);
  });
}

/** Requests/s, and the requests that failed (non-2xx, errors, timeouts: a busy machine's, reported beside the figure). */
async function requestsPerSec(origin: string, urlPath: string, host: string, durationS: number, connections: number): Promise<{ rps: number; failed: number }> {
  const result = await autocannon({ url: new URL(urlPath, origin).toString(), connections, duration: durationS, headers: { host } });
  return { rps: Math.round(result.requests.average), failed: result.non2xx + result.errors };
}

/**
 * Issue 33: the home and content pages from the page cache against a plain Node server sending the
 * same bytes (scripts/bench/raw-server.mjs, in `processes` processes like the application), in the
 * same run: each page recorded from the application (a cache hit), then autocannon on the
 * application and on the raw server in turn, `rounds` times (short rounds, so that a shared
 * machine's load, which comes and goes, falls on both alike); the ratio of the two sums.
 */
export async function measureRawComparison(
  origin: string,
  options: { durationS: number; rawPort: number; processes: number; rounds?: number; connections?: number; tenant?: string; contentPath?: string; log?: (line: string) => void },
): Promise<RawComparisonRow[]> {
  const { durationS, rawPort, processes, rounds = 4, connections = 20, tenant = 'harbour-city-motors', contentPath = '/about-us', log = () => {} } = options;
  const host = `${tenant}.localhost:${new URL(origin).port || 80}`;
  const pages = [
    { label: 'home page', path: '/' },
    { label: 'content page', path: contentPath },
  ];
  const recorded: Record<string, Recorded> = {};
  for (const page of pages) {
    await record(origin, page.path, host);
    const { cache, ...bytes } = await record(origin, page.path, host);
    if (bytes.status !== 200 || cache !== 'hit') throw new Error(`${page.path} answered ${bytes.status}, X-Page-Cache: ${cache}: not a page from the cache`);
    recorded[page.path] = bytes;
  }
  const file = path.join(os.tmpdir(), `bench-raw-pages-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(recorded));
  const raw = spawn(process.execPath, [path.join(import.meta.dirname, 'raw-server.mjs'), file, String(rawPort), String(processes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      raw.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
      raw.once('exit', (code) => reject(new Error(`raw server exited (${code})`)));
    });
    const rawOrigin = `http://127.0.0.1:${rawPort}`;
    const rows: RawComparisonRow[] = [];
    for (const page of pages) {
      const row: RawComparisonRow = { label: page.label, appRequestsPerSec: [], rawRequestsPerSec: [], ratio: 0, failed: 0 };
      for (let round = 0; round < rounds; round++) {
        for (const [target, figures] of [[origin, row.appRequestsPerSec], [rawOrigin, row.rawRequestsPerSec]] as const) {
          const { rps, failed } = await requestsPerSec(target, page.path, host, durationS, connections);
          figures.push(rps);
          row.failed += failed;
        }
      }
      const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
      row.ratio = Math.round((sum(row.appRequestsPerSec) / sum(row.rawRequestsPerSec)) * 100) / 100;
      log(`  ${row.label}: page cache ${row.appRequestsPerSec.join(', ')} requests/s, raw Node ${row.rawRequestsPerSec.join(', ')} requests/s: ${row.ratio} of raw (${row.failed} failed)`);
      rows.push(row);
    }
    return rows;
  } finally {
    raw.kill('SIGTERM');
    fs.rmSync(file, { force: true });
  }
}

/** The comparison as a Markdown table, with the target (≥ RAW_RATIO_TARGET of raw). */
export function rawComparisonTable(rows: RawComparisonRow[], connections = 20): string {
  const lines = [
    `| Page (${connections} connections) | Page cache requests/s | Raw Node requests/s, same bytes | Share of raw | Failed | Target |`,
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const list = (values: number[]) => values.map((value) => value.toLocaleString('en-AU')).join(', ');
    lines.push(`| ${row.label} | ${list(row.appRequestsPerSec)} | ${list(row.rawRequestsPerSec)} | ${row.ratio.toFixed(2)} | ${row.failed} | ≥ ${RAW_RATIO_TARGET} ${row.ratio >= RAW_RATIO_TARGET && row.failed === 0 ? '✓' : '✗'} |`);
  }
  return lines.join('\n');
}
