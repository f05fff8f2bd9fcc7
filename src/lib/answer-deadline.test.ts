import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithin } from './answer-deadline';

/** The hard cap of decision 057 on a real HTTP server: a handler that never answers, one that answers late, one in time. */
describe('answerWithin', () => {
  const late: { wrote: boolean; error?: unknown }[] = [];
  const server = http.createServer((request, response) => {
    answerWithin(request, response, 1_000, 300);
    const wait = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('wait'));
    request.resume();
    if (wait < 0) return; // never answers
    setTimeout(() => {
      const record: { wrote: boolean; error?: unknown } = { wrote: false };
      try {
        response.setHeader('X-Late', '1');
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        record.wrote = response.write('late ');
        response.end('answer');
      } catch (error) {
        record.error = error;
      }
      late.push(record);
    }, wait);
  });
  let base = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 503 with Retry-After and closes the connection when the handler never answers', async () => {
    const started = Date.now();
    const response = await fetch(`${base}/?wait=-1`, { signal: AbortSignal.timeout(5_000) });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.text()).toBe('The server took too long to answer. Please try again in a moment.');
  });

  it('drops what a late handler writes after the 503, without an error', async () => {
    const response = await fetch(`${base}/?wait=600`, { signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(late.at(-1)).toEqual({ wrote: true });
  });

  it('leaves an answer in time alone, and counts a body from its end', async () => {
    const quick = await fetch(`${base}/?wait=50`);
    expect(quick.status).toBe(200);
    expect(await quick.text()).toBe('late answer');
    // The body arrives after 500 ms (longer than the 300 ms cap): the cap starts when it has arrived.
    const body = new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('part one, '));
        await new Promise((resolve) => setTimeout(resolve, 500));
        controller.enqueue(new TextEncoder().encode('part two'));
        controller.close();
      },
    });
    const posted = await fetch(`${base}/?wait=100`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(posted.status).toBe(200);
  });
});
