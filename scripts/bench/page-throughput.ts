/**
 * Requests/s and p99 of the pages most visitors and crawlers ask for, under autocannon, against a
 * server that is already running (scripts/bench-pages.ts starts one): the home page and a content
 * page, both answered from the page cache after their first render; a search page asked for at the
 * same URL every time (cached); and a search page at a new URL on every request (a different
 * price_max each time, a real filter, so every request misses the cache and renders).
 * Targets (issue 18): home and content ≥ 500 requests/s, uncached search ≥ 100 requests/s.
 */
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
