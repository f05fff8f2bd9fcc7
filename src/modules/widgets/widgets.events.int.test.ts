import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { rowsOf } from '@/db/rows';
import { HOUR_MS } from '@/lib/rate-limit';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { useTestDatabase } from '../../../tests/support/database';
import { callRoute, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import { POST as postEvents } from '@/app/api/events/route';
import { GET as getAnalytics } from '@/app/(dashboard)/websites/[websiteId]/analytics.json/route';
import { leads } from '@/modules/leads/leads.schema';
import { analyticsEvents } from './widgets.schema';
import { logger } from '@/lib/logger';
import { EventBuffer, EventLimiter, eventsState, flushEvents } from './widgets.events';

/** POST /api/events end to end on a real database, and the dealers' read of it. */

const HOST_A = 'alpha-motors.localhost';
const HOST_B = 'beta-cars.localhost';

function post(body: BodyInit | null, options: { host?: string; type?: string | null; ip?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: options.host ?? HOST_A, [CLIENT_ADDRESS_HEADER]: options.ip ?? '203.0.113.7', ...options.headers };
  if (options.type !== null) headers['content-type'] = options.type ?? 'application/json';
  return postEvents(new Request('http://x/api/events', { method: 'POST', headers, body }));
}
const json = (value: unknown) => JSON.stringify(value);

describe('POST /api/events', () => {
  let db: Db;
  let w: DashboardWorld;
  const stored = async (websiteId?: number) =>
    websiteId === undefined ? db.select().from(analyticsEvents).orderBy(analyticsEvents.id) : db.select().from(analyticsEvents).where(eq(analyticsEvents.websiteId, websiteId)).orderBy(analyticsEvents.id);

  beforeAll(async () => {
    (globalThis as { __analyticsEvents?: unknown }).__analyticsEvents = undefined;
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
  });

  beforeEach(async () => {
    await flushEvents();
    await db.delete(analyticsEvents);
    eventsState().limiter = new EventLimiter(10_000, HOUR_MS);
  });

  it('answers 202 at once and stores the event at the next flush, for the Host’s website', async () => {
    const event = { website_slug: 'alpha-motors', url: '/cars/a-corolla-1', category: 3, anon_id: 'anon-1', session_id: 'sess-1', event_properties: { car_id: 7 } };
    const response = await post(json(event));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1 });
    expect(await stored()).toHaveLength(0);
    await flushEvents();
    const [row] = await stored();
    expect(row).toMatchObject({ websiteId: w.a.websiteId, category: 3, url: '/cars/a-corolla-1', anonId: 'anon-1', sessionId: 'sess-1', leadId: null, errorMessage: null, eventProperties: { car_id: 7 } });
  });

  it('takes navigator.sendBeacon’s text/plain body and a batch, written together', async () => {
    const batch = [{ category: 1 }, { category: 25, event_properties: { phone: 'tel' } }, { category: 41, error_message: 'maps closed' }];
    const response = await post(json(batch), { type: 'text/plain;charset=UTF-8' });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 3 });
    await flushEvents();
    expect((await stored(w.a.websiteId)).map((r) => r.category)).toEqual([1, 25, 41]);
  });

  it('never writes an event for another website: slug of another tenant 403, address of another host 422', async () => {
    const toB = await post(json({ category: 1, website_slug: 'alpha-motors' }), { host: HOST_B });
    expect(toB.status).toBe(403);
    expect(await toB.json()).toEqual({ error: 'Events are accepted only for this website', fields: { website_slug: 'must be the slug of the website the event is sent to' } });
    expect((await post(json({ category: 1, website_slug: 'beta-cars' }))).status).toBe(403);
    expect((await post(json({ category: 1, url: `http://${HOST_B}/cars/b-hilux-1` }))).status).toBe(422);
    // The same event sent to B's host is B's.
    expect((await post(json({ category: 1, website_slug: 'beta-cars' }), { host: HOST_B })).status).toBe(202);
    await flushEvents();
    expect(await stored(w.a.websiteId)).toHaveLength(0);
    expect(await stored(w.b.websiteId)).toHaveLength(1);
  });

  it('answers hostile input with 4xx naming the field and reason, never 5xx, and stores nothing', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const cases: { name: string; body: BodyInit | null; options?: Parameters<typeof post>[1]; status: number; field?: string }[] = [
      { name: 'huge body', body: json({ category: 1, event_properties: { s: 'x'.repeat(100_000) } }), status: 413 },
      { name: 'huge batch', body: json(Array.from({ length: 5000 }, () => ({ category: 1 }))), status: 413 },
      { name: 'too many events', body: json(Array.from({ length: 26 }, () => ({ category: 1 }))), status: 422, field: 'events' },
      { name: 'not JSON', body: '{"category":', status: 400 },
      { name: 'empty', body: '', status: 400 },
      { name: 'not UTF-8', body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), status: 400 },
      { name: 'form body', body: 'category=1', options: { type: 'application/x-www-form-urlencoded' }, status: 415, field: 'Content-Type' },
      { name: 'no type', body: new TextEncoder().encode(json({ category: 1 })), options: { type: null }, status: 415 },
      { name: 'other site', body: json({ category: 1 }), options: { headers: { origin: 'https://evil.test' } }, status: 403 },
      { name: 'other dealer site', body: json({ category: 1 }), options: { headers: { origin: `http://${HOST_B}` } }, status: 403 },
      { name: 'cross-site fetch', body: json({ category: 1 }), options: { headers: { 'sec-fetch-site': 'cross-site' } }, status: 403 },
      { name: 'unknown host', body: json({ category: 1 }), options: { host: 'nobody.localhost' }, status: 404 },
      // The server refuses it at the socket with the same answer (request-refusals.ts), as every visitor API does.
      { name: 'bad host', body: json({ category: 1 }), options: { host: 'a b' }, status: 400, field: 'host' },
      { name: 'unknown category', body: json({ category: 62 }), status: 422, field: 'category' },
      { name: 'category as text', body: json({ category: '1' }), status: 422, field: 'category' },
      { name: 'lead event forged', body: json({ category: 22 }), status: 422, field: 'category' },
      { name: 'NUL in text', body: json({ category: 1, error_message: 'a\u0000b' }), status: 422, field: 'error_message' },
      { name: 'NUL in properties', body: json({ category: 1, event_properties: { a: '\u0000' } }), status: 422, field: 'event_properties.a' },
      { name: 'NUL in a key', body: '{"category":1,"event_properties":{"a\\u0000":1}}', status: 422 },
      { name: 'prototype key', body: '{"category":1,"__proto__":{"polluted":true}}', status: 422, field: '__proto__' },
      { name: 'constructor key', body: '{"category":1,"event_properties":{"constructor":{"prototype":{}}}}', status: 422, field: 'event_properties.constructor' },
      { name: 'deeply nested JSON', body: deep, status: 422, field: '0' },
      { name: 'properties a list', body: json({ category: 1, event_properties: [1] }), status: 422, field: 'event_properties' },
      { name: 'url elsewhere', body: json({ category: 1, url: 'https://evil.test/' }), status: 422, field: 'url' },
      { name: 'script url', body: json({ category: 1, url: 'javascript:alert(1)' }), status: 422, field: 'url' },
      { name: 'wrong types', body: json({ category: 1, anon_id: 5, session_id: [], lead_id: {} }), status: 422, field: 'anon_id' },
      { name: 'number as body', body: '5', status: 422, field: 'body' },
      { name: 'null as body', body: 'null', status: 422, field: 'body' },
    ];
    for (const c of cases) {
      const response = await post(c.body, c.options);
      expect(response.status, c.name).toBe(c.status);
      const answer = (await response.json()) as { error: string; fields?: Record<string, string> };
      expect(typeof answer.error, c.name).toBe('string');
      if (c.field) expect(answer.fields, c.name).toHaveProperty([c.field]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await flushEvents();
    expect(await stored()).toHaveLength(0);
  });

  it('answers 202 when the write fails: the failure is logged only (SPEC §8)', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const state = eventsState();
    const working = state.buffer;
    state.buffer = new EventBuffer({ write: () => Promise.reject(new Error('relation "analytics_events" is locked')) });
    try {
      const response = await post(json([{ category: 1 }, { category: 2 }]));
      expect(response.status).toBe(202);
      await state.buffer.flush();
      expect(errors).toHaveBeenCalledWith(expect.objectContaining({ events: 2, failed: 2 }), 'analytics events not written');
    } finally {
      state.buffer = working;
      errors.mockRestore();
    }
  });

  it('limits events per client address through the shared limiter table: 429 with Retry-After', async () => {
    const limiter = new EventLimiter(30, HOUR_MS);
    eventsState().limiter = limiter;
    const ten = json(Array.from({ length: 10 }, () => ({ category: 1 })));
    for (let i = 0; i < 3; i++) expect((await post(ten, { ip: '198.51.100.9' })).status).toBe(202);
    const refused = await post(ten, { ip: '198.51.100.9' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^Too many events from your connection/);
    // Another address, another website: their own limits.
    expect((await post(ten, { ip: '198.51.100.10' })).status).toBe(202);
    // The count reaches the table at the flush, where another process's limiter learns it.
    await flushEvents();
    const [count] = rowsOf<{ points: number }>(await db.execute(sql`select points from rate_limits where key = ${`events-ip:${w.a.websiteId}:198.51.100.9`}`));
    expect(Number(count.points)).toBe(30); // the refused request counted nothing
    const otherProcess = new EventLimiter(30, HOUR_MS);
    otherProcess.hit(`events-ip:${w.a.websiteId}:198.51.100.9`, 1);
    await otherProcess.sync(db);
    expect(otherProcess.hit(`events-ip:${w.a.websiteId}:198.51.100.9`, 1).ok).toBe(false);
    expect(await stored()).toHaveLength(40);
  });
});

describe('GET /websites/{id}/analytics.json', () => {
  let db: Db;
  let w: DashboardWorld;
  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
    const a = w.a.websiteId;
    await db.insert(analyticsEvents).values([
      // 24 Nov in Sydney (UTC+11) is 23 Nov 13:00 UTC to 24 Nov 13:00 UTC.
      { websiteId: a, category: 1, createdAt: at('2026-11-23T13:30:00Z') },
      { websiteId: a, category: 1, createdAt: at('2026-11-24T12:59:00Z') },
      { websiteId: a, category: 3, eventProperties: { car_id: 11 }, createdAt: at('2026-11-24T01:00:00Z') },
      { websiteId: a, category: 3, eventProperties: { car_id: 11 }, createdAt: at('2026-11-24T13:01:00Z') },
      { websiteId: a, category: 3, eventProperties: { car_id: 12 }, createdAt: at('2026-11-24T13:02:00Z') },
      { websiteId: a, category: 3, eventProperties: { car_id: 'junk' }, createdAt: at('2026-11-24T13:03:00Z') },
      { websiteId: a, category: 25, createdAt: at('2026-11-25T02:00:00Z') },
      { websiteId: a, category: 1, createdAt: at('2026-10-01T02:00:00Z') },
      { websiteId: w.b.websiteId, category: 1, createdAt: at('2026-11-24T02:00:00Z') },
    ]);
    const lead = (patch: Partial<typeof leads.$inferInsert>) => ({ websiteId: a, category: 'General Enquiry', createdAt: at('2026-11-24T02:00:00Z'), ...patch });
    await db.insert(leads).values([
      lead({ linkedQueryParams: { utm_source: 'facebook' } }),
      lead({ linkedQueryParams: { utm_source: 'facebook' }, attributes: { 'where-did-you-hear-about-us': 'Google' } }),
      lead({ attributes: { 'where-did-you-hear-about-us': 'Google' } }),
      lead({}),
      lead({ linkedQueryParams: { utm_source: 'facebook' }, spam: true }),
      lead({ linkedQueryParams: { utm_source: 'facebook' }, leadStatus: 'Incomplete' }),
      lead({ linkedQueryParams: { utm_source: 'facebook' }, createdAt: at('2026-10-01T02:00:00Z') }),
      lead({ websiteId: w.b.websiteId, linkedQueryParams: { utm_source: 'facebook' } }),
    ]);
  });

  const get = (websiteId: number, query: string, key: DashboardWorld['a']['key'] | null = w.a.key) => callRoute(getAnalytics, { websiteId: String(websiteId) }, { key, query });

  it('counts the website’s events per local day and event id, with totals and car page views', async () => {
    const response = await get(w.a.websiteId, '?from=2026-11-24&to=2026-11-25');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      website_id: w.a.websiteId,
      time_zone: 'Australia/Sydney',
      from: '2026-11-24',
      to: '2026-11-25',
      days: [
        { date: '2026-11-24', total: 3, events: { 1: 2, 3: 1 } },
        { date: '2026-11-25', total: 4, events: { 3: 3, 25: 1 } },
      ],
      totals: { 1: 2, 3: 4, 25: 1 },
      car_page_views: [
        { car_id: 11, views: 2 },
        { car_id: 12, views: 1 },
      ],
      // Complete, not spam, in the range, this website's: by utm_source, else the visitor's answer, else 'Website'.
      leads_by_source: [
        { source: 'facebook', leads: 2 },
        { source: 'Google', leads: 1 },
        { source: 'Website', leads: 1 },
      ],
      // Web vitals: widgets.vitals.int.test.ts.
      web_vitals: expect.objectContaining({ page_views: 0 }),
      // Visitors' alerts (decision 066): none on this world; counted in tests/integration/alerts.test.ts.
      alerts: { messages: { email: 0, sms: 0 }, items: { price_drop: 0, new_stock: 0, sold: 0, reserved: 0, back_in_stock: 0 }, subscribers: 0, unsubscribed: 0, leads_after_alert: 0 },
    });
  });

  it('is tenant-scoped: another dealer’s website is 404, no credentials 401; B’s key sees only B', async () => {
    expect((await get(w.b.websiteId, '?from=2026-11-01&to=2026-11-30')).status).toBe(404);
    expect((await get(w.a.websiteId, '', null)).status).toBe(401);
    const own = await get(w.b.websiteId, '?from=2026-11-01&to=2026-11-30', w.b.key);
    expect(((await own.json()) as { totals: unknown }).totals).toEqual({ 1: 1 });
  });

  it('refuses a bad range with 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?from=2026-13-01', 'from'],
      ['?from=2026-02-30', 'from'],
      ['?to=yesterday', 'to'],
      ['?from=2026-11-25&to=2026-11-24', 'from'],
      ['?from=2024-01-01&to=2026-01-01', 'from'],
      ['?website=2', 'website'],
      ['?__proto__=1', '__proto__'],
    ];
    for (const [query, field] of cases) {
      const response = await get(w.a.websiteId, query);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { fields: Record<string, string> }).fields, query).toHaveProperty([field]);
    }
  });

  it('defaults to the last 30 days', async () => {
    const body = (await (await get(w.a.websiteId, '')).json()) as { from: string; to: string };
    expect((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000).toBe(29);
  });
});
