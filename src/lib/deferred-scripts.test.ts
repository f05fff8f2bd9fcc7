import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsGzip, deferScriptsInDocument, deferScriptsInHead, LOADER, rewriteDocumentResponse } from './deferred-scripts';

const HEAD =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>' +
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>' +
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/main.js"/>' +
  '<script src="/_next/static/chunks/turbopack-x.js" async=""></script>' +
  '<script src="/_next/static/chunks/main.js" async=""></script>' +
  '<script src="/_next/static/chunks/polyfills.js" noModule=""></script>' +
  '<title>Harbour City Motors — Mazda3 ✓</title></head>';
const BODY = '<body><h1>Mazda3</h1><script>self.__next_f.push([1,"x"])</script></body></html>';

describe('deferScriptsInHead', () => {
  it('keeps every async chunk as a template, in order, and adds the loader before </head>', () => {
    const out = deferScriptsInHead(HEAD);
    expect(out).not.toContain('async=""');
    expect(out).toContain(
      '<template data-deferred-script="/_next/static/chunks/turbopack-x.js"></template><template data-deferred-script="/_next/static/chunks/main.js"></template>',
    );
    expect(out.endsWith(`${LOADER}</head>`)).toBe(true);
    // Everything else is left as it was: the stylesheet, the low-priority preload, the legacy polyfill, the title.
    expect(out).toContain('<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>');
    expect(out).toContain('noModule=""></script>');
    expect(out).toContain('Mazda3 ✓');
  });

  it('leaves a page without Next chunks alone (no loader either)', () => {
    const head = '<html><head><script src="https://maps.googleapis.com/x.js" async=""></script></head>';
    expect(deferScriptsInHead(head)).toBe(head);
    expect(deferScriptsInHead('<html><head><title>x</title></head>')).toBe('<html><head><title>x</title></head>');
  });

  it('does not take an attribute value with markup in it for a chunk', () => {
    const head = '<head><script src="/_next/static/chunks/a.js"><x>" async=""></script></head>';
    expect(deferScriptsInHead(head)).toBe(head);
  });
});

type Served = { status: number; headers: http.IncomingHttpHeaders; body: string; seen: string | null };

let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `chunks` through deferScriptsInResponse with the given headers, written one by one across ticks. */
async function serve(headers: Record<string, string>, chunks: Buffer[], method = 'GET', compress = false): Promise<Served> {
  let seen: string | null = null;
  server = http.createServer((_, response) => {
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    rewriteDocumentResponse(response, (bytes) => {
      seen = Buffer.from(bytes, 'latin1').toString('utf8');
      // As the request hook does: a header that depends on the whole page.
      response.setHeader('x-page-bytes', String(bytes.length));
    }, { compress });
    let i = 0;
    const next = () => {
      if (i < chunks.length - 1) {
        response.write(chunks[i++]);
        setImmediate(next);
      } else response.end(chunks[i]);
    };
    next();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/' }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(parts);
        const body = res.headers['content-encoding'] === 'gzip' && raw.length > 0 ? zlib.gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString('utf8'), seen });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Splits text into pieces of `size` bytes: cuts through tags, `</head>` and multi-byte characters. */
function pieces(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

describe('rewriteDocumentResponse', () => {
  const page = HEAD + BODY;
  const expected = deferScriptsInHead(HEAD) + BODY;

  it('rewrites only the head of a document', () => {
    expect(deferScriptsInDocument(page)).toBe(expected);
    const bodyLookalike = '<body><script src="/_next/static/chunks/late.js" async=""></script></body>';
    expect(deferScriptsInDocument(HEAD + bodyLookalike)).toBe(deferScriptsInHead(HEAD) + bodyLookalike);
  });

  it.each([1, 7, 64, 100_000])(
    'rewrites a plain HTML page written in %i-byte pieces (through tags and multi-byte characters), with its new length',
    async (size) => {
      const served = await serve({ 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(page)) }, pieces(page, size));
      expect(served.body).toBe(expected);
      expect(served.seen).toBe(expected);
      expect(served.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
      // The header set from the whole page reached the client: it waited for the page.
      expect(served.headers['x-page-bytes']).toBe(String(Buffer.byteLength(expected)));
    },
  );

  it.each([1, 10, 1000])('rewrites a gzip page as Next compresses it (%i-byte pieces), and sends it compressed', async (size) => {
    const gzipped = zlib.gzipSync(page);
    const chunks: Buffer[] = [];
    for (let at = 0; at < gzipped.length; at += size) chunks.push(gzipped.subarray(at, at + size));
    const served = await serve({ 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }, chunks);
    expect(served.headers['content-encoding']).toBe('gzip');
    expect(served.body).toBe(expected);
    expect(served.seen).toBe(expected);
    expect(served.headers['x-page-bytes']).toBe(String(Buffer.byteLength(expected)));
  });

  it('takes the content type and encoding given to writeHead itself', async () => {
    server = http.createServer((_, response) => {
      rewriteDocumentResponse(response, () => response.setHeader('x-seen', 'yes'));
      response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(Buffer.byteLength(page)) });
      response.write(page.slice(0, 100));
      response.end(page.slice(100));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe(expected);
    expect(res.headers.get('x-seen')).toBe('yes');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(expected)));
  });

  it.each([
    ['another content type', { 'content-type': 'application/json' }],
    ['RSC', { 'content-type': 'text/x-component' }],
    ['another encoding', { 'content-type': 'text/html', 'content-encoding': 'br' }],
  ])('leaves %s untouched and does not wait for it', async (_, headers) => {
    // The body is sent as written (the 'br' one is not really compressed: the client here reads it as it is).
    const served = await serve(headers, [Buffer.from(page)]);
    expect(served.body).toBe(page);
    expect(served.seen).toBeNull();
    expect(served.headers['x-page-bytes']).toBeUndefined();
  });

  it.each([
    ['plain', {}],
    ['gzip already', { 'content-encoding': 'gzip' }],
  ])('compresses a page that arrives %s once when asked to, naming Accept-Encoding in Vary', async (_, encoding: Record<string, string>) => {
    const body = 'content-encoding' in encoding ? zlib.gzipSync(page) : Buffer.from(page);
    const chunks = Array.from({ length: Math.ceil(body.length / 50) }, (_, k) => body.subarray(k * 50, k * 50 + 50));
    const served = await serve({ 'content-type': 'text/html; charset=utf-8', vary: 'RSC', ...encoding }, chunks, 'GET', true);
    expect(served.headers['content-encoding']).toBe('gzip');
    expect(served.body).toBe(expected);
    if (!('content-encoding' in encoding)) expect(served.headers.vary).toBe('RSC, Accept-Encoding');
  });

  it('answers a HEAD request and an empty page without hanging', async () => {
    const head = await serve({ 'content-type': 'text/html', 'content-encoding': 'gzip' }, [Buffer.alloc(0)], 'HEAD');
    expect(head.status).toBe(200);
    expect(head.seen).toBe('');
    expect(head.body).toBe('');
    expect((await serve({ 'content-type': 'text/html' }, [Buffer.alloc(0)])).body).toBe('');
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['identity', false],
    ['gzip;q=0, br', false],
    ['*;q=0.5, gzip;q=0', false],
    ['br, *;q=0', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => expect(acceptsGzip(header)).toBe(expected));
});
