import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute } from '@/modules/leads/leads.test-support';
import { seedDashboardWorld, carBody, type DashboardWorld } from '@/modules/dashboard/dashboard.test-support';
import { clearDashboardCache } from '@/modules/dashboard/dashboard.cache';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { findTenantById } from '@/modules/tenancy/tenancy.queries';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { findOrCreateCustomer, startSession } from '@/modules/identity/identity.sessions';
import { saveCars } from '@/modules/identity/identity.garage';
import { cars } from '@/modules/stock/stock.schema';
import { upsertCar, carInputSchema } from '@/modules/stock/server';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { runDeliveryBatch, type EmailPayload } from '@/modules/leads/leads.delivery';
import type { SmsMessage } from '@/lib/sms';
import { alertItems, alertMatches, alertSubscriptions, savedSearches } from '@/modules/alerts/alerts.schema';
import { deleteSavedSearch, saveSearch } from '@/modules/alerts/alerts.saved-searches';
import { findAlerts } from '@/modules/alerts/alerts.sweep';
import { queueDueAlerts } from '@/modules/alerts/alerts.digest';
import { runAlertsSweep } from '@/modules/alerts/alerts.housekeeping';
import { alertFigures } from '@/modules/alerts/alerts.figures';
import { validLead } from '@/modules/leads/leads.test-support';
import * as leadsRoute from '@/app/api/leads/route';
import * as settings from '@/app/api/alerts/route';
import * as form from '@/app/api/alerts/form/route';
import * as unsubscribe from '@/app/api/alerts/unsubscribe/[token]/route';

const HOST_A = 'alpha-motors.localhost';
const HOST_B = 'beta-cars.localhost';
const HOUR = 60 * 60 * 1000;

/** Issue 35 item 2 and decision 066: visitors' alerts from a stock change to the outbox, with consent, digests and unsubscribe. */
describe('visitor alerts', () => {
  let db: Db;
  let w: DashboardWorld;
  let a: Tenant;
  const people: Record<string, { id: string; cookie: string }> = {};

  async function person(name: string, phone: string, tenant?: Tenant) {
    const customer = await findOrCreateCustomer(tenant ?? a, phone, {});
    people[name] = { id: customer.id, cookie: `dp_access=${(await startSession(tenant ?? a, customer)).access_token}` };
  }

  const carId = async (slug: string, websiteId = w.a.websiteId) =>
    (await db.select({ id: cars.id }).from(cars).where(and(eq(cars.websiteId, websiteId), eq(cars.slug, slug))))[0].id;
  const turnOn = (cookie: string, body: unknown, host = HOST_A, headers: Record<string, string> = {}) => callLeadRoute(settings.POST, { host, body, headers: { cookie, ...headers } });
  const reprice = (slug: string, price: number, overrides = {}) =>
    upsertCar(a, w.a.dealershipId, slug, carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, model: slug.includes('camry') ? 'Camry' : 'Corolla', price, ...overrides })));
  const lastOf = async (channel: 'visitor_alert_email' | 'visitor_alert_sms') => (await alertOutbox()).filter((row) => row.channel === channel).at(-1)!;
  /** What the outbox holds for visitors' alerts, oldest first. */
  const alertOutbox = async () =>
    (await db.select().from(leadDeliveries).where(isNull(leadDeliveries.leadId))).filter((row) => row.channel.startsWith('visitor_alert')).sort((x, y) => x.id - y.id);

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    clearDashboardCache();
    w = await seedDashboardWorld(db);
    const [row] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.a.websiteId));
    await db.update(websites).set({ config: { ...row.config, phoneSignIn: { enabled: true }, garage: { enabled: true } } }).where(eq(websites.id, w.a.websiteId));
    a = (await findTenantById(w.a.websiteId))!;
    await person('mia', '+61413000201');
    await person('noah', '+61413000202');
    await person('ava', '+61413000203');
    await person('onB', '+61413000204', w.b.tenant);
  });

  describe('turning alerts on and off (POST/GET/DELETE /api/alerts)', () => {
    it('refuses alerts without the consent box ticked (422 naming consent), and records nothing', async () => {
      const response = await turnOn(people.mia.cookie, { channel: 'email', email: 'mia@example.com', consent: false });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { fields: Record<string, string> }).fields).toEqual({ consent: 'Tick the box to agree to receive alerts.' });
      expect(await db.select().from(alertSubscriptions)).toEqual([]);
    });

    it('turns alerts on by email with the consent wording and time recorded, naming the website', async () => {
      const before = Date.now();
      const response = await turnOn(people.mia.cookie, { channel: 'email', email: 'mia@example.com', consent: true });
      expect(response.status).toBe(200);
      const { alerts } = (await response.json()) as { alerts: Record<string, unknown> };
      expect(alerts).toMatchObject({ on: true, channel: 'email', address: 'mia@example.com', instant_price_drops: false });
      const [row] = await db.select().from(alertSubscriptions).where(eq(alertSubscriptions.customerId, people.mia.id));
      // Decision 066: the wording shown beside the box, with the sender identified (Spam Act).
      expect(row.consentText).toBe(
        'I agree to receive alerts from alpha-motors website, by the email or SMS I chose, about the cars and searches I save: new matching stock, price drops, and cars sold, reserved or back in stock. At most one message a day, unless I choose price drops as they happen. I can unsubscribe at any time with the link in every message.',
      );
      expect(row.consentedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(row.origin).toBe('http://alpha-motors.localhost');
      const read = await callLeadRoute(settings.GET, { host: HOST_A, method: 'GET', headers: { cookie: people.mia.cookie } });
      expect(read.headers.get('cache-control')).toBe('private, no-store');
      expect(((await read.json()) as { alerts: { on: boolean } }).alerts.on).toBe(true);
    });

    it('SMS alerts go to the phone the visitor signed in with, whatever else is sent', async () => {
      const response = await turnOn(people.ava.cookie, { channel: 'sms', email: 'ignored@example.com', instant_price_drops: true, consent: true });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { alerts: unknown }).alerts).toMatchObject({ channel: 'sms', address: '+61413000203', instant_price_drops: true });
    });

    it('refuses hostile and malformed bodies with the field named, a cross-site post, a non-JSON body and a signed-out visitor', async () => {
      const fieldsOf = async (body: unknown) => {
        const response = await turnOn(people.noah.cookie, body);
        expect(response.status).toBe(422);
        return Object.keys(((await response.json()) as { fields: Record<string, string> }).fields);
      };
      expect(await fieldsOf({ channel: 'fax', consent: true })).toEqual(['channel']);
      expect(await fieldsOf({ channel: 'email', consent: 'yes' })).toEqual(['consent']);
      expect(await fieldsOf({ channel: 'email', email: 'not an address', consent: true })).toEqual(['email']);
      expect(await fieldsOf({ channel: 'email', email: 'x'.repeat(300) + '@example.com', consent: true })).toEqual(['email']);
      expect(await fieldsOf({ channel: 'email', email: 'n@example.com', consent: true, customer_id: people.mia.id })).toEqual(['customer_id']);
      expect(await fieldsOf([])).not.toEqual([]);
      expect((await turnOn(people.noah.cookie, { channel: 'email', email: 'n@example.com', consent: true }, HOST_A, { origin: 'https://evil.example' })).status).toBe(403);
      const text = await callLeadRoute(settings.POST, { host: HOST_A, rawBody: 'channel=email', headers: { cookie: people.noah.cookie, 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect((await turnOn('', { channel: 'email', email: 'n@example.com', consent: true })).status).toBe(401);
      expect(await db.select().from(alertSubscriptions).where(eq(alertSubscriptions.customerId, people.noah.id))).toEqual([]);
    });

    it('a session of another website is not a visitor of this one (401), and B’s host does not see A’s settings', async () => {
      expect((await turnOn(people.onB.cookie, { channel: 'email', email: 'b@example.com', consent: true })).status).toBe(401);
      const read = await callLeadRoute(settings.GET, { host: HOST_B, method: 'GET', headers: { cookie: people.mia.cookie } });
      expect([401, 404]).toContain(read.status);
    });

    it('the garage’s form turns alerts on and off without JavaScript (303 back to the garage), and refuses without consent', async () => {
      const post = (body: string) => callLeadRoute(form.POST, { host: HOST_A, rawBody: body, headers: { cookie: people.noah.cookie, 'content-type': 'application/x-www-form-urlencoded' } });
      const refused = await post('action=on&channel=email&email=noah%40example.com');
      expect(refused.status).toBe(303);
      expect(refused.headers.get('location')).toBe('/my-garage?alerts=refused&field=consent#alerts');
      const on = await post('action=on&channel=email&email=noah%40example.com&consent=on');
      expect(on.headers.get('location')).toBe('/my-garage?alerts=on#alerts');
      expect((await db.select().from(alertSubscriptions).where(eq(alertSubscriptions.customerId, people.noah.id)))[0]).toMatchObject({ address: 'noah@example.com', unsubscribedAt: null });
      const off = await post('action=off');
      expect(off.headers.get('location')).toBe('/my-garage?alerts=off#alerts');
      expect((await db.select().from(alertSubscriptions).where(eq(alertSubscriptions.customerId, people.noah.id)))[0].unsubscribedAt).toBeInstanceOf(Date);
      const signedOut = await callLeadRoute(form.POST, { host: HOST_A, rawBody: 'action=on&consent=on', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(signedOut.headers.get('location')).toBe('/sign-in?next=%2Fmy-garage');
    });
  });

  describe('from a stock change to the outbox', () => {
    it('a price drop on a saved car: found once, sent in the day’s digest with the old and new price, the unsubscribe headers, nothing for a visitor without consent', async () => {
      const corolla = await carId('a-corolla-1');
      await saveCars(a, people.mia.id, [corolla]);
      await saveCars(a, people.noah.id, [corolla]); // Noah turned alerts off: told nothing.
      await reprice('a-corolla-1', 25_990);
      const sweep = await runAlertsSweep();
      expect(sweep).toEqual({ found: 1, queued: 1 });
      // Another sweep finds nothing new.
      expect(await runAlertsSweep()).toEqual({ found: 0, queued: 0 });
      const [mail] = await alertOutbox();
      expect(mail.channel).toBe('visitor_alert_email');
      const payload = mail.payload as EmailPayload;
      expect(payload.to).toBe('mia@example.com');
      expect(payload.subject).toBe('1 update on your saved cars and searches at alpha-motors website');
      expect(payload.text).toContain('Price drops on cars you saved');
      expect(payload.text).toContain('now $25,990 (was $27,990)');
      expect(payload.text).toMatch(/http:\/\/alpha-motors\.localhost\/cars\/a-corolla-1\?utm_source=alerts&utm_medium=email&utm_campaign=price_drop/);
      expect(payload.text).toMatch(/Unsubscribe: http:\/\/alpha-motors\.localhost\/alerts\/unsubscribe\/[0-9a-f-]{36}\.[\w-]{43}/);
      expect(payload.headers).toEqual({ 'List-Unsubscribe': expect.stringMatching(/^<http:\/\/alpha-motors\.localhost\/api\/alerts\/unsubscribe\/[0-9a-f-]{36}\.[\w-]{43}>$/), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
      const items = await db.select().from(alertItems);
      expect(items.map((item) => [item.customerId, item.kind, item.oldPrice, item.newPrice, item.deliveryId])).toEqual([[people.mia.id, 'price_drop', 27_990, 25_990, mail.id]]);
    });

    it('the outbox worker delivers an alert email with its List-Unsubscribe headers, and an alert SMS through the SMS sender', async () => {
      const emails: EmailPayload[] = [];
      const texts: SmsMessage[] = [];
      await runDeliveryBatch({ transports: { email: async (payload) => (emails.push(payload), 'sent'), webhook: async () => 'unused', sms: async (message) => (texts.push(message), 'sent') } });
      expect(emails.map((e) => e.headers?.['List-Unsubscribe-Post'])).toEqual(['List-Unsubscribe=One-Click']);
      expect((await alertOutbox()).map((row) => row.status)).toEqual(['delivered']);
    });

    it('at most one digest a day: a second drop waits for the next day; with instant price drops it is sent at once', async () => {
      const camry = await carId('a-camry-1');
      await saveCars(a, people.mia.id, [camry]);
      await saveCars(a, people.ava.id, [camry]);
      await reprice('a-camry-1', 33_990);
      expect((await findAlerts()).found).toBe(2);
      // Ava's first message (she chose SMS) goes at once; Mia had her digest today: nothing yet.
      expect(await queueDueAlerts()).toBe(1);
      const sms = (await alertOutbox()).at(-1)!;
      expect(sms.channel).toBe('visitor_alert_sms');
      const body = (sms.payload as { body: string }).body;
      expect(body).toMatch(/^alpha-motors website: price drop: .* now \$33,990 \(was \$35,990\)\. http:\/\/alpha-motors\.localhost\/cars\/a-camry-1\?utm_source=alerts&utm_medium=sms&utm_campaign=price_drop Unsubscribe: http:\/\/alpha-motors\.localhost\/alerts\/unsubscribe\//);
      expect((sms.payload as { to: string }).to).toBe('+61413000203');
      // A second drop within the day: Ava chose price drops as they happen, so hers goes at once; Mia's waits.
      await reprice('a-camry-1', 32_990);
      expect((await findAlerts()).found).toBe(2);
      expect(await queueDueAlerts(new Date(Date.now() + HOUR))).toBe(1);
      expect(((await lastOf('visitor_alert_sms')).payload as { body: string }).body).toContain('now $32,990 (was $33,990)');
      expect(await queueDueAlerts(new Date(Date.now() + 23 * HOUR))).toBe(0);
      expect(await queueDueAlerts(new Date(Date.now() + 24 * HOUR + 60_000))).toBe(1);
      const digest = (await alertOutbox()).at(-1)!;
      expect((digest.payload as EmailPayload).to).toBe('mia@example.com');
      expect((digest.payload as EmailPayload).text).toContain('now $33,990 (was $35,990)');
      expect((digest.payload as EmailPayload).text).toContain('now $32,990 (was $33,990)');
      expect((digest.payload as EmailPayload).subject).toBe('2 updates on your saved cars and searches at alpha-motors website');
    });

    it('a saved car sold, with similar cars of the same website; reserved; back in stock', async () => {
      await reprice('a-camry-1', 32_990, { status: 'sold' });
      expect(await runAlertsSweep(new Date(Date.now() + 49 * HOUR))).toEqual({ found: 2, queued: 2 });
      const sold = await lastOf('visitor_alert_email');
      const text = (sold.payload as EmailPayload).text;
      expect(text).toContain('Sold\n');
      // The other Camry first (same model), then the nearest Toyota in price.
      expect(text).toMatch(/Similar cars:\n {2}- .*\$36,990: http:\/\/alpha-motors\.localhost\/cars\/a-camry-2\?/);
      const kinds = async () => (await db.select({ kind: alertItems.kind, customerId: alertItems.customerId }).from(alertItems).orderBy(alertItems.id)).filter((i) => i.customerId === people.mia.id).map((i) => i.kind);
      expect(await kinds()).toEqual(['price_drop', 'price_drop', 'price_drop', 'sold']);
      await reprice('a-camry-1', 32_990, { status: 'in_stock' });
      await findAlerts();
      await reprice('a-corolla-1', 25_990, { reserved: true });
      await findAlerts();
      expect(await kinds()).toEqual(['price_drop', 'price_drop', 'price_drop', 'sold', 'back_in_stock', 'reserved']);
    });

    it('new stock matching a saved search, tried only for its make; nothing for a car that does not match', async () => {
      await saveSearch(a, people.mia.id, '/search/used-cars?make=Toyota&price_max=30000');
      await upsertCar(a, w.a.dealershipId, 'a-corolla-new', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 24_990 })));
      await upsertCar(a, w.a.dealershipId, 'a-corolla-dear', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 31_990 })));
      await upsertCar(a, w.a.dealershipId, 'a-octavia-new', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, make: 'Škoda', model: 'Octavia', price: 24_990 })));
      await findAlerts();
      // Found once for the search (decision 070), whoever saved it.
      expect(await db.select({ carId: alertMatches.carId }).from(alertMatches)).toEqual([{ carId: await carId('a-corolla-new') }]);
      await queueDueAlerts(new Date(Date.now() + 100 * HOUR));
      const text = ((await lastOf('visitor_alert_email')).payload as EmailPayload).text;
      expect(text).toContain('New cars for your saved searches\n“Toyota under $30,000”:\n- ');
      const newStock = text.slice(text.indexOf('New cars for your saved searches'), text.indexOf('\n\n', text.indexOf('New cars for your saved searches')));
      expect(newStock).toContain('/cars/a-corolla-new?utm_source=alerts&utm_medium=email&utm_campaign=new_stock');
      expect(newStock).not.toContain('a-corolla-dear');
      expect(newStock).not.toContain('a-octavia-new');
    });


  });

  describe('unsubscribe without signing in', () => {
    const tokenOf = async () => {
      const text = ((await alertOutbox()).find((row) => row.channel === 'visitor_alert_email')!.payload as EmailPayload).text;
      return /alerts\/unsubscribe\/([^\s]+)/.exec(text)![1];
    };
    const oneClick = (token: string, host = HOST_A) =>
      callLeadRoute(unsubscribe.POST, { host, rawBody: 'List-Unsubscribe=One-Click', params: { token }, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

    it('refuses a link altered, of another visitor or another website; opening it (GET) changes nothing', async () => {
      const token = await tokenOf();
      const altered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      expect((await oneClick(altered)).status).toBe(404);
      expect((await oneClick(`${people.noah.id}.${token.split('.')[1]}`)).status).toBe(404);
      expect((await oneClick(token, HOST_B)).status).toBe(404);
      expect((await oneClick('../../etc/passwd')).status).toBe(404);
      const opened = await callLeadRoute(unsubscribe.GET, { host: HOST_A, method: 'GET', params: { token } });
      expect(opened.status).toBe(303);
      expect((await db.select().from(alertSubscriptions).where(eq(alertSubscriptions.customerId, people.mia.id)))[0].unsubscribedAt).toBeNull();
    });

    it('the one-click POST (RFC 8058) unsubscribes; nothing is found or sent after', async () => {
      const response = await oneClick(await tokenOf());
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ unsubscribed: true, message: 'You will get no more alerts from this website.' });
      const before = (await alertOutbox()).length;
      // Ava saves the Corolla too: the drop is found for her alone.
      await saveCars(a, people.ava.id, [await carId('a-corolla-1')]);
      await reprice('a-corolla-1', 23_990, { reserved: true });
      expect(await runAlertsSweep(new Date(Date.now() + 200 * HOUR))).toEqual({ found: 1, queued: 1 });
      expect((await alertOutbox()).length).toBe(before + 1);
      expect((await alertOutbox()).at(-1)!.channel).toBe('visitor_alert_sms');
      // Mia's items (of her saved cars) were all sent before she left; the new drop gave her none.
      expect((await db.select().from(alertItems).where(eq(alertItems.customerId, people.mia.id))).map((item) => item.deliveryId === null)).toEqual([false, false, false, false, false, false]);
    });
  });

  describe('turned off and on again', () => {
    it('what was found and not yet sent is dropped with the consent: on again, the visitor hears only of what happens after', async () => {
      await reprice('a-corolla-1', 22_990, { reserved: true });
      expect((await findAlerts()).found).toBe(1);
      const off = await callLeadRoute(settings.DELETE, { host: HOST_A, method: 'DELETE', headers: { cookie: people.ava.cookie } });
      expect(off.status).toBe(200);
      expect(((await off.json()) as { alerts: { on: boolean } }).alerts.on).toBe(false);
      expect(await db.select().from(alertItems).where(and(eq(alertItems.customerId, people.ava.id), isNull(alertItems.deliveryId)))).toEqual([]);
      expect((await turnOn(people.ava.cookie, { channel: 'sms', instant_price_drops: true, consent: true })).status).toBe(200);
      expect(await runAlertsSweep(new Date(Date.now() + 300 * HOUR))).toEqual({ found: 0, queued: 0 });
    });
  });

  describe('for the dealer (analytics.json)', () => {
    it('counts the messages sent, what they told of, visitors with alerts on, unsubscribes, and the leads that came from an alert’s link; nothing of another website', async () => {
      const lead = await callLeadRoute(leadsRoute.POST, { host: HOST_A, body: { lead: validLead({ linked_query_params: { utm_source: 'alerts', utm_medium: 'email', utm_campaign: 'price_drop' } }) } });
      expect(lead.status).toBe(201);
      await callLeadRoute(leadsRoute.POST, { host: HOST_A, body: { lead: validLead({ linked_query_params: { utm_source: 'google' } }) } });
      const day = (ms: number) => {
        const d = new Date(ms);
        return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
      };
      const range = [day(Date.now() - 2 * 86_400_000), day(Date.now() + 2 * 86_400_000)] as const;
      const outbox = await alertOutbox();
      const figures = await alertFigures(a, ...range);
      expect(figures.messages).toEqual({ email: outbox.filter((r) => r.channel === 'visitor_alert_email').length, sms: outbox.filter((r) => r.channel === 'visitor_alert_sms').length });
      expect(figures.messages.email).toBeGreaterThan(0);
      expect(figures.messages.sms).toBeGreaterThan(0);
      // Mia: 3 price drops, sold, back in stock, reserved, new stock; Ava: 3 price drops, sold, back in stock.
      expect(figures.items).toEqual({ price_drop: 6, new_stock: 1, sold: 2, reserved: 1, back_in_stock: 2 });
      expect(figures).toMatchObject({ subscribers: 1, unsubscribed: 2, leads_after_alert: 1 });
      expect(await alertFigures(w.b.tenant, ...range)).toEqual({ messages: { email: 0, sms: 0 }, items: { price_drop: 0, new_stock: 0, sold: 0, reserved: 0, back_in_stock: 0 }, subscribers: 0, unsubscribed: 0, leads_after_alert: 0 });
    });
  });

  describe('the sweep: stored resolutions, batches', () => {
    it('a saved search keeps what its page resolves to, and is resolved again once the website changed', async () => {
      await saveSearch(a, people.ava.id, '/search/used-cars/toyota');
      const stored = async () =>
        (
          (await db.execute(sql`select resolved, makes, resolved_generation as generation from saved_searches where customer_id = ${people.ava.id} and path = '/search/used-cars/toyota'`)) as unknown as {
            rows: { resolved: { filters: Record<string, unknown> }; makes: string[]; generation: string }[];
          }
        ).rows[0];
      const saved = await stored();
      expect(saved.resolved.filters).toEqual({ car_type: ['used'], make: ['Toyota'] });
      expect(saved.makes).toEqual(['toyota']);
      // What it resolved to goes stale (as if the page had named another make), then the website changes: the sweep resolves it again.
      await db.execute(sql`update saved_searches set resolved = '{"filters":{"make":["Kia"]}}', makes = '{kia}' where customer_id = ${people.ava.id}`);
      const [row] = await db.select({ name: websites.name }).from(websites).where(eq(websites.id, a.id));
      await db.update(websites).set({ name: `${row.name} renamed` }).where(eq(websites.id, a.id));
      await db.update(websites).set({ name: row.name }).where(eq(websites.id, a.id));
      await upsertCar(a, w.a.dealershipId, 'a-corolla-newer', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 26_990 })));
      await findAlerts();
      const found = await db.select({ path: alertMatches.path, carId: alertMatches.carId }).from(alertMatches);
      expect(found).toContainEqual({ path: '/search/used-cars/toyota', carId: await carId('a-corolla-newer') });
      const again = await stored();
      expect(again.resolved.filters).toEqual({ car_type: ['used'], make: ['Toyota'] });
      expect(Number(again.generation)).toBeGreaterThan(Number(saved.generation));
    });

    it('two sweeps queueing at once send each visitor’s items once', async () => {
      expect((await turnOn(people.noah.cookie, { channel: 'email', email: 'noah@example.com', consent: true })).status).toBe(200);
      const camry = await carId('a-camry-2');
      await saveCars(a, people.noah.id, [camry]);
      await saveCars(a, people.ava.id, [camry]);
      await reprice('a-camry-2', 35_490);
      await findAlerts();
      const unsent = await db.select({ customerId: alertItems.customerId }).from(alertItems).where(isNull(alertItems.deliveryId));
      const visitors = new Set(unsent.map((item) => item.customerId));
      expect(visitors).toEqual(new Set([people.noah.id, people.ava.id]));
      const before = (await alertOutbox()).length;
      const later = new Date(Date.now() + 400 * HOUR);
      const [one, other] = await Promise.all([queueDueAlerts(later), queueDueAlerts(later)]);
      expect(one + other).toBe(visitors.size);
      expect((await alertOutbox()).length).toBe(before + visitors.size);
      expect(await db.select().from(alertItems).where(isNull(alertItems.deliveryId))).toEqual([]);
      expect(await queueDueAlerts(later)).toBe(0);
    });

    it('a deleted saved search or car takes its items with it, and nothing else (migration 0024, as the cascades did); a deleted car or website its matches', async () => {
      const one = await saveSearch(a, people.ava.id, '/search/used-cars?make=Toyota&price_max=40000');
      const other = await saveSearch(a, people.ava.id, '/search/used-cars?make=Toyota&price_max=45000');
      await upsertCar(a, w.a.dealershipId, 'a-corolla-short-lived', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 22_990 })));
      const gone = await carId('a-corolla-short-lived');
      const kept = await carId('a-camry-2');
      const item = (source: string, car: number, search: string | null) => ({ websiteId: a.id, customerId: people.ava.id, kind: 'new_stock' as const, carId: car, savedSearchId: search, source });
      await db.insert(alertItems).values([item('test:1', kept, one.id), item('test:2', kept, other.id), item('test:3', gone, null), item('test:4', kept, null)]);
      const sources = async () => (await db.select({ source: alertItems.source }).from(alertItems).where(sql`${alertItems.source} like 'test:%'`)).map((row) => row.source).sort();
      expect(await deleteSavedSearch(a, people.ava.id, one.id)).toBe(true);
      expect(await sources()).toEqual(['test:2', 'test:3', 'test:4']);
      await db.insert(alertMatches).values([gone, kept].map((car) => ({ websiteId: a.id, path: '/search/test', query: '', carId: car, generation: 1 })));
      await db.delete(cars).where(eq(cars.id, gone));
      expect(await sources()).toEqual(['test:2', 'test:4']);
      // And a deleted car's matches, and a deleted website's (migration 0026).
      expect(await db.select({ carId: alertMatches.carId }).from(alertMatches).where(eq(alertMatches.path, '/search/test'))).toEqual([{ carId: kept }]);
      await db.delete(alertMatches).where(eq(alertMatches.path, '/search/test'));
      const [gone2] = await db.insert(websites).values({ slug: 'alerts-gone', name: 'Gone', config: a.config }).returning({ id: websites.id });
      await db.insert(alertMatches).values([gone2.id, a.id].map((websiteId) => ({ websiteId, path: '/search/test', query: '', carId: kept, generation: 1 })));
      await db.delete(websites).where(eq(websites.id, gone2.id));
      expect(await db.select({ websiteId: alertMatches.websiteId }).from(alertMatches).where(eq(alertMatches.path, '/search/test'))).toEqual([{ websiteId: a.id }]);
      await db.delete(alertMatches).where(eq(alertMatches.path, '/search/test'));
    });

    it('a car listed within the millisecond a search was saved counts as listed after it (a car is stamped in milliseconds, a saved search in microseconds)', async () => {
      const search = '/search/used-cars?make=Toyota&price_max=28000';
      const saved = await saveSearch(a, people.noah.id, search);
      // Saved 500 µs into a millisecond; the car stamped with that millisecond: before it, in microseconds.
      await db.execute(sql`update saved_searches set created_at = date_trunc('milliseconds', created_at) + interval '500 microseconds' where id = ${saved.id}`);
      const [row] = await db.select({ createdAt: savedSearches.createdAt }).from(savedSearches).where(eq(savedSearches.id, saved.id));
      await upsertCar(a, w.a.dealershipId, 'a-corolla-same-ms', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 21_990, created_at_timestamp: row.createdAt.getTime() })));
      await db.update(alertSubscriptions).set({ lastDigestAt: null }).where(eq(alertSubscriptions.customerId, people.noah.id));
      await findAlerts();
      await queueDueAlerts(new Date(Date.now() + 1000 * HOUR));
      const told = (await alertOutbox()).filter((entry) => JSON.stringify(entry.payload).includes('/cars/a-corolla-same-ms?utm_source=alerts'));
      expect(told.map((entry) => JSON.stringify(entry.payload).includes('noah@example.com'))).toEqual([true]);
    });

    it('new stock found once for a search saved by several visitors: each is told once, in their own digest, only of cars listed after they saved it', async () => {
      const search = '/search/used-cars?make=Toyota&price_max=29000';
      // Ava changes how alerts come (email instead of SMS): still on, nothing she is owed is dropped.
      expect((await turnOn(people.ava.cookie, { channel: 'email', email: 'ava@example.com', consent: true })).status).toBe(200);
      await saveSearch(a, people.ava.id, search);
      await saveSearch(a, people.noah.id, search);
      await upsertCar(a, w.a.dealershipId, 'a-corolla-shared', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 23_990 })));
      const shared = await carId('a-corolla-shared');
      // Noah's digest is due; Ava had hers at `base`.
      const base = new Date(Date.now() + 1000 * HOUR);
      await db.update(alertSubscriptions).set({ lastDigestAt: null }).where(eq(alertSubscriptions.customerId, people.noah.id));
      await db.update(alertSubscriptions).set({ lastDigestAt: base }).where(eq(alertSubscriptions.customerId, people.ava.id));
      await findAlerts();
      // One row for the search both saved (and one for each other search of the website that finds the car).
      const matches = await db.select({ path: alertMatches.path, query: alertMatches.query }).from(alertMatches).where(eq(alertMatches.carId, shared));
      expect(matches.filter((match) => match.query === 'make=Toyota&price_max=29000')).toEqual([{ path: '/search/used-cars', query: 'make=Toyota&price_max=29000' }]);
      const told = async (address: string) =>
        (await alertOutbox()).filter((row) => JSON.stringify(row.payload).includes(address) && JSON.stringify(row.payload).includes('/cars/a-corolla-shared?utm_source=alerts')).length;
      expect(await queueDueAlerts(new Date(base.getTime() + HOUR))).toBe(1);
      expect([await told('noah@example.com'), await told('ava@example.com')]).toEqual([1, 0]);
      // Ava's next digest tells her; nobody is told twice.
      expect(await queueDueAlerts(new Date(base.getTime() + 25 * HOUR))).toBe(1);
      expect([await told('noah@example.com'), await told('ava@example.com')]).toEqual([1, 1]);
      expect(await queueDueAlerts(new Date(base.getTime() + 100 * HOUR))).toBe(0);
      // Found again while it still counts as new (a change within the sweep's overlap): the match stands, nobody is told again.
      await reprice('a-corolla-shared', 22_990);
      await findAlerts();
      expect(await queueDueAlerts(new Date(base.getTime() + 200 * HOUR))).toBe(0);
      expect([await told('noah@example.com'), await told('ava@example.com')]).toEqual([1, 1]);
      // Once the car is no longer new to the sweep, the match of a search everyone was told of goes.
      await db.update(cars).set({ createdAt: new Date(Date.now() - 2 * HOUR) }).where(eq(cars.id, shared));
      await queueDueAlerts(new Date(base.getTime() + 300 * HOUR));
      expect(await db.select().from(alertMatches).where(eq(alertMatches.carId, shared))).toEqual([]);
      // A search saved after a car was listed finds it (the match is the search's), but its visitor is not told of it.
      await upsertCar(a, w.a.dealershipId, 'a-mazda-early', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, make: 'Mazda', model: 'CX-5', price: 30_990 })));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await saveSearch(a, people.noah.id, '/search/used-cars?make=Mazda');
      await findAlerts();
      expect(await db.select({ query: alertMatches.query }).from(alertMatches).where(eq(alertMatches.carId, await carId('a-mazda-early')))).toEqual([{ query: 'make=Mazda' }]);
      expect(await queueDueAlerts(new Date(base.getTime() + 400 * HOUR))).toBe(0);
    });

    it('two sweeps queueing new stock at once tell each visitor once; alerts turned off and on again hear only of what comes after', async () => {
      const later = new Date(Date.now() + 2000 * HOUR);
      await saveSearch(a, people.noah.id, '/search/used-cars?make=Toyota&price_max=29500');
      await upsertCar(a, w.a.dealershipId, 'a-corolla-raced', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 21_490 })));
      await findAlerts();
      const told = async (address: string) =>
        (await alertOutbox()).filter((row) => JSON.stringify(row.payload).includes(address) && JSON.stringify(row.payload).includes('/cars/a-corolla-raced?utm_source=alerts')).length;
      // Every sweep's finds sent at once (as the browser tests run), so a digest just sent does not stop the other sweep: what it owed does.
      process.env.ALERTS_DIGEST_INTERVAL_MS = '0';
      try {
        const [one, other] = await Promise.all([queueDueAlerts(later), queueDueAlerts(later)]);
        expect(one + other).toBe(2);
      } finally {
        delete process.env.ALERTS_DIGEST_INTERVAL_MS;
      }
      expect([await told('noah@example.com'), await told('ava@example.com')]).toEqual([1, 1]);
      expect(await queueDueAlerts(new Date(later.getTime() + 100 * HOUR))).toBe(0);
      // Ava turns alerts off while a new car is found for her, then on again: she is not told of it.
      await upsertCar(a, w.a.dealershipId, 'a-corolla-missed', carInputSchema.parse(carBody({ location_id: w.a.salesLocationId, price: 21_990 })));
      await findAlerts();
      expect((await callLeadRoute(settings.DELETE, { host: HOST_A, method: 'DELETE', headers: { cookie: people.ava.cookie } })).status).toBe(200);
      expect((await turnOn(people.ava.cookie, { channel: 'email', email: 'ava@example.com', consent: true })).status).toBe(200);
      await queueDueAlerts(new Date(later.getTime() + 200 * HOUR));
      const missed = async (address: string) =>
        (await alertOutbox()).filter((row) => JSON.stringify(row.payload).includes(address) && JSON.stringify(row.payload).includes('/cars/a-corolla-missed?utm_source=alerts')).length;
      expect([await missed('noah@example.com'), await missed('ava@example.com')]).toEqual([1, 0]);
    });
  });
});
