import { createHash } from 'node:crypto';
import { APPLY_ON_CHANGE_SOURCE } from './apply-on-change';
import { LOADER_SOURCE } from './deferred-scripts';

/**
 * The inline scripts of a rendered page that are the platform's own, as CSP hashes (decision 040).
 *
 * Not every inline script on the page: one that got into the markup some other way (a dealer's
 * content that escaped the sanitiser) must stay blocked, so a script is allowed only if it has one
 * of the shapes the platform writes, and those shapes only pass data to code that is already there:
 * - the deferred-scripts loader (decision 035) and the apply-on-change script (decision 060),
 *   character for character;
 * - Next's flight data, `(self.__next_f=self.__next_f||[]).push([0])` and
 *   `self.__next_f.push(<JSON>)`, and Turbopack's chunk list, `(globalThis["TURBOPACK"] || …).push(<JSON>);`;
 * - React's streaming instructions: its own runtime functions (known by length and SHA-256, from
 *   the React that Next ships; `platform-scripts.test.ts` reads them from Next's runtime, so an
 *   upgrade that changes them fails there) and then one call such as `$RC("B:0","S:0")` whose
 *   arguments are JSON.
 * Data blocks (`type="application/ld+json"`, `application/json`) are not run, so CSP does not ask.
 */

const NEXT_FLIGHT_START = '(self.__next_f=self.__next_f||[]).push([0])';
const DATA_CALLS = ['self.__next_f.push(', '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push('];

/** React 19's instruction runtime pieces (react-dom-server), each [length, SHA-256 base64]. */
export const REACT_RUNTIME_PIECES: ReadonlyArray<readonly [number, string]> = [
  [57, '7mu4H06fwDCjmnxxr/xNHyuQC6pLTHr4M2E4jXw5WZs='], // requestAnimationFrame(function(){$RT=…})
  [193, 'rkPyhj2kmK5uKX6SivS3u1ga+pNajy8xBWBiEPXhNMA='], // $RS=function… (segments)
  [829, 'ejxEGil7Q2jnFo9T1EMjhzsRoWDTVn8tRpUYd4XCJkY='], // $RB=[];$RV=…;$RC=function… (boundaries)
  [1105, 'QwTTcUY6X/W9qbI8vPXdsBAoBq5Xi/MvMAMV2FEeJpk='], // $RM=new Map;$RR=function… (boundaries with styles)
  [200, '5TqIdh80KgjiD5uUtz2OhDa5DlGt33xJV6lK4XUE+Yo='], // $RX=function… (client render)
  [201, 'HIwET9YbpCDSDZxSjDwBhUP6sywD0vfbAPbsgjDbN4U='], // the same with React's doubled ';'
  [2694, 'R3eWN7zVoU3spWpPQ2b7tbYj4hZDyViY037DUph2exw='], // $RV=function… (view transitions)
];
const REACT_CALL = /^\$R[A-Z]+\(([\s\S]*)\);?$/;

/** SHA-256 in base64 of text's UTF-8, or of a byte string's bytes ('latin1', as inlineScriptHashes gets the page). */
export function sha256(text: string, encoding: 'utf8' | 'latin1' = 'utf8'): string {
  return createHash('sha256').update(text, encoding).digest('base64');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isDataCall(source: string, prefix: string): boolean {
  const call = source.endsWith(');') ? source.slice(0, -1) : source;
  return call.startsWith(prefix) && call.endsWith(')') && isJson(call.slice(prefix.length, -1));
}

function isReactInstruction(source: string): boolean {
  let rest = source;
  let stripped = true;
  while (stripped) {
    stripped = false;
    for (const [length, digest] of REACT_RUNTIME_PIECES) {
      if (rest.length >= length && sha256(rest.slice(0, length)) === digest) {
        rest = rest.slice(length);
        stripped = true;
      }
    }
  }
  if (rest === '') return source !== '';
  const call = REACT_CALL.exec(rest);
  return call !== null && isJson(`[${call[1]}]`);
}

export function isPlatformScript(source: string): boolean {
  if (source === LOADER_SOURCE || source === APPLY_ON_CHANGE_SOURCE || source === NEXT_FLIGHT_START) return true;
  if (DATA_CALLS.some((prefix) => isDataCall(source, prefix))) return true;
  return isReactInstruction(source);
}

/** Script types a browser runs (HTML's JavaScript MIME types and modules); anything else is a data block. */
const RUN_TYPES = /^(|module|(text|application)\/(x-)?(java|ecma)script|text\/(jscript|livescript|javascript1\.[0-5]))$/;
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script[\s/>]/gi;

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+)))?`, 'i').exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3] ?? '') : null;
}

export type InlineScripts = { hashes: string[]; foreign: string[] };

/**
 * CSP source expressions ('sha256-…') for the platform's inline scripts in a page, and the sources
 * of any others. The page is its UTF-8 bytes as a latin1 string, as rewriteDocumentResponse hands
 * it over: the hashes are of the bytes, as the browser computes them, and `foreign` is decoded.
 */
export function inlineScriptHashes(page: string): InlineScripts {
  const hashes = new Set<string>();
  const foreign: string[] = [];
  for (const [, attributes, source] of page.matchAll(SCRIPT)) {
    if (attribute(attributes, 'src') !== null) continue;
    if (!RUN_TYPES.test((attribute(attributes, 'type') ?? '').trim().toLowerCase())) continue;
    if (isPlatformScript(source)) hashes.add(`'sha256-${sha256(source, 'latin1')}'`);
    else foreign.push(Buffer.from(source, 'latin1').toString('utf8'));
  }
  return { hashes: [...hashes], foreign };
}
