import { describe, expect, it } from 'vitest';
import { etagMatches, safeJson } from '@/lib/http/response';
import { jsonSegmentSchema, parseQueryId, pathIdSchema } from '@/lib/http/params';
import { readJsonBody } from '@/lib/http/body';
import { BadRequestError, PayloadTooLargeError } from '@/lib/http/errors';

describe('safeJson', () => {
  it('escapes markup characters and line separators, and parses back to the same value', () => {
    const value = { name: '<script>alert("x")</script> & \u2028 \u2029 Škoda 東京' };
    const text = safeJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('etagMatches', () => {
  it.each([
    ['"w1-s2"', true],
    ['W/"w1-s2"', true],
    ['"a", "w1-s2"', true],
    ['*', true],
    ['"w1-s3"', false],
    ['w1-s2', false],
    [null, false],
  ])('If-None-Match %j → %s', (header, expected) => {
    expect(etagMatches(header, '"w1-s2"')).toBe(expected);
  });
});

describe('path params', () => {
  it.each([['abc.json', 'abc'], ['a.b.json', 'a.b']])('%s names %s', (segment, name) => {
    expect(jsonSegmentSchema.parse(segment)).toBe(name);
  });
  it.each([['abc'], ['abc.JSON'], ['abc.json.bak'], ['a/b.json']])('%s is not a .json resource', (segment) => {
    expect(jsonSegmentSchema.safeParse(segment).success).toBe(false);
  });
  it.each([['1', 1], ['2147483647', 2147483647]])('id %s', (segment, id) => {
    expect(pathIdSchema.parse(segment)).toBe(id);
  });
  it.each([['0'], ['01'], ['-1'], ['1e3'], ['2147483648'], [' 1'], ['']])('id %j is refused', (segment) => {
    expect(pathIdSchema.safeParse(segment).success).toBe(false);
  });
  it('query ids: 400 naming the parameter', () => {
    expect(parseQueryId('12', 'website_id')).toBe(12);
    for (const bad of [null, '', 'x', '0', '99999999999']) {
      expect(() => parseQueryId(bad, 'website_id')).toThrow(BadRequestError);
    }
  });
});

describe('readJsonBody', () => {
  const request = (body: BodyInit, headers: Record<string, string> = {}) => new Request('http://x/', { method: 'PUT', body, headers });

  it('parses JSON', async () => {
    expect(await readJsonBody(request('{"a":[1,"é"]}'))).toEqual({ a: [1, 'é'] });
  });

  it('refuses a body over the limit, declared or streamed', async () => {
    await expect(readJsonBody(request('x'.repeat(101)), 100)).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(readJsonBody(request('{}', { 'content-length': '1000' }), 100)).rejects.toBeInstanceOf(PayloadTooLargeError);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64).fill(32));
      },
    });
    await expect(readJsonBody(new Request('http://x/', { method: 'PUT', body: stream, duplex: 'half' } as RequestInit), 1000)).rejects.toBeInstanceOf(
      PayloadTooLargeError,
    );
  });

  it.each([[''], ['{'], ['undefined'], ["{'a':1}"]])('refuses %j with 400', async (body) => {
    await expect(readJsonBody(request(body))).rejects.toBeInstanceOf(BadRequestError);
  });
});
