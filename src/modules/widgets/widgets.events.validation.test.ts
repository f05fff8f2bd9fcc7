import { describe, expect, it } from 'vitest';
import { EVENT_LIMITS, parseEventBatch, propertiesProblem } from './widgets.events.validation';

const HOST = 'harbour.localhost';
const SLUG = 'harbour';
const parse = (body: unknown) => parseEventBatch(body, SLUG, HOST);
const good = { category: 1, url: '/cars/abc?x=1', anon_id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', session_id: 'abc_DEF-123', event_properties: { car_id: 12, make: 'Mazda' } };

/** The answer for one event with `patch` applied: status and the fields named. */
function refusal(patch: Record<string, unknown>) {
  const result = parse({ ...good, ...patch });
  if (result.ok) throw new Error(`accepted ${JSON.stringify(patch)}`);
  return { status: result.status, fields: { ...result.fields } };
}

describe('analytics event validation', () => {
  it('accepts SPEC §3’s event, with every optional field absent, null or empty', () => {
    const full = { website_slug: SLUG, url: 'http://harbour.localhost:3000/search/used-cars', category: 25, lead_id: '0b6a1c52-77d8-4e43-9a52-4d7bb8b2f8f1', anon_id: 'x', session_id: 'y', error_message: 'Line one\nline two', event_properties: { nested: { list: [1, 'two', true, null] } } };
    expect(parse(full)).toEqual({ ok: true, events: [full] });
    expect(parse({ category: 13 })).toEqual({ ok: true, events: [{ category: 13 }] });
    const blanks = parse({ category: 2, website_slug: null, url: '', lead_id: null, anon_id: '', session_id: null, error_message: null, event_properties: null });
    expect(blanks.ok && blanks.events[0]).toEqual({ category: 2 });
  });

  it('accepts a batch of up to the cap, and refuses an empty or larger one', () => {
    const batch = Array.from({ length: EVENT_LIMITS.maxBatch }, (_, i) => ({ category: 1 + (i % 13) }));
    const accepted = parse(batch);
    expect(accepted.ok && accepted.events).toHaveLength(EVENT_LIMITS.maxBatch);
    expect(parse([])).toMatchObject({ ok: false, status: 422, fields: { events: expect.stringContaining('1 to 25') } });
    expect(parse([...batch, { category: 1 }])).toMatchObject({ ok: false, status: 422, fields: { events: expect.any(String) } });
  });

  it('refuses a whole batch for one bad event, naming its index and field', () => {
    const result = parse([{ category: 1 }, { category: 99 }, { category: 'x' }]);
    expect(result).toMatchObject({ ok: false, status: 422 });
    expect(!result.ok && Object.keys(result.fields).sort()).toEqual(['1.category', '2.category']);
    expect(parse([{ category: 1 }, 'junk', null, [1]])).toMatchObject({ ok: false, fields: { 1: 'must be an event object', 2: 'must be an event object', 3: 'must be an event object' } });
  });

  it('refuses a body that is not an event', () => {
    for (const body of [null, 'text', 42, true]) expect(parse(body)).toMatchObject({ ok: false, status: 422, fields: { body: 'must be an event object' } });
  });

  it('takes categories of SPEC §9’s catalogue only, and not those the server records itself', () => {
    for (const category of [0, 62, -1, 1.5, 1e9, '1', null, true, [1], { id: 1 }]) {
      expect(refusal({ category })).toEqual({ status: 422, fields: { category: 'must be an event id from 1 to 61' } });
    }
    expect(refusal({ category: undefined })).toMatchObject({ fields: { category: expect.any(String) } });
    // Form submissions (with their lead) and sign-in are counted by the server.
    for (const category of [14, 22, 51, 35, 38]) expect(refusal({ category }).fields.category).toMatch(/recorded by the server/);
    for (const category of [1, 13, 20, 21, 25, 32, 41, 54, 55, 57, 61]) expect(parse({ category }).ok).toBe(true);
  });

  it('refuses another website’s slug with 403, and a malformed slug with 422', () => {
    expect(refusal({ website_slug: 'kiwi-motors' })).toEqual({ status: 403, fields: { website_slug: 'must be the slug of the website the event is sent to' } });
    expect(parse([{ category: 1 }, { category: 1, website_slug: 'other' }])).toMatchObject({ ok: false, status: 403, fields: { '1.website_slug': expect.any(String) } });
    for (const website_slug of ['Harbour', 'a b', 'x'.repeat(101), 5, {}]) expect(refusal({ website_slug }).status).toBe(422);
  });

  it('takes a url on this website only: a path or an address of this host', () => {
    for (const url of ['/', '/cars/x?y=1#z', 'https://harbour.localhost/a', 'http://HARBOUR.localhost:3000/']) expect(parse({ ...good, url }).ok).toBe(true);
    for (const url of ['https://evil.test/a', '//evil.test/a', '/\\evil.test', 'javascript:alert(1)', 'cars/x', 'https://user:pw@harbour.localhost/', 'ftp://harbour.localhost/', `/${'x'.repeat(2000)}`, '/a\u0000b', 7]) {
      expect(refusal({ url }).fields).toHaveProperty('url');
    }
  });

  it('refuses ids that are not short tokens, and text with control characters', () => {
    for (const field of ['lead_id', 'anon_id', 'session_id']) {
      for (const value of ['a b', 'x'.repeat(65), '<script>', 'é', 12, {}, 'a\u0000']) expect(refusal({ [field]: value }).fields).toHaveProperty(field);
    }
    expect(refusal({ error_message: 'bad\u0000byte' }).fields).toEqual({ error_message: 'must not contain control characters' });
    expect(refusal({ error_message: 'lone \uD800 surrogate' }).fields).toEqual({ error_message: 'must not contain control characters' });
    expect(refusal({ error_message: 'x'.repeat(501) }).fields).toEqual({ error_message: 'must be at most 500 characters' });
  });

  it('refuses unknown fields, prototype keys included, by name', () => {
    expect(refusal({ extra: 1 }).fields).toEqual({ extra: 'is not a field of an event' });
    const polluted = JSON.parse('{"category":1,"__proto__":{"admin":true}}') as unknown;
    const result = parse(polluted);
    expect(result.ok).toBe(false);
    expect(!result.ok && Object.keys(result.fields)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    const nested = JSON.parse('{"category":1,"event_properties":{"a":{"constructor":{"prototype":{"x":1}}}}}') as unknown;
    expect(parse(nested)).toMatchObject({ ok: false, status: 422, fields: { 'event_properties.a.constructor': 'is a reserved name' } });
    expect(parse(JSON.parse('{"category":1,"event_properties":{"__proto__":1}}'))).toMatchObject({ ok: false, fields: { 'event_properties.__proto__': 'is a reserved name' } });
  });

  it('takes event_properties as a small plain JSON object only', () => {
    expect(propertiesProblem({ a: 1, b: 'x', c: [true, null], d: { e: 1 } })).toBeNull();
    const cases: [unknown, string][] = [
      [[1, 2], 'must be a JSON object'],
      ['text', 'must be a JSON object'],
      [5, 'must be a JSON object'],
      [{ s: 'x'.repeat(501) }, 'must be at most 500 characters'],
      [{ s: 'a\u0000b' }, 'must not contain control characters'],
      [{ a: { b: { c: { d: 1 } } } }, 'must not nest deeper than 3 levels'],
      [{ list: Array.from({ length: 26 }, () => 1) }, 'must have at most 25 items'],
      [Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 1])), 'must have at most 30 keys'],
      [{ 'bad key': 1 }, 'must be a name of letters, digits, _ . : - (up to 64)'],
      [{ '': 1 }, 'must be a name of letters, digits, _ . : - (up to 64)'],
      [Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(300)])), 'must be at most 2048 bytes as JSON'],
      [{ date: new Date() }, 'must hold only text, numbers, booleans, null, lists and objects'],
      [{ n: Number.NaN }, 'must be a finite number'],
    ];
    for (const [value, reason] of cases) {
      expect(propertiesProblem(value)?.reason).toBe(reason);
      const result = parse({ category: 1, event_properties: value });
      expect(result.ok).toBe(false);
      expect(!result.ok && Object.entries(result.fields).every(([field]) => field.startsWith('event_properties'))).toBe(true);
    }
  });
});
