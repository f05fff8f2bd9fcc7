/**
 * The stock-search benchmark's figures as Markdown, written into its own section of
 * docs/benchmarks.md (between markers, so other benchmarks' sections stay as they are).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadMode, LoadResult } from './http';
import type { KindResult, Scope } from './queries';

export const TARGET_MS: Record<Scope, number> = { 'one website': 10, 'all websites': 40 };
/**
 * Kinds with a tighter p95 target than their scope's (ms): a stock number across all websites is a
 * map lookup in the stock index (issue 34, decision 062), as in a dedicated search engine.
 */
export const KIND_TARGET_MS: Partial<Record<`${Scope} · ${string}`, number>> = { 'all websites · stock number': 0.5 };

/** The p95 target of a kind in a scope (ms). */
export function targetMs(result: Pick<KindResult, 'scope' | 'kind'>): number {
  return KIND_TARGET_MS[`${result.scope} · ${result.kind}`] ?? TARGET_MS[result.scope];
}
/** Requests/s: the page as visitors ask for it (same URL, from the page cache), and every request a render (issue 18). */
export const TARGET_RPS: Record<LoadMode, number> = { 'same URL': 150, 'new URL each time': 100 };
/** Uncached renders/s of this page before issue 18 (2026-11-21, PGlite), reported beside today's. */
const UNCACHED_BEFORE_RPS = 34;
/** A 1-minute load average above this before or after the run means something else was using the CPU. */
export const BUSY_LOAD = 0.8;

export type Machine = {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
  postgres: string | null;
  pglite: string;
  /** 1-minute load average when the run started (before the benchmark's own work): other work on the machine skews the figures. */
  loadStart: number;
};

/**
 * The CPU as benchmark reports name it. Cloud machines of this workplace all report 'AMD EPYC' or
 * 'Intel(R) Xeon(R) Processor' whatever their generation, and two EPYC generations differ by more
 * than half in render throughput, so the x86 family and model are added (family 26 is Zen 5).
 */
export function cpuName(): string {
  const fallback = os.cpus()[0]?.model ?? 'unknown';
  let info: string;
  try {
    info = fs.readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return fallback; // not Linux
  }
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(info)?.[1].trim();
  const model = field('model name') ?? fallback;
  const family = field('cpu family');
  return family ? `${model} (family ${family}, model ${field('model')})` : model;
}

export function machine(versions: { postgres: string | null; pglite: string; loadStart: number }): Machine {
  return {
    cpu: cpuName(),
    cores: os.availableParallelism(),
    ramGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    ...versions,
  };
}

export type DatabaseFigures = { label: string; results: KindResult[] };

export type Report = {
  date: Date;
  machine: Machine;
  dataset: string;
  databases: DatabaseFigures[];
  /** The search page under load, per database the server ran on. */
  /** Per database and mode, the run with the median requests/s, and every run's requests/s in order. */
  loads: Array<{ label: string; mode: LoadMode; result: LoadResult; runs: number[] }>;
  loadSkipped: string | null;
};

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const met = (ok: boolean) => (ok ? 'met' : '**missed**');

export function loadMet(mode: LoadMode, result: LoadResult): boolean {
  return result.requestsPerSecond >= TARGET_RPS[mode] && result.non2xx === 0 && result.errors === 0;
}

function loadVerdict(mode: LoadMode, result: LoadResult): string {
  return `≥ ${TARGET_RPS[mode]}/s ${met(loadMet(mode, result))}`;
}

export function kindMet(result: KindResult): boolean {
  return result.p95 <= targetMs(result);
}

function databaseTable(figures: DatabaseFigures): string[] {
  const lines = [
    `| scope | query | runs | p50 ms | p95 ms | p99 ms | hits (median) | p95 target |`,
    `|---|---|--:|--:|--:|--:|--:|---|`,
  ];
  for (const r of figures.results) {
    lines.push(
      `| ${r.scope} | ${r.kind} | ${r.iterations} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.medianHits.toLocaleString('en-AU')} | ≤ ${targetMs(r)} ms ${met(kindMet(r))} |`,
    );
  }
  return lines;
}

export function summaryLines(report: Report): string[] {
  const lines: string[] = [];
  for (const db of report.databases) {
    for (const scope of ['one website', 'all websites'] as const) {
      const rows = db.results.filter((r) => r.scope === scope);
      if (rows.length === 0) continue;
      const worst = rows.reduce((a, b) => (b.p95 > a.p95 ? b : a));
      const missed = rows.filter((r) => !kindMet(r));
      lines.push(
        `${db.label}, ${scope}: worst p95 ${ms(worst.p95)} ms (${worst.kind}) — target ≤ ${TARGET_MS[scope]} ms ${missed.length === 0 ? 'met' : `missed by ${missed.length} of ${rows.length} kinds (${missed.map((r) => `${r.kind}: ${ms(r.p95)} ms > ${targetMs(r)} ms`).join(', ')})`}`,
      );
      for (const r of rows.filter((row) => targetMs(row) !== TARGET_MS[scope])) {
        lines.push(`${db.label}, ${scope}, ${r.kind}: p50 ${ms(r.p50)} ms, p95 ${ms(r.p95)} ms — target ≤ ${targetMs(r)} ms ${kindMet(r) ? 'met' : 'missed'}`);
      }
    }
  }
  for (const { label, mode, result: l, runs } of report.loads) {
    lines.push(
      `search page on ${label}, ${mode}: ${l.requestsPerSecond.toFixed(1)} requests/s${runs.length > 1 ? ` (median of ${runs.length} runs: ${runs.map((r) => r.toFixed(1)).join(', ')})` : ''}, p99 ${l.latencyP99} ms, ${l.non2xx} non-2xx — target ≥ ${TARGET_RPS[mode]}/s ${loadMet(mode, l) ? 'met' : 'missed'}${mode === 'same URL' ? '' : ` (every request renders; ${UNCACHED_BEFORE_RPS}/s before issue 18)`}`,
    );
  }
  if (report.loads.length === 0 && report.loadSkipped) {
    lines.push(`search page: not measured (${report.loadSkipped})`);
  }
  return lines;
}

export function renderSection(report: Report): string {
  const m = report.machine;
  const out: string[] = [
    '## Stock search (`npm run bench:search`)',
    '',
    `Measured ${report.date.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, ${m.os}, Node ${m.node}; ` +
      `PGlite ${m.pglite}${m.postgres ? `; PostgreSQL server ${m.postgres}` : '; no PostgreSQL server (DATABASE_URL unset)'}. ` +
      `Load average (1 min) ${m.loadStart.toFixed(2)} when the run started` +
      `${m.loadStart > BUSY_LOAD ? ' — **other work was running on the machine: the figures are pessimistic**' : ' (the machine was otherwise idle)'}.`,
    '',
    `Data set: ${report.dataset}`,
    '',
    'Each query runs through `SqlSearchEngine.search()` and is timed in the benchmark process with ' +
      '`performance.now()` (so the figures include the driver round trip and the shaping of the response). ' +
      '"one website" rotates over the 50 websites; "all websites" searches the 50 at once. Unless the kind says ' +
      'otherwise, a query asks for the sidebar facets (location, car type, make, make and model, colour, body, ' +
      'transmission, drive, fuel, dealership, price, km, year) and the first 24 hits, sorted by the default ' +
      '(custom rank). Warm-up: one run per website (one website) or 5 runs (all websites) per kind before the timed runs. ' +
      '"just after a stock change" changes the price of one car of the searched website (and bumps its stock version) ' +
      'before each timed run, untimed: the first visitor after a dealer\'s update. Searches count over the stock index ' +
      '(decision 020), a copy of the searched columns and the cards in the benchmark process, which also makes the ' +
      'page of hits (decision 072); the search after a change reads the changed car again before it counts. The index ' +
      'is loaded during the warm-up. The engine is given the generations the process keeps, as the server\'s is ' +
      '(decision 071). Targets: p95 ≤ 10 ms for one website, ≤ 40 ms across all websites; a stock number across all ' +
      'websites ≤ 0.5 ms (a map lookup in the stock index, decision 062).',
    '',
  ];
  for (const db of report.databases) {
    out.push(`### ${db.label}`, '', ...databaseTable(db), '');
  }
  out.push('### Search page under load', '');
  const [firstLoad] = report.loads;
  if (firstLoad) {
    const l = firstLoad.result;
    out.push(
      `autocannon, ${l.connections} connections for ${l.durationS} s, ${firstLoad.runs.length === 1 ? 'once' : `${firstLoad.runs.length} times (the run with the median requests/s shown; one run moves by ±20 % from the next on this machine)`}, against \`${l.url}\` with \`Host: ${l.host}\` ` +
        '(production build, `next start` on 127.0.0.1 with the data set above; autocannon runs on the same machine). ' +
        `One page is ${Math.round(l.pageBytes / 1024)} KiB of HTML. ` +
        '"same URL": every request asks for the landing page, as most visitors do, so the page cache (src/lib/page-cache.ts) ' +
        'answers after the first render, checking the stock version in the database each time. ' +
        '"new URL each time": `?utm_content=N`, which the page ignores, makes every URL new, so every request renders: ' +
        `what cache misses cost (${UNCACHED_BEFORE_RPS} requests/s on PGlite before issue 18). "page cache" is the X-Page-Cache header of the last warm-up answer.`,
      '',
      `| database | URLs | page cache | requests | requests/s (mean) | every run, requests/s | latency p50 ms | latency p99 ms | non-2xx | errors | target |`,
      '|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|',
      ...report.loads.map(
        ({ label, mode, result: r, runs }) =>
          `| ${label} | ${mode} | ${r.pageCache} | ${r.requests.toLocaleString('en-AU')} | ${r.requestsPerSecond.toFixed(1)} | ${runs.map((x) => x.toFixed(1)).join(', ')} | ${r.latencyP50} | ${r.latencyP99} | ${r.non2xx} | ${r.errors} | ${loadVerdict(mode, r)} |`,
      ),
      '',
    );
  } else {
    out.push(`Not measured in this run: ${report.loadSkipped ?? 'skipped'}.`, '');
  }
  out.push('### Summary', '', ...summaryLines(report).map((line) => `- ${line}`), '');
  return out.join('\n');
}

/** Replaces a benchmark's section (bench:search by default) of docs/benchmarks.md, creating the file or the section. */
export function writeSection(root: string, section: string, name = 'search'): string {
  const START = `<!-- bench:${name} -->`;
  const END = `<!-- /bench:${name} -->`;
  const file = path.join(root, 'docs', 'benchmarks.md');
  const block = `${START}\n${section.trimEnd()}\n${END}`;
  let text = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : '# Benchmarks\n\nFigures written by the `npm run bench:*` scripts; each script rewrites only its own section.\n';
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start >= 0 && end > start) text = `${text.slice(0, start)}${block}${text.slice(end + END.length)}`;
  else text = `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, text);
  return file;
}
