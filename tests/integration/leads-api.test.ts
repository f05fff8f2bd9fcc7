import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as leadsRoute from '@/app/api/leads/route';
import * as visitorRoute from '@/app/api/leads/[leadId]/route';
import * as withFilesRoute from '@/app/api/leads/with-files/route';
import * as valuationsRoute from '@/app/api/valuations/route';
import * as miscRoute from '@/app/api/miscellaneous/route';
import * as dashboardLeads from '@/app/(dashboard)/dealerships/[id]/leads.json/route';
import { callRoute } from '@/modules/dashboard/dashboard.test-support';
import { leadDeliveries, leadFiles, leads, leadWebhooks, valuations } from '@/modules/leads/leads.schema';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { FILE_MESSAGES, LEAD_MESSAGES } from '@/modules/leads/form-rules/messages';
import { analyticsEvents } from '@/modules/widgets/widgets.schema';

describe('lead API', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  const post = (body: unknown, headers: Record<string, string> = {}, host?: string) =>
    callLeadRoute(leadsRoute.POST, { host: host ?? w.hostA, body, headers: { 'x-dealer-client-address': '203.0.113.1', ...headers } });
  const put = (id: string, body: unknown, host?: string, token?: string) =>
    callLeadRoute(visitorRoute.PUT, { host: host ?? w.hostA, method: 'PUT', body, params: { leadId: id }, headers: token ? { 'x-edit-token': token } : {} });

  it('stores an enquiry, records its event and puts one email with an ADF attachment in the outbox', async () => {
    const response = await post({ lead: validLead({ car_id: w.carA, 'Vehicle Make': 'Toyota', visited_pages: ['/', '/cars/a-camry-1'], linked_query_params: { utm_source: 'google' } }) });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const [lead] = await db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ websiteId: w.a.websiteId, dealershipId: w.a.dealershipId, carId: w.carA, source: 'Website', userAgent: 'vitest', leadStatus: 'Complete', spam: false });
    expect(lead.visitedPages).toEqual(['/', '/cars/a-camry-1']);
    expect(lead.linkedQueryParams).toEqual({ utm_source: 'google' });
    expect(lead.attributes).toMatchObject({ 'Vehicle Make': 'Toyota' });
    const events = await db.select().from(analyticsEvents).where(eq(analyticsEvents.leadId, id));
    expect(events.map((e) => e.category)).toEqual([22]);
    const deliveries = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
    expect(deliveries).toHaveLength(1);
    const payload = deliveries[0].payload;
    if (payload.kind !== 'email') throw new Error('expected an email');
    expect(payload.to).toBe('sales@alpha.example');
    expect(payload.subject).toContain('Camry');
    expect(payload.adf).toContain('<?adf version="1.0"?>');
    expect(payload.adf).toContain('<make>Toyota</make>');
  });

  it('answers each wrong field with the spec message and stores nothing', async () => {
    const before = (await db.select().from(leads)).length;
    const response = await post({ lead: validLead({ email: 'jane@', postcode: '20', name: 'J4ne' }) });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; fields: Record<string, string> };
    expect(body.fields).toMatchObject({ 'lead.email': LEAD_MESSAGES.email, 'lead.postcode': LEAD_MESSAGES.postcode, 'lead.name': LEAD_MESSAGES.name });
    expect((await db.select().from(leads)).length).toBe(before);
  });

  it('malformed JSON, a missing lead and a bad Idempotency-Key are 400/422, never 5xx', async () => {
    expect((await callLeadRoute(leadsRoute.POST, { host: w.hostA, rawBody: '{"lead":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await post({})).status).toBe(422);
    expect((await post({ lead: validLead() }, { 'idempotency-key': 'has spaces in it' })).status).toBe(400);
  });

  it('a visitor who goes away mid-body gets a 400, not a "database unavailable" 503', async () => {
    const controller = new AbortController();
    const body = new ReadableStream({
      pull: () => {
        controller.abort();
        throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
      },
    });
    const request = new Request(`http://${w.hostA}/api/leads`, { method: 'POST', headers: { host: w.hostA, 'content-type': 'application/json' }, body, duplex: 'half', signal: controller.signal } as RequestInit);
    const response = await leadsRoute.POST(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(400);
  });

  it('a repeated Idempotency-Key answers the first lead id and stores one lead', async () => {
    const first = await post({ lead: validLead() }, { 'idempotency-key': 'double-click-1' });
    const second = await post({ lead: validLead() }, { 'idempotency-key': 'double-click-1' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    const a = (await first.json()) as { id: string; token: string };
    const b = (await second.json()) as { id: string; token: string };
    expect(b.id).toBe(a.id);
    // The replay gets a new edit token (only the hash of the first was kept); the first is void.
    expect(b.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(b.token).not.toBe(a.token);
    expect((await put(a.id, { lead: { lead_status: 'Complete' } }, undefined, a.token)).status).toBe(404);
    expect((await put(a.id, { lead: { lead_status: 'Complete' } }, undefined, b.token)).status).toBe(200);
    expect(await db.select().from(leads).where(eq(leads.idempotencyKey, 'double-click-1'))).toHaveLength(1);
  });

  it('refuses another website’s car, location, dealership and lead, and unknown hosts', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ location_id: w.b.salesLocationId }, 'lead.location_id'],
      [{ dealership_slug: w.b.tenant.slug }, 'lead.dealership_slug'],
      [{ car_dealership_id: w.b.dealershipId }, 'lead.car_dealership_id'],
      [{ website_slug: w.b.tenant.slug }, 'lead.website_slug'],
    ];
    for (const [fields, path] of cases) {
      const response = await post({ lead: validLead(fields) });
      expect(response.status, path).toBe(422);
      expect(Object.keys(((await response.json()) as { fields: object }).fields)).toContain(path);
    }
    const { id, token } = (await (await post({ lead: validLead() })).json()) as { id: string; token: string };
    expect((await put(id, { lead: validLead() }, w.hostB, token)).status).toBe(404);
    expect((await post({ lead: validLead() }, {}, 'nowhere.localhost')).status).toBe(404);
    expect((await put('not-a-uuid', { lead: validLead() })).status).toBe(404);
  });

  it('a two-step form: Incomplete after step 1 (no delivery), completed by PUT (one delivery, even when PUT again)', async () => {
    const step1 = await post({ lead: { name: 'Sam Lee', email: 'sam@example.com', phone: '0412 345 678', category: 'Test Drive Enquiry', lead_status: 'Incomplete', form_completed: false, step_number: 1, car_id: w.carA } });
    expect(step1.status).toBe(201);
    const { id, token } = (await step1.json()) as { id: string; token: string };
    let [lead] = await db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ leadStatus: 'Incomplete', formCompleted: false, stepNumber: 1 });
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id))).toHaveLength(0);

    const step2 = await put(id, { lead: { lead_id: id, lead_status: 'Complete', form_completed: true, step_number: 2, skipped_steps: [], day: '3', month: '12', year: '2026' } }, undefined, token);
    expect(step2.status).toBe(200);
    expect(await step2.json()).toEqual({ id });
    [lead] = await db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ leadStatus: 'Complete', formCompleted: true, stepNumber: 2, name: 'Sam Lee', email: 'sam@example.com' });
    expect(lead.attributes).toMatchObject({ day: '3', month: '12', year: '2026' });
    expect((await put(id, { lead: { lead_status: 'Complete', form_completed: true, step_number: 2 } }, undefined, token)).status).toBe(200);
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id))).toHaveLength(1);
    const events = await db.select().from(analyticsEvents).where(eq(analyticsEvents.leadId, id));
    // Each recorded submission of this test-drive form is event 14 (SPEC §9); there is at least one.
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.category === 14)).toBe(true);
  });

  it('careers becomes General Enquiry / Career Enquiry with event 51; name falls back to first_name', async () => {
    const response = await post({ lead: validLead({ category: 'Careers Enquiry', name: 'undefined undefined', first_name: 'Alex' }) });
    const { id } = (await response.json()) as { id: string };
    const [lead] = await db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ category: 'General Enquiry', subcategory: 'Career Enquiry', name: 'Alex' });
    const [event] = await db.select().from(analyticsEvents).where(eq(analyticsEvents.leadId, id));
    expect(event.category).toBe(51);
  });

  it('a filled honeypot looks like success but is stored as spam and never delivered', async () => {
    const response = await post({ lead: validLead({ favourite_color: 'blue' }) });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const [lead] = await db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ spam: true, spamReasons: ['honeypot'] });
    expect(await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id))).toHaveLength(0);
  });

  it('two spam signals (too fast and a link) mark spam; one alone does not', async () => {
    const spam = (await (await post({ lead: validLead({ fill_ms: 400, message: 'cheap pills http://spam.example' }) })).json()) as { id: string };
    const ok = (await (await post({ lead: validLead({ fill_ms: 400 }) })).json()) as { id: string };
    const [s] = await db.select().from(leads).where(eq(leads.id, spam.id));
    const [o] = await db.select().from(leads).where(eq(leads.id, ok.id));
    expect(s).toMatchObject({ spam: true, spamReasons: ['fill-time', 'links'] });
    expect(o).toMatchObject({ spam: false, spamReasons: ['fill-time'] });
  });

  it('the same long message from the same sender a fourth time in a day, sent too fast, is spam', async () => {
    const message = 'Best SEO services for your dealership, reply now';
    const sender = { email: 'seo@example.com', phone: '0411 999 888', message };
    for (let i = 0; i < 3; i += 1) await post({ lead: validLead(sender) });
    const { id } = (await (await post({ lead: validLead({ ...sender, fill_ms: 100 }) })).json()) as { id: string };
    const [lead] = await db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ spam: true, spamReasons: ['fill-time', 'repeated-message'] });
  });

  it('a webhook configured for the dealership gets its own outbox row', async () => {
    await db.insert(leadWebhooks).values({ websiteId: w.b.websiteId, dealershipId: w.b.dealershipId, url: 'http://127.0.0.1:9/hook', secret: 's3cret' });
    const { id } = (await (await post({ lead: validLead({ url: '/contact' }) }, {}, w.hostB)).json()) as { id: string };
    const rows = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
    expect(rows.map((r) => r.channel).sort()).toEqual(['email', 'webhook']);
    const hook = rows.find((r) => r.channel === 'webhook')!.payload;
    if (hook.kind !== 'webhook') throw new Error('expected webhook');
    expect(JSON.parse(hook.body).lead).toMatchObject({ id, website_slug: w.b.tenant.slug });
    expect(hook.body).not.toContain('s3cret');
  });

  it('per-IP limit answers 429 with a clear message and Retry-After', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 31; i += 1) last = await post({ lead: validLead() }, { 'x-dealer-client-address': '198.51.100.7' });
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await last!.json()) as { error: string }).error).toMatch(/^We have received a lot of enquiries from your connection\. Please try again in \d+ (minutes?|hours), or call us\.$/);
  });

  it('per-phone limit answers 429 from any connection and counts per website', async () => {
    const lead = () => validLead({ phone: '0499000111' });
    // LEAD_LIMIT_PER_PHONE (default 10) a day, each from its own address so the per-IP limit stays clear.
    for (let i = 0; i < 10; i += 1) expect((await post({ lead: lead() }, { 'x-dealer-client-address': `198.51.100.${100 + i}` })).status).toBe(201);
    const refused = await post({ lead: lead() }, { 'x-dealer-client-address': '198.51.100.120' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^We have already received several enquiries with this phone number\. Please try again in \d+ (minutes?|hours), or call us\.$/);
    expect((await db.select().from(leads).where(and(eq(leads.websiteId, w.a.websiteId), eq(leads.phone, '0499000111')))).length).toBe(10);
    expect((await post({ lead: lead() }, { 'x-dealer-client-address': '198.51.100.121' }, w.hostB)).status).toBe(201);
  });

  describe('with files', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
    const upload = (files: [string, Buffer][], lead: unknown = validLead()) => {
      const form = new FormData();
      form.set('lead', JSON.stringify(lead));
      for (const [name, content] of files) form.append('files', new Blob([new Uint8Array(content)]), name);
      return callLeadRoute(withFilesRoute.POST, { host: w.hostA, rawBody: form, headers: { 'x-dealer-client-address': '203.0.113.9' } });
    };

    it('stores a photo with a sniffed type and a safe name, linked to the lead', async () => {
      const response = await upload([['../../etc/my car.png.exe', png]]);
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      const [file] = await db.select().from(leadFiles).where(eq(leadFiles.leadId, id));
      expect(file).toMatchObject({ contentType: 'image/png', fileName: 'my car.png.png', size: png.length });
      const [lead] = await db.select().from(leads).where(eq(leads.id, id));
      expect(lead.hasFiles).toBe(true);
      const [delivery] = await db.select().from(leadDeliveries).where(eq(leadDeliveries.leadId, id));
      expect(delivery.payload.kind === 'email' && delivery.payload.attachmentIds).toEqual([file.id]);
    });

    it('refuses scripts, too many files and a body that is not multipart', async () => {
      const html = await upload([['x.png', Buffer.from('<script>alert(1)</script>')]]);
      expect(html.status).toBe(422);
      expect(((await html.json()) as { fields: Record<string, string> }).fields['files.0']).toBe(FILE_MESSAGES.type);
      expect((await upload(Array.from({ length: 6 }, (_, i) => [`p${i}.png`, png] as [string, Buffer]))).status).toBe(422);
      expect((await callLeadRoute(withFilesRoute.POST, { host: w.hostA, body: { lead: validLead() } })).status).toBe(415);
    });
  });

  describe('valuations', () => {
    const call = (handler: typeof valuationsRoute.POST, body: unknown, host = w.hostA, method = 'POST', token?: string) =>
      callLeadRoute(handler, { host, body, method, headers: token ? { 'x-edit-token': token } : {} });

    it('creates, updates and adds a miscellaneous block; another website cannot touch it', async () => {
      const created = await call(valuationsRoute.POST, { valuation: { rego: 'ABC123', state: 'NSW', make: 'Mazda', model: 'CX-5', year: '2019', km: 65000, condition: 'good', car_id: w.carA } });
      expect(created.status).toBe(201);
      const { id, token } = (await created.json()) as { id: string; token: string };
      // Without the valuation's token, or with another's, nothing changes.
      expect((await call(valuationsRoute.PUT, { valuation: { id, km: 1 } }, w.hostA, 'PUT')).status).toBe(404);
      expect((await call(miscRoute.POST, { valuation_id: id, column_name: 'x', data: {} }, w.hostA, 'POST', 'not-the-token')).status).toBe(404);
      expect((await call(valuationsRoute.PUT, { valuation: { id, km: 66000 } }, w.hostA, 'PUT', token)).status).toBe(200);
      expect((await call(miscRoute.POST, { valuation_id: id, column_name: 'autograb', data: { price: 21000 } }, w.hostA, 'POST', token)).status).toBe(200);
      const [row] = await db.select().from(valuations).where(eq(valuations.id, id));
      expect(row).toMatchObject({ km: 66000, year: 2019, rego: 'ABC123', data: { condition: 'good', autograb: { price: 21000 } } });
      expect((await call(valuationsRoute.PUT, { valuation: { id, km: 1 } }, w.hostB, 'PUT', token)).status).toBe(404);
      expect((await call(miscRoute.POST, { valuation_id: id, column_name: 'x', data: {} }, w.hostB, 'POST', token)).status).toBe(404);
      expect((await call(valuationsRoute.POST, { valuation: { car_id: w.carB } })).status).toBe(422);
      expect((await call(valuationsRoute.POST, { valuation: { year: 'soon', state: 'XX' } })).status).toBe(422);
      expect((await call(miscRoute.POST, { column_name: 'Robert"); DROP TABLE', data: {} })).status).toBe(422);
    });
  });

  describe('dashboard leads.json', () => {
    it('lists the key’s dealership leads by page with date and status filters; another dealership is 404', async () => {
      const page1 = await callRoute(dashboardLeads.GET, { id: String(w.a.dealershipId) }, { key: w.a.key, query: '?per_page=2' });
      expect(page1.status).toBe(200);
      const body = (await page1.json()) as { leads: { id: string; website_slug: string }[]; pagination: { total: number; pages: number } };
      expect(body.leads).toHaveLength(2);
      const total = await db.select().from(leads).where(and(eq(leads.websiteId, w.a.websiteId), eq(leads.dealershipId, w.a.dealershipId)));
      expect(body.pagination.total).toBe(total.length);
      const spam = (await (await callRoute(dashboardLeads.GET, { id: String(w.a.dealershipId) }, { key: w.a.key, query: '?status=spam&per_page=100' })).json()) as { leads: { spam: boolean }[] };
      expect(spam.leads.length).toBeGreaterThan(0);
      expect(spam.leads.every((l) => l.spam)).toBe(true);
      const future = (await (await callRoute(dashboardLeads.GET, { id: String(w.a.dealershipId) }, { key: w.a.key, query: '?from=2999-01-01' })).json()) as { leads: unknown[] };
      expect(future.leads).toEqual([]);
      expect((await callRoute(dashboardLeads.GET, { id: String(w.b.dealershipId) }, { key: w.a.key })).status).toBe(404);
      expect((await callRoute(dashboardLeads.GET, { id: String(w.a.dealershipId) }, { key: null })).status).toBe(401);
      expect((await callRoute(dashboardLeads.GET, { id: String(w.a.dealershipId) }, { key: w.a.key, query: '?per_page=1000&from=yesterday' })).status).toBe(400);
    });
  });
});
