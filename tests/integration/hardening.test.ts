import { beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { basicAuth, callRoute, carBody } from '@/modules/dashboard/dashboard.test-support';
import { POST as postLead } from '@/app/api/leads/route';
import { PUT as putLead } from '@/app/api/leads/[leadId]/route';
import { POST as postWithFiles } from '@/app/api/leads/with-files/route';
import { POST as postValuation, PUT as putValuation } from '@/app/api/valuations/route';
import { POST as postMiscellaneous } from '@/app/api/miscellaneous/route';
import { POST as phoneReveal } from '@/app/api/phone-reveal/route';
import { POST as carPhoneCall } from '@/app/api/events/car_phone_call/route';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';
import { leadDeliveries, leads } from '@/modules/leads/leads.schema';
import { cars } from '@/modules/stock/stock.schema';
import { VALUATIONS_PER_IP_PER_HOUR } from '@/modules/leads/leads.valuations';
import { PHONE_EVENTS_PER_IP_PER_HOUR } from '@/modules/stock/car-phone.http';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';

// Every scrypt run of the Dashboard API's key check, counted (the real scrypt still runs), so a test
// can prove a refused login spent none.
const scryptRuns = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: Parameters<typeof actual.scrypt>) => {
    scryptRuns.count += 1;
    return (actual.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof actual.scrypt;
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

/**
 * Issue 13's defects, each as the request that showed it: every test here failed on the code
 * before the fix (forged addresses, PUT without a secret, cross-site bodies, tracking parameters
 * that blocked leads, inherited-member categories, unlimited endpoints, hidden car ids).
 */

let counter = 0;
const nextIp = () => `198.51.100.${(counter += 1) % 250}`;

describe('hardening', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  const carParams = (slug: string) => ({ websiteId: String(w.a.websiteId), slug: `${slug}.json` });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    callLeadRoute(postLead, { host: w.hostA, body, headers: { [CLIENT_ADDRESS_HEADER]: '203.0.113.50', ...headers } });
  const put = (id: string, body: unknown, token: string | null, headers: Record<string, string> = {}) =>
    callLeadRoute(putLead, { host: w.hostA, method: 'PUT', body, params: { leadId: id }, headers: { ...(token ? { 'x-edit-token': token } : {}), ...headers } });

  async function startLead(lead: Record<string, unknown> = {}) {
    const response = await post({ lead: validLead({ lead_status: 'Incomplete', form_completed: false, step_number: 1, ...lead }) }, { [CLIENT_ADDRESS_HEADER]: nextIp() });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; token: string };
  }

  describe('defect 2: limits count the client, not a header it sets', () => {
    it('a forged X-Forwarded-For (or any other forwarding header) does not open a new per-IP window', async () => {
      const address = '203.0.113.77';
      let last: Response | undefined;
      for (let i = 0; i < 31; i += 1) {
        last = await post({ lead: validLead() }, { [CLIENT_ADDRESS_HEADER]: address, 'x-forwarded-for': `10.9.${i}.1`, 'x-real-ip': `10.8.${i}.1`, forwarded: `for=10.7.${i}.1` });
      }
      expect(last!.status).toBe(429);
      expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('defect 3: later steps need the lead’s secret, count against limits, and a sent lead stays as sent', () => {
    it('PUT without the edit token, or with another lead’s, is 404 and changes nothing', async () => {
      const mine = await startLead();
      const other = await startLead();
      expect((await put(mine.id, { lead: { message: 'Rewritten by someone else' } }, null)).status).toBe(404);
      expect((await put(mine.id, { lead: { message: 'Rewritten by someone else' } }, other.token)).status).toBe(404);
      expect((await put(mine.id, { lead: { message: 'Rewritten by someone else' } }, 'x'.repeat(300))).status).toBe(404);
      const [row] = await db.select().from(leads).where(eq(leads.id, mine.id));
      expect(row.message).not.toBe('Rewritten by someone else');
      expect((await put(mine.id, { lead: { message: 'My own second step text' } }, mine.token)).status).toBe(200);
    });

    it('a completed lead is not changed again: a repeated final step answers its id, a partial one 409', async () => {
      const lead = await startLead();
      expect((await put(lead.id, { lead: { lead_status: 'Complete', form_completed: true } }, lead.token)).status).toBe(200);
      const again = await put(lead.id, { lead: { lead_status: 'Complete', message: 'Changed after sending it' } }, lead.token);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ id: lead.id });
      expect((await put(lead.id, { lead: { lead_status: 'Incomplete', message: 'Changed after sending it' } }, lead.token)).status).toBe(409);
      const [row] = await db.select().from(leads).where(eq(leads.id, lead.id));
      expect(row.message).not.toBe('Changed after sending it');
      expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, lead.id))).toHaveLength(1);
    });

    it('a phone over its limit cannot be brought in by PUT: the step is refused and nothing is delivered', async () => {
      const phone = '0412 555 010';
      for (let i = 0; i < 10; i += 1) expect((await post({ lead: validLead({ phone }) }, { [CLIENT_ADDRESS_HEADER]: nextIp() })).status).toBe(201);
      const lead = await startLead({ phone: undefined });
      const response = await put(lead.id, { lead: { phone, lead_status: 'Complete', form_completed: true } }, lead.token);
      expect(response.status).toBe(429);
      expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, lead.id))).toHaveLength(0);
      const [row] = await db.select().from(leads).where(eq(leads.id, lead.id));
      expect(row.formCompleted).toBe(false);
    });

    it('PUTs from one address are limited per hour', async () => {
      const lead = await startLead();
      const address = '203.0.113.88';
      // Decision 024: 120 later steps per address an hour; the 121st is refused.
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 121; i += 1) {
        last = await put(lead.id, { lead: { step_number: 1 } }, 'wrong', { [CLIENT_ADDRESS_HEADER]: address });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 120).filter((s) => s === 429)).toEqual([]);
      expect(last!.status).toBe(429);
      expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('defect 4: same-site JSON writes only', () => {
    const jsonBody = () => JSON.stringify({ lead: validLead() });
    type Call = [string, () => Promise<Response>];

    it('refuses text/plain (a form post another site can make) on every visitor write with 415', async () => {
      const headers = { 'content-type': 'text/plain', [CLIENT_ADDRESS_HEADER]: nextIp() };
      const calls: Call[] = [
        ['leads', () => callLeadRoute(postLead, { host: w.hostA, rawBody: jsonBody(), headers })],
        ['with-files', () => callLeadRoute(postWithFiles, { host: w.hostA, rawBody: jsonBody(), headers })],
        ['valuations', () => callLeadRoute(postValuation, { host: w.hostA, rawBody: '{"valuation":{}}', headers })],
        ['valuations PUT', () => callLeadRoute(putValuation, { host: w.hostA, method: 'PUT', rawBody: '{"valuation":{}}', headers })],
        ['miscellaneous', () => callLeadRoute(postMiscellaneous, { host: w.hostA, rawBody: '{"column_name":"a","data":{}}', headers })],
        ['car_phone_call', () => carPhoneCall(new Request(`http://${w.hostA}/api/events/car_phone_call`, { method: 'POST', headers: { host: w.hostA, ...headers }, body: '{}' }))],
        ['phone-reveal', () => phoneReveal(new Request(`http://${w.hostA}/api/phone-reveal`, { method: 'POST', headers: { host: w.hostA, ...headers }, body: '{}' }))],
      ];
      for (const [name, call] of calls) expect((await call()).status, name).toBe(415);
    });

    it('refuses a foreign Origin, Origin null and Sec-Fetch-Site cross-site or same-site with 403, for every website host', async () => {
      for (const [host, otherHost] of [[w.hostA, w.hostB], [w.hostB, w.hostA]]) {
        const foreign: Record<string, string>[] = [
          { origin: 'https://evil.example' },
          { origin: `http://${otherHost}` },
          { origin: 'null' },
          { 'sec-fetch-site': 'cross-site' },
          { 'sec-fetch-site': 'same-site' },
        ];
        for (const headers of foreign) {
          const response = await callLeadRoute(postLead, { host, body: { lead: validLead() }, headers: { ...headers, [CLIENT_ADDRESS_HEADER]: nextIp() } });
          expect(response.status, `${host} ${JSON.stringify(headers)}`).toBe(403);
        }
        const dashboard = await callRoute(carRoute.DELETE, carParams('a-camry-1'), { method: 'DELETE', key: w.a.key, headers: { origin: 'https://evil.example' } });
        expect(dashboard.status).toBe(403);
      }
      expect(await db.select().from(cars).where(and(eq(cars.websiteId, w.a.websiteId), eq(cars.slug, 'a-camry-1')))).toHaveLength(1);
    });

    it('accepts the website’s own origin (any port) and requests without Origin', async () => {
      for (const headers of [{ origin: `http://${w.hostA}:3000`, 'sec-fetch-site': 'same-origin' }, {}] as Record<string, string>[]) {
        expect((await callLeadRoute(postLead, { host: w.hostA, body: { lead: validLead() }, headers: { ...headers, [CLIENT_ADDRESS_HEADER]: nextIp() } })).status).toBe(201);
      }
    });

    it('the Dashboard API takes JSON bodies only', async () => {
      const response = await callRoute(carRoute.PUT, carParams('new-car'), { method: 'PUT', key: w.a.key, rawBody: JSON.stringify(carBody()), headers: { 'content-type': 'text/plain' } });
      expect(response.status).toBe(415);
    });
  });

  describe('defect 5: data the visitor did not type never blocks a lead', () => {
    it('accepts tracking parameters with line breaks, blanks and junk, a long page address and a dirty trail, cleaned', async () => {
      const response = await post(
        {
          lead: validLead({
            url: `https://alpha.example/cars/a-camry-1?${'q'.repeat(3000)}`,
            visited_pages: ['/?utm_campaign=spring\nsale', 5, null, `/${'p'.repeat(3000)}`, '/cars/a\u0000b'],
            linked_query_params: { utm_campaign: 'spring\nsale', utm_source: ' ', 'utm\u0000medium': 'x\uD800y', gclid: 42, [`k${'k'.repeat(200)}`]: 'v' },
            step_number: 'two',
            fill_ms: -5,
            skipped_steps: 'none',
            has_files: 'yes',
          }),
        },
        { [CLIENT_ADDRESS_HEADER]: nextIp() },
      );
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      const [row] = await db.select().from(leads).where(eq(leads.id, id));
      expect(row.url).toHaveLength(2048);
      expect(row.visitedPages).toEqual(['/?utm_campaign=spring sale', `/${'p'.repeat(2047)}`, '/cars/a b']);
      expect(row.linkedQueryParams).toEqual({ utm_campaign: 'spring sale', 'utm medium': 'x y', [`k${'k'.repeat(99)}`]: 'v' });
      expect(row.stepNumber).toBeNull();
    });

    it('a car the website does not list (hidden, another website’s, unknown) is treated as no car, alike', async () => {
      const [hidden] = await db.update(cars).set({ showOnDealerWebsite: false }).where(and(eq(cars.websiteId, w.a.websiteId), eq(cars.slug, 'a-camry-2'))).returning({ id: cars.id });
      for (const carId of [hidden.id, w.carB, 2_000_000_000]) {
        const response = await post({ lead: validLead({ car_id: carId }) }, { [CLIENT_ADDRESS_HEADER]: nextIp() });
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        const [row] = await db.select().from(leads).where(eq(leads.id, id));
        expect(row.carId).toBeNull();
      }
    });
  });

  describe('defect 6: nothing a client sends causes a 500', () => {
    it('categories named after inherited members are plain categories, on POST and PUT', async () => {
      for (const category of ['toString', '__proto__', 'constructor', 'valueOf', 'hasOwnProperty']) {
        const response = await post({ lead: validLead({ category }) }, { [CLIENT_ADDRESS_HEADER]: nextIp() });
        expect(response.status, category).toBe(201);
        const lead = await startLead();
        expect((await put(lead.id, { lead: { category } }, lead.token)).status, category).toBe(200);
      }
    });

    it('an extra field named after an inherited member is checked like any other', async () => {
      const response = await post({ lead: { ...validLead(), constructor: 'x', toString: 'y' } }, { [CLIENT_ADDRESS_HEADER]: nextIp() });
      expect(response.status).toBe(201);
    });
  });

  describe('defect 7: every visitor endpoint and Dashboard login is limited', () => {
    const phoneBody = () => JSON.stringify({ car_id: w.carA, dealership_id: w.a.dealershipId, website_id: w.a.websiteId });
    const phoneCall = (handler: (r: Request) => Promise<Response>, address: string) =>
      handler(new Request(`http://${w.hostA}/api`, { method: 'POST', headers: { host: w.hostA, 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: address }, body: phoneBody() }));

    it('phone reveals and call events: 429 with Retry-After past the hourly limit', async () => {
      for (const [handler, address] of [[phoneReveal, '203.0.113.91'], [carPhoneCall, '203.0.113.92']] as const) {
        let last: Response | undefined;
        for (let i = 0; i <= PHONE_EVENTS_PER_IP_PER_HOUR; i += 1) last = await phoneCall(handler, address);
        expect(last!.status).toBe(429);
        expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await phoneCall(handler, '203.0.113.93')).status).toBeLessThan(300);
      }
    });

    it('valuations and miscellaneous share an hourly limit', async () => {
      const headers = { [CLIENT_ADDRESS_HEADER]: '203.0.113.94' };
      for (let i = 0; i < VALUATIONS_PER_IP_PER_HOUR; i += 1) {
        const handler = i % 2 ? postValuation : postMiscellaneous;
        const body = i % 2 ? { valuation: { make: 'Mazda' } } : { column_name: 'a', data: {} };
        expect((await callLeadRoute(handler, { host: w.hostA, body, headers })).status).toBeLessThan(300);
      }
      const refused = await callLeadRoute(postValuation, { host: w.hostA, body: { valuation: {} }, headers });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('failed Dashboard logins from one address are refused before any scrypt run; the right key elsewhere still works', async () => {
      const wrong = basicAuth({ keyId: w.a.key.keyId, secret: 'not-the-secret' });
      const address = '203.0.113.95';
      const statuses: number[] = [];
      const runsBefore = scryptRuns.count;
      // Decision 024: 10 failed logins per key id and address, 30 per address, in 15 minutes.
      const LOGIN_FAILURES_PER_KEY_AND_IP = 10;
      const LOGIN_FAILURES_PER_IP = 30;
      for (let i = 0; i < LOGIN_FAILURES_PER_KEY_AND_IP + 1; i += 1) {
        statuses.push((await callRoute(carRoute.GET, carParams('a-camry-1'), { authorization: wrong, headers: { [CLIENT_ADDRESS_HEADER]: address } })).status);
      }
      expect(statuses.slice(0, LOGIN_FAILURES_PER_KEY_AND_IP)).toEqual(Array(LOGIN_FAILURES_PER_KEY_AND_IP).fill(401));
      expect(statuses.at(-1)).toBe(429);
      // One scrypt run per wrong secret checked, none for the refusal.
      expect(scryptRuns.count - runsBefore).toBe(LOGIN_FAILURES_PER_KEY_AND_IP);
      const runsAtLimit = scryptRuns.count;
      const refused = await callRoute(carRoute.GET, carParams('a-camry-1'), { authorization: wrong, headers: { [CLIENT_ADDRESS_HEADER]: address } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(scryptRuns.count).toBe(runsAtLimit);
      const ok = await callRoute(carRoute.GET, carParams('a-camry-1'), { key: w.a.key, headers: { [CLIENT_ADDRESS_HEADER]: '203.0.113.96' } });
      expect(ok.status).toBe(200);
      // Unknown key ids count against the address too.
      const guessing = '203.0.113.97';
      const guesses: number[] = [];
      for (let i = 0; i <= LOGIN_FAILURES_PER_IP; i += 1) {
        const keyId = `dk_${String(i).padStart(24, '0')}`;
        guesses.push((await callRoute(carRoute.GET, carParams('a-camry-1'), { authorization: basicAuth({ keyId, secret: 'x' }), headers: { [CLIENT_ADDRESS_HEADER]: guessing } })).status);
      }
      expect(guesses).toEqual([...Array<number>(LOGIN_FAILURES_PER_IP).fill(401), 429]);
    });
  });

  it('the limiter keeps its counters in the database, shared by every process', async () => {
    const rows = await db.execute(sql`select count(*)::int as n from rate_limits where key like 'lead-step-ip:%' or key like 'valuation-ip:%' or key like 'phone-reveal-ip:%' or key like 'dashboard-login-%'`);
    const [{ n }] = (Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows) as { n: number }[];
    expect(n).toBeGreaterThan(0);
  });
});
