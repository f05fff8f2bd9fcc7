import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as plainFormRoute } from '@/app/api/leads/form/route';
import { leads } from '@/modules/leads/leads.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { parseRefusedForm } from '@/modules/leads/leads.refused-form';

/**
 * POST /api/leads/form: the lead forms posted without JavaScript (decision 060, issue 32). Before it
 * the form posted to its own page, which answered 405 and lost what was typed.
 */

let counter = 0;
const mobile = () => `0414 ${String(100 + (counter += 1)).padStart(3, '0')} ${String(500 + counter).slice(-3)}`;

describe('lead forms without JavaScript', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  const post = (fields: Record<string, string>, { host = w.hostA, referer = `http://${host}/contact`, headers = {} }: { host?: string; referer?: string; headers?: Record<string, string> } = {}) =>
    callLeadRoute(plainFormRoute, {
      host,
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer, [CLIENT_ADDRESS_HEADER]: `198.18.2.${counter % 250}`, ...headers },
    });

  it('stores the lead the script-driven form would have sent and answers 303 to the success page', async () => {
    const phone = mobile();
    const response = await post({
      name: 'Jo',
      last_name: 'Citizen',
      email: 'jo.plain@example.com',
      phone,
      postcode: '2000',
      message: 'Open on Sunday?',
      opt_in: 'on',
      category: 'General Enquiry',
      _form: 'General Enquiry',
      _kinds: 'phone:phone,opt_in:checkbox',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/success?category=general-enquiry');
    const [lead] = await db.select().from(leads).where(eq(leads.email, 'jo.plain@example.com'));
    expect(lead).toMatchObject({ category: 'General Enquiry', websiteId: w.a.websiteId, firstName: 'Jo', lastName: 'Citizen' });
    expect(lead.attributes).toMatchObject({ opt_in: true });
    expect(lead.url).toBe(`http://${w.hostA}/contact`);
  });

  it('a car enquiry goes to the success page of its car type, with the car', async () => {
    const response = await post(
      { name: 'Sam', email: 'sam.plain@example.com', phone: mobile(), postcode: '2000', message: 'Still there?', category: 'Used Vehicle Enquiry', car_id: String(w.carA), _car_type: 'used', _form: 'Used Vehicle Enquiry', _kinds: 'phone:phone' },
      { referer: `http://${w.hostA}/enquire?car_id=${w.carA}` },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/success?category=used-vehicle-enquiry&car_id=${w.carA}`);
    const [lead] = await db.select().from(leads).where(eq(leads.email, 'sam.plain@example.com'));
    expect(lead.carId).toBe(w.carA);
  });

  it('gives a refused post back to its page with what was typed and each field’s message (SPEC §5 wording), storing nothing', async () => {
    const typed = { name: 'Jo9', last_name: 'Citizen', email: 'jo.refused@example.com', phone: '12345', postcode: '2000', message: 'Hello', category: 'General Enquiry', _form: 'General Enquiry', _kinds: 'phone:phone' };
    const response = await post(typed, { referer: `http://${w.hostA}/contact?from=nav` });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/contact?from=nav#form-errors');
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^lead_form=/);
    expect(setCookie).toContain('Path=/contact;');
    expect(setCookie).toContain('HttpOnly');
    const kept = parseRefusedForm(setCookie.split(';')[0]!.slice('lead_form='.length))!;
    expect(kept.form).toBe('General Enquiry');
    expect(kept.errors).toMatchObject({ name: 'Please use alphabetical characters only.', phone: 'Invalid phone number. Must be an Australian number.' });
    expect(kept.values).toMatchObject({ name: 'Jo9', last_name: 'Citizen', email: 'jo.refused@example.com', phone: '12345', message: 'Hello' });
    expect(kept.values).not.toHaveProperty('_kinds');
    expect(await db.select().from(leads).where(eq(leads.email, 'jo.refused@example.com'))).toEqual([]);
  });

  it('a successful post clears a refused form kept earlier', async () => {
    const response = await post({ name: 'Kim', email: 'kim.plain@example.com', phone: mobile(), postcode: '2000', message: 'Hi', category: 'General Enquiry', _kinds: 'phone:phone' });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toMatch(/^lead_form=; Path=\/contact; Max-Age=0/);
  });

  it('stores a lead on the website of the Host only, whatever website the form claims', async () => {
    const response = await post({ name: 'Lee', email: 'lee.plain@example.com', phone: mobile(), postcode: '2000', message: 'Hi', category: 'General Enquiry', website_slug: w.b.tenant.slug, _kinds: 'phone:phone' }, { host: w.hostA });
    expect(response.status).toBe(303);
    const rows = await db.select().from(leads).where(eq(leads.email, 'lee.plain@example.com'));
    expect(rows.map((row) => row.websiteId)).toEqual([w.a.websiteId]);
  });

  it('refuses a cross-site post, a JSON body and an unknown website without storing anything', async () => {
    const fields = { name: 'Evil', email: 'evil.plain@example.com', phone: mobile(), postcode: '2000', message: 'x', category: 'General Enquiry' };
    expect((await post(fields, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    const json = await callLeadRoute(plainFormRoute, { host: w.hostA, body: { lead: fields }, headers: { [CLIENT_ADDRESS_HEADER]: '198.18.2.9' } });
    expect(json.status).toBe(415);
    expect((await post(fields, { host: 'nobody.localhost' })).status).toBe(404);
    expect(await db.select().from(leads).where(eq(leads.email, 'evil.plain@example.com'))).toEqual([]);
  });

  it('answers hostile fields with a refusal, never a 5xx: junk kinds, a cookie-breaking Referer, a huge body', async () => {
    const junk = await post(
      { name: 'Ann', email: 'ann.plain@example.com', phone: '0', postcode: '2000', message: 'x', category: 'General Enquiry', car_id: '1 OR 1=1', _kinds: 'phone:eval,__proto__:checkbox,,::' },
      { referer: `http://${w.hostA}/contact;Domain=evil.example` },
    );
    expect(junk.status).toBe(303);
    // A Referer path that could end the cookie's attribute is not used: back to the home page.
    expect(junk.headers.get('location')).toBe('/#form-errors');
    expect(junk.headers.get('set-cookie')).toContain('Path=/;');
    const huge = await post({ name: 'A', message: 'x'.repeat(40 * 1024) });
    expect(huge.status).toBe(413);
  });
});
