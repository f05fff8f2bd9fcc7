import type http from 'node:http';
import zlib from 'node:zlib';

/**
 * The framework's scripts start loading once the page's main content has painted (decision 034).
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
const TEMPLATE_ATTRIBUTE = 'data-deferred-script';
const ASYNC_CHUNK = /<script src="(\/_next\/static\/[^"<>]+\.js)" async=""><\/script>/g;
const HEAD_END = Buffer.from('</head>');

const LOADER_SOURCE = `(function(){var d=document,done=0;function load(){if(done)return;done=1;d.querySelectorAll('template[${TEMPLATE_ATTRIBUTE}]').forEach(function(t){var s=d.createElement('script');s.src=t.getAttribute('${TEMPLATE_ATTRIBUTE}');s.async=true;d.head.appendChild(s)})}function painted(){requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(load,0)})})}['pointerdown','touchstart','keydown'].forEach(function(e){addEventListener(e,load,{once:true,passive:true,capture:true})});d.addEventListener('DOMContentLoaded',function(){setTimeout(load,${DEFER_LIMIT_MS});var i=d.querySelector('img[fetchpriority=high]');if(i&&!i.complete){i.addEventListener('load',painted);i.addEventListener('error',load)}else painted()})})()`;
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

type Sink = { write(chunk: Buffer): void; end(): void };

/** Collects the stream up to `</head>`, rewrites that part once, then lets the rest through as it comes. */
function headRewriter(sink: Sink): Sink {
  let head: Buffer[] | null = [];
  const flushHead = (rest?: Buffer) => {
    if (!head) return;
    const text = Buffer.concat(head).toString('utf8');
    head = null;
    sink.write(Buffer.from(deferScriptsInHead(text)));
    if (rest && rest.length > 0) sink.write(rest);
  };
  return {
    write(chunk) {
      if (!head) return sink.write(chunk);
      head.push(chunk);
      const buffered = Buffer.concat(head);
      const at = buffered.indexOf(HEAD_END);
      if (at < 0) {
        head = [buffered];
        return;
      }
      head = [buffered.subarray(0, at + HEAD_END.length)];
      flushHead(buffered.subarray(at + HEAD_END.length));
    },
    end() {
      flushHead();
      sink.end();
    },
  };
}

type Write = (this: http.ServerResponse, ...args: unknown[]) => boolean;
type End = (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse;

function asBuffer(chunk: unknown, encoding: unknown): Buffer | null {
  if (chunk == null || typeof chunk === 'function') return null;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk as Uint8Array);
}

/**
 * Rewrites the head of an HTML response as it is written: plain, or gzip as Next's compression
 * sends it (decompressed, rewritten, compressed again, flushed chunk by chunk so streaming still
 * streams). Anything else (another content type or encoding) goes through untouched. Must be
 * installed before the first write; the caller decides which responses are pages.
 */
export function deferScriptsInResponse(response: http.ServerResponse): void {
  const write = response.write as unknown as Write;
  const end = response.end as unknown as End;
  let pipeline: Sink | null | undefined;
  let ended = false;

  const passOn = (chunk: Buffer) => {
    if (chunk.length > 0) write.call(response, chunk);
  };
  const finish = () => {
    if (ended) return;
    ended = true;
    end.call(response);
  };

  const decide = (): Sink | null => {
    const type = String(response.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html')) return null;
    const encoding = String(response.getHeader('content-encoding') ?? '').trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') {
      // The rewrite changes the length: the body goes chunked instead.
      if (!response.headersSent) response.removeHeader('content-length');
      else if (response.getHeader('content-length') !== undefined) return null;
      return headRewriter({ write: passOn, end: finish });
    }
    if (encoding !== 'gzip') return null;
    const gzip = zlib.createGzip();
    gzip.on('data', passOn);
    gzip.on('end', finish);
    const rewriter = headRewriter({
      write: (chunk) => {
        gzip.write(chunk);
        gzip.flush();
      },
      end: () => gzip.end(),
    });
    const gunzip = zlib.createGunzip();
    gunzip.on('data', (chunk: Buffer) => rewriter.write(chunk));
    gunzip.on('end', () => rewriter.end());
    gunzip.on('error', (error) => {
      // Next's own compression produced it, so this is not expected; the page cannot be saved now.
      response.destroy(error);
    });
    let received = false;
    return {
      write: (chunk) => {
        received ||= chunk.length > 0;
        gunzip.write(chunk);
      },
      // An empty body (a HEAD request) is not a gzip stream at all.
      end: () => (received ? gunzip.end() : finish()),
    };
  };

  response.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (pipeline === undefined) pipeline = decide();
    if (!pipeline) return write.call(this, chunk, ...rest);
    const buffer = asBuffer(chunk, rest[0]);
    if (buffer) pipeline.write(buffer);
    const callback = rest.find((value) => typeof value === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  } as typeof response.write;

  response.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (pipeline === undefined) pipeline = decide();
    if (!pipeline) return end.call(this, chunk, ...rest);
    const buffer = asBuffer(chunk, rest[0]);
    if (buffer) pipeline.write(buffer);
    const callback = [chunk, ...rest].find((value) => typeof value === 'function') as (() => void) | undefined;
    if (callback) response.once('finish', callback);
    pipeline.end();
    return this;
  } as typeof response.end;
}
