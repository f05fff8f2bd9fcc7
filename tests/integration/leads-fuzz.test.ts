import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as leadsRoute from '@/app/api/leads/route';
import * as visitorRoute from '@/app/api/leads/[leadId]/route';
import * as withFilesRoute from '@/app/api/leads/with-files/route';
import * as valuationsRoute from '@/app/api/valuations/route';
import * as miscRoute from '@/app/api/miscellaneous/route';
import { phoneError, DEFAULT_PHONE_RULE } from '@/lib/phone';
import { locations } from '@/modules/locations/locations.schema';
import { cars } from '@/modules/stock/stock.schema';
import { leadFiles, leads, valuations } from '@/modules/leads/leads.schema';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { emailSchema, nameSchema } from '@/modules/leads/form-rules/schemas';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';

/**
 * At least 1,000 malformed or hostile payloads per lead endpoint: wrong types, huge strings,
 * unicode oddities, markup, SQL, prototype keys, other websites' ids. None may produce a 5xx, and
 * whatever is stored must satisfy the rules.
 */

const PER_ENDPOINT = 1000;

function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1",
  "Robert'); DROP TABLE leads;--",
  '1; SELECT pg_sleep(10)',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202eevil',
  'zero\u200bwidth',
  '👍🏽🚗',
  'Ωmega Ñame',
  '${7*7}',
  '{{constructor.constructor("x")()}}',
  '../../../etc/passwd',
  'javascript:alert(1)',
  'x'.repeat(100_000),
  'é'.repeat(5001),
  '0411 222 333',
  '+61 411 222 333',
  'jane@example.com',
  '2000',
  'NaN',
  '-1',
  '1e308',
  'undefined undefined',
  '__proto__',
  'Incomplete',
];

function hostileValue(random: () => number, depth = 0, otherIds: number[] = []): unknown {
  const pick = <T,>(items: T[]) => items[Math.floor(random() * items.length)];
  switch (Math.floor(random() * 12)) {
    case 0:
      return pick([0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER, ...otherIds]);
    case 1:
      return pick([true, false, null]);
    case 2:
      return depth > 3 ? [] : Array.from({ length: Math.floor(random() * 5) }, () => hostileValue(random, depth + 1, otherIds));
    case 3:
      return depth > 3 ? {} : { [pick(['__proto__', 'constructor', 'a', 'lead', '$where'])]: hostileValue(random, depth + 1, otherIds) };
    case 4:
      return Array.from({ length: 300 }, () => 'x');
    default:
      return pick(HOSTILE_STRINGS);
  }
}

const LEAD_KEYS = [
  'name', 'first_name', 'last_name', 'email', 'phone', 'postcode', 'category', 'subcategory', 'message', 'car_id', 'location_id',
  'car_dealership_id', 'dealership_slug', 'website_slug', 'visited_pages', 'linked_query_params', 'lead_status', 'form_completed',
  'skipped_steps', 'step_number', 'favourite_color', 'fill_ms', 'url', 'state', '__proto__', 'constructor', 'Vehicle Make', 'x<y', '',
];

function hostileLead(random: () => number, otherIds: number[]): Record<string, unknown> {
  const lead: Record<string, unknown> = random() < 0.5 ? validLead() : {};
  const mutations = 1 + Math.floor(random() * 4);
  for (let i = 0; i < mutations; i += 1) {
    const key = LEAD_KEYS[Math.floor(random() * LEAD_KEYS.length)];
    Object.defineProperty(lead, key, { value: hostileValue(random, 0, otherIds), enumerable: true, configurable: true, writable: true });
  }
  return lead;
}

function hostileBody(random: () => number, wrap: string, inner: () => unknown): { body?: unknown; rawBody?: string } {
  const r = random();
  if (r < 0.08) return { rawBody: ['{', '[', 'null', '"lead"', '{"lead":', '\u0000', 'x'.repeat(70_000), '{"lead":{"a":1}}}'][Math.floor(random() * 8)] };
  if (r < 0.15) return { body: hostileValue(random) };
  return { body: { [wrap]: inner() } };
}

describe('lead endpoints under hostile input', () => {
  let db: Db;
  let w: LeadWorld;
  let otherIds: number[];
  let ownLeadId: string;
  let otherLeadId: string;
  let ownValuationId: string;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
    otherIds = [w.carB, w.b.salesLocationId, w.b.dealershipId, w.b.websiteId];
    ownLeadId = ((await (await callLeadRoute(leadsRoute.POST, { host: w.hostA, body: { lead: validLead() } })).json()) as { id: string }).id;
    otherLeadId = ((await (await callLeadRoute(leadsRoute.POST, { host: w.hostB, body: { lead: validLead() } })).json()) as { id: string }).id;
    ownValuationId = ((await (await callLeadRoute(valuationsRoute.POST, { host: w.hostA, body: { valuation: { make: 'Mazda' } } })).json()) as { id: string }).id;
  });

  async function run(name: string, seed: number, send: (random: () => number, i: number) => Promise<Response>) {
    const random = prng(seed);
    const statuses = new Map<number, number>();
    for (let i = 0; i < PER_ENDPOINT; i += 1) {
      const response = await send(random, i);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) throw new Error(`${name} #${i}: ${response.status} ${await response.text()}`);
      await response.body?.cancel();
    }
    return statuses;
  }

  const ip = (i: number) => `10.9.${(i >> 8) & 255}.${i & 255}`;

  it('POST /api/leads', async () => {
    const statuses = await run('POST /api/leads', 1, (random, i) => {
      const body = hostileBody(random, 'lead', () => hostileLead(random, otherIds));
      const headers: Record<string, string> = { 'x-dealer-client-address': ip(i) };
      if (random() < 0.1) headers['idempotency-key'] = ['\u00e9', 'k'.repeat(300), 'ok-key', ''][Math.floor(random() * 4)];
      return callLeadRoute(leadsRoute.POST, { host: w.hostA, ...body, headers });
    });
    expect(statuses.get(422)).toBeGreaterThan(100);
  }, 600_000);

  it('PUT /api/leads/{id}', async () => {
    await run('PUT /api/leads/{id}', 2, (random, i) => {
      const id = [ownLeadId, otherLeadId, 'x', '00000000-0000-0000-0000-000000000000', ownLeadId.toUpperCase(), "1' or '1'='1"][Math.floor(random() * 6)];
      const body = hostileBody(random, 'lead', () => hostileLead(random, otherIds));
      return callLeadRoute(visitorRoute.PUT, { host: w.hostA, method: 'PUT', params: { leadId: id }, ...body, headers: { 'x-dealer-client-address': ip(i) } });
    });
  }, 600_000);

  it('POST /api/leads/with-files', async () => {
    const signatures = [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('%PDF-1.4\n'), Buffer.from('<svg onload=alert(1)>'), Buffer.from('MZ'), Buffer.alloc(0), Buffer.from('GIF89a')];
    await run('POST /api/leads/with-files', 3, (random, i) => {
      if (random() < 0.1) return callLeadRoute(withFilesRoute.POST, { host: w.hostA, rawBody: 'not multipart', headers: { 'content-type': 'multipart/form-data; boundary=zzz' } });
      const form = new FormData();
      if (random() < 0.9) form.set('lead', random() < 0.2 ? String(hostileValue(random)) : JSON.stringify(hostileLead(random, otherIds)));
      const files = Math.floor(random() * 8);
      for (let f = 0; f < files; f += 1) {
        const bytes = Buffer.concat([signatures[Math.floor(random() * signatures.length)], Buffer.from('payload')]);
        form.append(random() < 0.9 ? 'files' : 'lead', new Blob([new Uint8Array(bytes)]), String(hostileValue(random)).slice(0, 300));
      }
      return callLeadRoute(withFilesRoute.POST, { host: w.hostA, rawBody: form, headers: { 'x-dealer-client-address': ip(i) } });
    });
  }, 600_000);

  const valuationKeys = ['id', 'lead_id', 'car_id', 'rego', 'state', 'vin', 'make', 'model', 'year', 'km', 'condition', '__proto__', 'bad key!'];
  const hostileValuation = (random: () => number) => {
    const valuation: Record<string, unknown> = random() < 0.5 ? { id: [ownValuationId, otherLeadId, 'x'][Math.floor(random() * 3)], make: 'Mazda' } : {};
    for (let m = 0; m < 1 + Math.floor(random() * 4); m += 1) {
      const key = valuationKeys[Math.floor(random() * valuationKeys.length)];
      Object.defineProperty(valuation, key, { value: key === 'lead_id' && random() < 0.5 ? otherLeadId : hostileValue(random, 0, otherIds), enumerable: true, configurable: true, writable: true });
    }
    return valuation;
  };

  it('POST and PUT /api/valuations', async () => {
    await run('POST /api/valuations', 4, (random) => callLeadRoute(valuationsRoute.POST, { host: w.hostA, ...hostileBody(random, 'valuation', () => hostileValuation(random)) }));
    await run('PUT /api/valuations', 5, (random) => callLeadRoute(valuationsRoute.PUT, { host: w.hostA, method: 'PUT', ...hostileBody(random, 'valuation', () => hostileValuation(random)) }));
  }, 600_000);

  it('POST /api/miscellaneous', async () => {
    await run('POST /api/miscellaneous', 6, (random) => {
      const body = random() < 0.15 ? hostileBody(random, 'x', () => 1) : { body: { valuation_id: random() < 0.5 ? ownValuationId : hostileValue(random), column_name: random() < 0.5 ? 'autograb' : hostileValue(random), data: random() < 0.5 ? { price: 1 } : hostileValue(random) } };
      return callLeadRoute(miscRoute.POST, { host: w.hostA, ...body });
    });
  }, 600_000);

  it('stored nothing invalid and nothing that points at another website', async () => {
    const rule = phoneRuleFor(w.a.tenant.config);
    const stored = await db.select().from(leads).where(eq(leads.websiteId, w.a.websiteId));
    expect(stored.length).toBeGreaterThan(20);
    const ownCars = new Set((await db.select({ id: cars.id }).from(cars).where(eq(cars.websiteId, w.a.websiteId))).map((c) => c.id));
    const ownLocations = new Set((await db.select({ id: locations.id }).from(locations).where(eq(locations.websiteId, w.a.websiteId))).map((l) => l.id));
    const control = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
    for (const lead of stored) {
      if (lead.email) expect(emailSchema.safeParse(lead.email).success, lead.email).toBe(true);
      if (lead.phone) expect(phoneError(lead.phone, { ...DEFAULT_PHONE_RULE, ...rule })).toBeNull();
      if (lead.postcode) expect(lead.postcode).toMatch(/^\d{4}$/);
      if (lead.name) expect(nameSchema.safeParse(lead.name).success, lead.name).toBe(true);
      if (lead.carId !== null) expect(ownCars.has(lead.carId)).toBe(true);
      if (lead.locationId !== null) expect(ownLocations.has(lead.locationId)).toBe(true);
      expect(lead.dealershipId).toBe(w.a.dealershipId);
      expect((lead.message ?? '').length).toBeLessThanOrEqual(5000);
      const text = JSON.stringify(lead);
      expect(control.test(text.replace(/\\u00[01][0-9a-f]/gi, ''))).toBe(false);
      expect(text).not.toContain('\\u0000');
      expect(lead.visitedPages.length).toBeLessThanOrEqual(50);
    }
    const files = await db.select({ contentType: leadFiles.contentType, websiteId: leadFiles.websiteId }).from(leadFiles);
    expect(files.every((f) => ['image/jpeg', 'application/pdf'].includes(f.contentType) && f.websiteId === w.a.websiteId)).toBe(true);
    const values = await db.select().from(valuations).where(eq(valuations.websiteId, w.a.websiteId));
    for (const valuation of values) {
      if (valuation.carId !== null) expect(ownCars.has(valuation.carId)).toBe(true);
      if (valuation.year !== null) expect(valuation.year).toBeGreaterThanOrEqual(1900);
    }
    const [otherLead] = await db.select().from(leads).where(eq(leads.id, otherLeadId));
    expect(otherLead.websiteId).toBe(w.b.websiteId);
    expect(otherLead.stepNumber).toBeNull();
  });
});
