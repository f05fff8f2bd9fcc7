import type http from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * The framework's scripts start loading once the page's main content has painted (decision 035).
 *
 * Next.js puts every chunk of a page in the head as `<script src async>`: the browser fetches them
 * alongside the stylesheet and the first photo, and on a phone's connection the photo shares the
 * bandwidth with about 155 KB of JavaScript, so the page's largest paint waits for React. The pages
 * are rendered on the server and work without JavaScript (links, forms, menus), so nothing is lost
 * by letting the photo arrive first: the head keeps each chunk as an inert `<template>` and a small
 * loader adds the scripts after the first photo (the `fetchpriority=high` image, if the page has
 * one) has loaded and been painted, at the latest DEFER_LIMIT_MS after the document was parsed, or
 * at once on the visitor's first pointer, touch or key press.
 */

export const DEFER_LIMIT_MS = 3000;
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);
const TEMPLATE_ATTRIBUTE = 'data-deferred-script';
const ASYNC_CHUNK = /<script src="(\/_next\/static\/[^"<>]+\.js)" async=""><\/script>/g;

/**
 * Scripts added per task: starting a script's request costs the main thread 0.3–3 ms (Chromium's
 * resource fetcher), so the ten or so chunks of a page added at once made one task of 6–37 ms, a
 * long task on a phone; two at a time, each task stays short (decision 035, amended 2026-11-30).
 */
const SCRIPTS_PER_TASK = 2;

export const LOADER_SOURCE = `(function(){var d=document,done=0;function load(){if(done)return;done=1;var t=[].slice.call(d.querySelectorAll('template[${TEMPLATE_ATTRIBUTE}]'));(function add(){t.splice(0,${SCRIPTS_PER_TASK}).forEach(function(e){var s=d.createElement('script');s.src=e.getAttribute('${TEMPLATE_ATTRIBUTE}');s.async=true;d.head.appendChild(s)});if(t.length)setTimeout(add,0)})()}function painted(){requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(load,0)})})}['pointerdown','touchstart','keydown'].forEach(function(e){addEventListener(e,load,{once:true,passive:true,capture:true})});d.addEventListener('DOMContentLoaded',function(){setTimeout(load,${DEFER_LIMIT_MS});var i=d.querySelector('img[fetchpriority=high]');if(i&&!i.complete){i.addEventListener('load',painted);i.addEventListener('error',load)}else painted()})})()`;
export const LOADER = `<script>${LOADER_SOURCE}</script>`;

/** The head with Next's async chunk scripts turned into templates and the loader added; unchanged if it has none. */
export function deferScriptsInHead(head: string): string {
  let deferred = false;
  const rewritten = head.replace(ASYNC_CHUNK, (_, src: string) => {
    deferred = true;
    return `<template ${TEMPLATE_ATTRIBUTE}="${src}"></template>`;
  });
  if (!deferred) return head;
  const end = rewritten.lastIndexOf('</head>');
  return end < 0 ? rewritten + LOADER : rewritten.slice(0, end) + LOADER + rewritten.slice(end);
}

/** The whole page with the head rewritten by deferScriptsInHead. */
export function deferScriptsInDocument(html: string): string {
  const at = html.indexOf('</head>');
  const head = at < 0 ? html : html.slice(0, at + '</head>'.length);
  return deferScriptsInHead(head) + html.slice(head.length);
}

/** A Vary header value that names Accept-Encoding (once). */
function withAcceptEncoding(vary: number | string | string[] | undefined): string {
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary ?? '')).split(',').map((name) => name.trim()).filter(Boolean);
  return names.some((name) => name.toLowerCase() === 'accept-encoding' || name === '*') ? names.join(', ') : [...names, 'Accept-Encoding'].join(', ');
}

/** Whether an Accept-Encoding header accepts gzip (named, or '*', with a quality above 0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  let gzip: number | null = null;
  let any: number | null = null;
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.split(';').map((token) => token.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    if (name === 'gzip' || name === 'x-gzip') gzip = Number.isFinite(quality) ? quality : 0;
    else if (name === '*') any = Number.isFinite(quality) ? quality : 0;
  }
  return (gzip ?? any ?? 0) > 0;
}

type WriteHead = (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse;
type Write = (this: http.ServerResponse, ...args: unknown[]) => boolean;
type End = (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse;

function asBuffer(chunk: unknown, encoding: unknown): Buffer | null {
  if (chunk == null || typeof chunk === 'function') return null;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk as Uint8Array);
}

function headersGiven(args: unknown[]): Record<string, unknown> | undefined {
  return args.find((value) => value !== null && typeof value === 'object' && !Array.isArray(value)) as Record<string, unknown> | undefined;
}

/**
 * Rewrites an HTML response whole, then sends it: its head and body wait until the page has been
 * written completely, because the Content-Security-Policy header names the hashes of the page's
 * inline scripts (decision 040) and a header cannot follow the body. The page arrives plain, or
 * gzip as Next's compression sends it (decompressed, rewritten, compressed again); `onDocument`
 * sees the final page just before the header goes out. Anything else (another content type or
 * encoding) goes through untouched, as it is written. `onDocument` gets the page's UTF-8 bytes as a
 * latin1 string (one character per byte: `Buffer.from(html, 'latin1')` gives the bytes back).
 * `compress`: a page that arrives plain is sent
 * gzip (the caller has checked the client accepts it, and kept Next from compressing the page as it
 * streamed, which this would only have to undo). Must be installed before the first write; the
 * caller decides which responses are pages.
 */
export function rewriteDocumentResponse(response: http.ServerResponse, onDocument: (html: string) => void, { compress = false } = {}): void {
  const writeHead = response.writeHead as unknown as WriteHead;
  const write = response.write as unknown as Write;
  const end = response.end as unknown as End;
  let mode: 'undecided' | 'untouched' | 'plain' | 'gzip' = 'undecided';
  let head: unknown[] = [];
  const chunks: Buffer[] = [];

  const decide = (given: Record<string, unknown> | undefined) => {
    const header = (name: string) => {
      const value = given ? Object.entries(given).find(([key]) => key.toLowerCase() === name)?.[1] : undefined;
      return String(value ?? response.getHeader(name) ?? '').trim().toLowerCase();
    };
    const encoding = header('content-encoding');
    if (!header('content-type').startsWith('text/html')) return 'untouched';
    if (encoding === '' || encoding === 'identity') return 'plain';
    return encoding === 'gzip' ? 'gzip' : 'untouched';
  };

  const send = async () => {
    let body = Buffer.concat(chunks);
    let html = '';
    if (body.length > 0) {
      // The page's bytes as they are, one character each (latin1), never decoded: every marker the
      // rewrite and the script hashes look for is ASCII, which no byte of a multi-byte UTF-8
      // character can match. Decoding the UTF-8 and encoding it again cost about a tenth of an
      // uncached render on Node 20.
      html = deferScriptsInDocument((mode === 'gzip' ? await gunzip(body) : body).toString('latin1'));
      const gzipped = mode === 'gzip' || compress;
      body = gzipped ? await gzip(Buffer.from(html, 'latin1')) : Buffer.from(html, 'latin1');
      if (mode === 'plain' && compress) {
        response.setHeader('content-encoding', 'gzip');
        response.setHeader('vary', withAcceptEncoding(response.getHeader('vary')));
      }
    }
    onDocument(html);
    if (response.destroyed) return;
    // The length is known now, whatever was said before the rewrite (an empty HEAD answer keeps its own).
    const given = headersGiven(head);
    if (body.length > 0) {
      if (given) for (const key of Object.keys(given)) if (key.toLowerCase() === 'content-length') delete given[key];
      response.setHeader('content-length', String(body.length));
    }
    writeHead.call(response, ...head);
    if (body.length > 0) write.call(response, body);
    end.call(response);
  };

  response.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    if (mode === 'undecided') {
      mode = decide(headersGiven(args));
      if (mode !== 'untouched') head = args;
    }
    // Held until the page is complete; the implicit calls of later writes change nothing.
    return mode === 'untouched' ? writeHead.call(this, ...args) : this;
  } as typeof response.writeHead;

  response.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (mode === 'undecided') this.writeHead(this.statusCode);
    if (mode === 'untouched') return write.call(this, chunk, ...rest);
    const buffer = asBuffer(chunk, rest[0]);
    if (buffer) chunks.push(buffer);
    const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  } as typeof response.write;

  response.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (mode === 'undecided') this.writeHead(this.statusCode);
    if (mode === 'untouched') return end.call(this, chunk, ...rest);
    const buffer = asBuffer(chunk, rest[0]);
    if (buffer) chunks.push(buffer);
    const callback = [chunk, ...rest].find((value) => typeof value === 'function') as (() => void) | undefined;
    if (callback) response.once('finish', callback);
    // Next's own compression produced the gzip, so a failure is not expected; the page cannot be saved then.
    send().catch((error: Error) => response.destroy(error));
    return this;
  } as typeof response.end;
}
