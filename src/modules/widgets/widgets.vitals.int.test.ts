import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { HOUR_MS } from '@/lib/rate-limit';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { isoDate, wallTimeAt } from '@/lib/time-zone';
import { useTestDatabase } from '../../../tests/support/database';
import { callRoute, seedDashboardWorld, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import { POST as postEvents } from '@/app/api/events/route';
import { GET as getVitals } from '@/app/(dashboard)/websites/[websiteId]/web_vitals.json/route';
import { GET as getAnalytics } from '@/app/(dashboard)/websites/[websiteId]/analytics.json/route';
import { analyticsEvents, webVitals } from './widgets.schema';
import { EventLimiter, eventsState, flushEvents } from './widgets.events';

/**
 * Real-visitor web vitals (issue 32 item 4, decision 058) end to end on a real database: a page
 * view's report through POST /api/events, hostile reports refused and never stored, and the
 * dealer's read through the Dashboard API (web_vitals.json, analytics.json), tenant-scoped.
 * Thresholds (issue 32, Google's): LCP 2.5 s / 4 s, INP 200 / 500 ms, CLS 0.1 / 0.25,
 * FCP 1.8 / 3 s, TTFB 0.8 / 1.8 s.
 */

const HOST_A = 'alpha-motors.localhost';
const HOST_B = 'beta-cars.localhost';

function post(body: string, options: { host?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: options.host ?? HOST_A, [CLIENT_ADDRESS_HEADER]: '203.0.113.8', 'content-type': 'text/plain;charset=UTF-8', ...options.headers };
  return postEvents(new Request('http://x/api/events', { method: 'POST', headers, body }));
}
const report = (patch: Record<string, unknown> = {}, metrics: Record<string, unknown> = { LCP: 1200 }) => ({ type: 'web_vitals', view_id: 'view-1', page_type: 'home', metrics, ...patch });
const json = (value: unknown) => JSON.stringify(value);

describe('web vitals through POST /api/events', () => {
  let db: Db;
  let w: DashboardWorld;
  const storedVitals = () => db.select().from(webVitals).orderBy(webVitals.websiteId, webVitals.viewId);

  beforeAll(async () => {
    (globalThis as { __analyticsEvents?: unknown }).__analyticsEvents = undefined;
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
  });

  beforeEach(async () => {
    await flushEvents();
    await db.delete(webVitals);
    await db.delete(analyticsEvents);
    eventsState().limiter = new EventLimiter(10_000, HOUR_MS);
  });

  it('stores a page view’s report for the Host’s website, on its local day; a second report of the view keeps the larger values', async () => {
    const first = await post(json(report({ view_id: 'v-1', page_type: 'car' }, { LCP: 1234, FCP: 800, TTFB: 120 })));
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ accepted: 1 });
    // With a page view event in the same batch, and two more reports of the view before the flush.
    const batch = [{ category: 3 }, report({ view_id: 'v-1', page_type: 'car' }, { CLS: 0.05, INP: 80 }), report({ view_id: 'v-1', page_type: 'car' }, { CLS: 0.12 })];
    expect((await post(json(batch))).status).toBe(202);
    expect(await storedVitals()).toHaveLength(0);
    await flushEvents();
    const today = isoDate(wallTimeAt(Date.now(), 'Australia/Sydney'));
    expect(await storedVitals()).toMatchObject([{ websiteId: w.a.websiteId, viewId: 'v-1', pageType: 'car', day: today, lcp: 1234, fcp: 800, ttfb: 120, inp: 80 }]);
    expect((await storedVitals())[0].cls).toBeCloseTo(0.12, 5);
    expect(await db.select().from(analyticsEvents)).toHaveLength(1);
    // Reported again after the page was shown and hidden once more, with a smaller CLS: kept at 0.12.
    expect((await post(json(report({ view_id: 'v-1', page_type: 'car' }, { CLS: 0.02, INP: 120 }))))).toMatchObject({ status: 202 });
    await flushEvents();
    const [row] = await storedVitals();
    expect(row.cls).toBeCloseTo(0.12, 5);
    expect(row.inp).toBe(120);
    // The dealer sees it at once.
    const read = await callRoute(getVitals, { websiteId: String(w.a.websiteId) }, { key: w.a.key, query: '' });
    const body = (await read.json()) as { page_views: number; metrics: Record<string, { p75: number }> };
    expect(body.page_views).toBe(1);
    expect(body.metrics.LCP.p75).toBe(1234);
  });

  it('refuses hostile reports with 4xx naming the field, and stores nothing of them', async () => {
    const cases: [string, number, string][] = [
      [json(report({}, { LCP: -1 })), 422, 'metrics.LCP'],
      [json(report({}, { TTFB: -0.5 })), 422, 'metrics.TTFB'],
      [json(report({}, { LCP: 1e12 })), 422, 'metrics.LCP'],
      [json(report({}, { INP: 60_001 })), 422, 'metrics.INP'],
      [json(report({}, { CLS: 11 })), 422, 'metrics.CLS'],
      // JSON has no NaN or Infinity: as literals the body is not JSON; 1e400 parses to Infinity.
      ['{"type":"web_vitals","view_id":"v","page_type":"home","metrics":{"LCP":NaN}}', 400, ''],
      ['{"type":"web_vitals","view_id":"v","page_type":"home","metrics":{"CLS":Infinity}}', 400, ''],
      ['{"type":"web_vitals","view_id":"v","page_type":"home","metrics":{"FCP":1e400}}', 422, 'metrics.FCP'],
      [json(report({}, { LCP: 'NaN' })), 422, 'metrics.LCP'],
      [json(report({}, { LCP: '1200' })), 422, 'metrics.LCP'],
      [json(report({}, { LCP: null })), 422, 'metrics.LCP'],
      [json(report({}, { CLS: true })), 422, 'metrics.CLS'],
      [json(report({}, { INP: [100] })), 422, 'metrics.INP'],
      [json(report({}, { TTFB: { value: 1 } })), 422, 'metrics.TTFB'],
      [json(report({}, { FID: 12 })), 422, 'metrics.FID'],
      ['{"type":"web_vitals","view_id":"v","page_type":"home","metrics":{"LCP":1,"__proto__":{"x":1}}}', 422, 'metrics.__proto__'],
      [json(report({}, {})), 422, 'metrics'],
      [json(report({ metrics: [1200] })), 422, 'metrics'],
      [json(report({ metrics: 'LCP=1200' })), 422, 'metrics'],
      [json(report({ page_type: 'admin' })), 422, 'page_type'],
      [json(report({ page_type: 3 })), 422, 'page_type'],
      [json(report({ view_id: '../../etc' })), 422, 'view_id'],
      [json(report({ view_id: 'x'.repeat(65) })), 422, 'view_id'],
      [json(report({ view_id: 7 })), 422, 'view_id'],
      [json(report({ type: 'web_vitalz' })), 422, 'type'],
      [json(report({ website_id: w.b.websiteId })), 422, 'website_id'],
      [json(report({ website_slug: 'beta-cars' })), 403, 'website_slug'],
      // One bad report refuses the whole batch: the good page view and report with it are not stored.
      [json([{ category: 1 }, report({ view_id: 'good' }), report({ view_id: 'bad' }, { LCP: -5 })]), 422, '2.metrics.LCP'],
    ];
    for (const [body, status, field] of cases) {
      const response = await post(body);
      expect(response.status, body).toBe(status);
      const answer = (await response.json()) as { fields?: Record<string, string> };
      if (field) expect(answer.fields, body).toHaveProperty([field]);
    }
    // Another website's page posting to this one (its Origin), and this website's report sent to another's host.
    expect((await post(json(report()), { headers: { origin: `http://${HOST_B}` } })).status).toBe(403);
    expect((await post(json(report({ website_slug: 'alpha-motors' })), { host: HOST_B })).status).toBe(403);
    await flushEvents();
    expect(await storedVitals()).toEqual([]);
    expect(await db.select().from(analyticsEvents)).toEqual([]);
  });

  it('names why: the reason of each refused field', async () => {
    const response = await post(json([report({}, { LCP: -1, FID: 3 }), report({ page_type: 'admin' }, { CLS: 10.5 })]));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'Invalid event',
      fields: {
        '0.metrics.LCP': 'must not be negative',
        '0.metrics.FID': 'is not a metric (LCP, INP, CLS, FCP, TTFB)',
        '1.page_type': 'must be a page type (home, search, car, checkout, trade-in, finance, success, service, test-drive, contact, content, garage, other)',
        '1.metrics.CLS': 'must be at most 10',
      },
    });
  });
});

describe('GET /websites/{id}/web_vitals.json', () => {
  let db: Db;
  let w: DashboardWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedDashboardWorld(db);
    const a = w.a.websiteId;
    const row = (viewId: string, day: string, pageType: string, m: { lcp?: number; inp?: number; cls?: number; fcp?: number; ttfb?: number }) => ({ websiteId: a, viewId, day, pageType, ...m });
    await db.insert(webVitals).values([
      row('h1', '2026-11-24', 'home', { lcp: 1000, inp: undefined, cls: 0.01, fcp: 800, ttfb: 100 }),
      row('h2', '2026-11-24', 'home', { lcp: 2000, inp: 100, cls: 0.02, fcp: 900, ttfb: 200 }),
      row('h3', '2026-11-24', 'home', { lcp: 3000, inp: 150, cls: 0.08, fcp: 1000, ttfb: 300 }),
      row('h4', '2026-11-24', 'home', { lcp: 4000, inp: 600, cls: 0.2, fcp: 1100, ttfb: 2000 }),
      row('c1', '2026-11-25', 'car', { lcp: 1500, inp: 50, cls: 0, fcp: 1000, ttfb: 900 }),
      row('c2', '2026-11-25', 'car', { lcp: 2500, cls: 0, fcp: 1200, ttfb: 1900 }),
      row('late', '2026-11-26', 'search', { lcp: 9000, cls: 0.3 }),
      { websiteId: w.b.websiteId, viewId: 'b1', day: '2026-11-24', pageType: 'home', lcp: 100 },
    ]);
  });

  const get = (websiteId: number, query: string, key: DashboardWorld['a']['key'] | null = w.a.key) => callRoute(getVitals, { websiteId: String(websiteId) }, { key, query });
  const m = (p75: number | null, rating: string | null, samples: number) => ({ p75, rating, samples });

  it('reports each metric’s p75 with page views and Google’s rating, in total, per page type and per local day', async () => {
    const response = await get(w.a.websiteId, '?from=2026-11-24&to=2026-11-25');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const body = (await response.json()) as Record<string, unknown>;
    // p75 by linear interpolation: LCP of six views 1000…4000 → 2500 + 0.75 × 500.
    expect(body).toMatchObject({
      website_id: w.a.websiteId,
      time_zone: 'Australia/Sydney',
      from: '2026-11-24',
      to: '2026-11-25',
      page_views: 6,
      metrics: {
        LCP: m(2875, 'needs improvement', 6),
        INP: m(263, 'needs improvement', 4),
        CLS: m(0.065, 'good', 6),
        FCP: m(1075, 'good', 6),
        TTFB: m(1650, 'needs improvement', 6),
      },
      thresholds: {
        LCP: { good: 2500, poor: 4000, unit: 'ms' },
        INP: { good: 200, poor: 500, unit: 'ms' },
        CLS: { good: 0.1, poor: 0.25, unit: 'score' },
        FCP: { good: 1800, poor: 3000, unit: 'ms' },
        TTFB: { good: 800, poor: 1800, unit: 'ms' },
      },
    });
    expect(body.page_types).toEqual([
      {
        page_type: 'home',
        page_views: 4,
        metrics: { LCP: m(3250, 'needs improvement', 4), INP: m(375, 'needs improvement', 3), CLS: m(0.11, 'needs improvement', 4), FCP: m(1025, 'good', 4), TTFB: m(725, 'good', 4) },
      },
      {
        page_type: 'car',
        page_views: 2,
        metrics: { LCP: m(2250, 'good', 2), INP: m(50, 'good', 1), CLS: m(0, 'good', 2), FCP: m(1150, 'good', 2), TTFB: m(1650, 'needs improvement', 2) },
      },
    ]);
    expect((body.days as { date: string; page_views: number }[]).map((d) => [d.date, d.page_views])).toEqual([
      ['2026-11-24', 4],
      ['2026-11-25', 2],
    ]);
  });

  it('rates a p75 above the upper threshold poor; a range without views has none', async () => {
    const late = (await (await get(w.a.websiteId, '?from=2026-11-26&to=2026-11-26')).json()) as { page_views: number; metrics: Record<string, unknown> };
    expect(late.page_views).toBe(1);
    expect(late.metrics.LCP).toEqual(m(9000, 'poor', 1));
    expect(late.metrics.CLS).toEqual(m(0.3, 'poor', 1));
    expect(late.metrics.INP).toEqual(m(null, null, 0));
    const empty = (await (await get(w.a.websiteId, '?from=2026-10-01&to=2026-10-02')).json()) as { page_views: number; page_types: unknown[]; days: unknown[] };
    expect(empty).toMatchObject({ page_views: 0, page_types: [], days: [] });
  });

  it('is tenant-scoped: another dealer’s website is 404, no credentials 401; B’s key sees only B', async () => {
    const other = await get(w.b.websiteId, '?from=2026-11-01&to=2026-11-30');
    expect(other.status).toBe(404);
    expect(JSON.stringify(await other.json())).not.toContain('"p75"');
    expect((await get(w.a.websiteId, '', null)).status).toBe(401);
    const own = (await (await get(w.b.websiteId, '?from=2026-11-01&to=2026-11-30', w.b.key)).json()) as { page_views: number; metrics: Record<string, unknown> };
    expect(own.page_views).toBe(1);
    expect(own.metrics.LCP).toEqual(m(100, 'good', 1));
  });

  it('refuses a bad range with 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['?from=2026-02-30', 'from'],
      ['?to=tomorrow', 'to'],
      ['?from=2026-11-25&to=2026-11-24', 'from'],
      ['?page_type=home', 'page_type'],
    ] as const) {
      const response = await get(w.a.websiteId, query);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { fields: Record<string, string> }).fields, query).toHaveProperty([field]);
    }
  });

  it('is in analytics.json too: p75 with page views, in total and per page type', async () => {
    const response = await callRoute(getAnalytics, { websiteId: String(w.a.websiteId) }, { key: w.a.key, query: '?from=2026-11-24&to=2026-11-25' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { web_vitals: { page_views: number; metrics: Record<string, unknown>; page_types: { page_type: string; page_views: number }[] } };
    expect(body.web_vitals.page_views).toBe(6);
    expect(body.web_vitals.metrics.LCP).toEqual(m(2875, 'needs improvement', 6));
    expect(body.web_vitals.page_types.map((p) => [p.page_type, p.page_views])).toEqual([
      ['home', 4],
      ['car', 2],
    ]);
    expect((await callRoute(getAnalytics, { websiteId: String(w.b.websiteId) }, { key: w.a.key, query: '' })).status).toBe(404);
    expect(await db.select().from(webVitals).where(eq(webVitals.websiteId, w.b.websiteId))).toHaveLength(1);
  });
});
