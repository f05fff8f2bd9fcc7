import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, validLead, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as financeEnquiryRoute } from '@/app/api/finance-enquiry/route';
import { POST as leadsRoute } from '@/app/api/leads/route';
import { sendPhoneCode, verifyPhoneCode } from '@/modules/identity/identity.codes';
import { leadDeliveries, leads } from '@/modules/leads/leads.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { parseRefusedForm } from '@/modules/leads/leads.refused-form';

let counter = 0;
const mobile = () => `0413 ${String(200 + (counter += 1)).padStart(3, '0')} ${String(600 + counter).slice(-3)}`;
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('finance enquiries', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  const post = (fields: Record<string, string>, host = w.hostA, headers: Record<string, string> = {}) =>
    callLeadRoute(financeEnquiryRoute, {
      host,
      rawBody: formBody(fields),
      headers: { 'content-type': 'application/x-www-form-urlencoded', [CLIENT_ADDRESS_HEADER]: `198.18.1.${counter % 250}`, ...headers },
    });

  it('takes the plain form post of the finance page (no JavaScript) and answers 303 to the success page', async () => {
    const phone = mobile();
    const response = await post({ name: 'Tom', last_name: 'Reid', email: 'tom.reid@example.com', phone, postcode: '2000', amount: '45000', term: '4', selfAssessedCreditScore: 'DECENT', car_id: String(w.carA), opt_in: 'on' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/success?category=finance-enquiry');
    const [lead] = await db.select().from(leads).where(eq(leads.email, 'tom.reid@example.com'));
    expect(lead).toMatchObject({ category: 'Finance Enquiry', carId: w.carA, websiteId: w.a.websiteId, leadStatus: 'Complete' });
    expect(lead.attributes).toMatchObject({ amount: 45000, term: 4, selfAssessedCreditScore: 'DECENT', opt_in: true, phone_verified: false });
    const deliveries = await db.select().from(leadDeliveries).where(and(eq(leadDeliveries.leadId, lead.id), eq(leadDeliveries.channel, 'email')));
    expect(deliveries).toHaveLength(1);
  });

  it('sends the visitor back to the form naming the fields to check', async () => {
    const response = await post({ name: 'Tom', email: 'not-an-email', phone: '12', postcode: '2000', car_id: String(w.carA) });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!, 'http://x');
    expect(location.pathname).toBe('/finance');
    expect(location.searchParams.get('invalid')!.split(',')).toEqual(expect.arrayContaining(['email', 'phone']));
    expect(location.hash).toBe('#finance-form');
  });

  // Issue 31 item 2: 'Fin9' and '12345' came back as a blank form with the term, credit score and 'who is helping' lost.
  it('gives a refused post back with every value kept and each field’s message (SPEC §5 wording)', async () => {
    const typed = { name: 'Fin9', last_name: 'Lee', email: 'fin.lee@example.com', phone: '12345', postcode: '2000', amount: '25000', term: '3', selfAssessedCreditScore: 'POOR', whoIsHelping: 'Sam', message: 'Call after 5', opt_in: 'on' };
    const response = await post(typed);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!, 'http://x');
    expect(location.pathname).toBe('/finance');
    expect(location.searchParams.get('loanTerm')).toBe('3');
    expect(location.searchParams.get('selfAssessedCreditScore')).toBe('POOR');
    expect(location.searchParams.get('whoIsHelping')).toBe('Sam');
    expect(location.searchParams.get('vehiclePriceBudget')).toBe('25000');
    expect(location.search).not.toContain('fin.lee');
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^finance_form=/);
    expect(setCookie).toContain('Path=/finance');
    expect(setCookie).toContain('HttpOnly');
    const kept = parseRefusedForm(setCookie.split(';')[0]!.slice('finance_form='.length))!;
    expect(kept.errors).toEqual({ name: 'Please use alphabetical characters only.', phone: 'Invalid phone number. Must be an Australian number.' });
    const { whoIsHelping: _helper, ...visible } = typed;
    expect(kept.values).toEqual(visible);
    expect(await db.select().from(leads).where(eq(leads.email, 'fin.lee@example.com'))).toHaveLength(0);
  });

  it('never ties a lead to another website’s car; refuses JSON bodies and cross-site posts', async () => {
    // Like every lead form: a car the website does not list counts as no car (leads.commands.ts checkRefs).
    const other = await post({ name: 'Tom', email: 'tom.x@example.com', phone: mobile(), postcode: '2000', car_id: String(w.carB) });
    expect(other.status).toBe(303);
    const [lead] = await db.select().from(leads).where(eq(leads.email, 'tom.x@example.com'));
    expect(lead).toMatchObject({ websiteId: w.a.websiteId, carId: null });
    const json = await callLeadRoute(financeEnquiryRoute, { host: w.hostA, body: { name: 'Tom' } });
    expect(json.status).toBe(415);
    const crossSite = await post({ name: 'Tom', email: 'tom.y@example.com', phone: mobile(), postcode: '2000' }, w.hostA, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
  });

  it('answers hostile form posts with 3xx or 4xx, never 5xx', async () => {
    const hostile: Record<string, string>[] = [
      {},
      { name: 'x'.repeat(5000), email: '<script>@x', phone: '+'.repeat(50), amount: '1e309', term: '-1', car_id: '99999999999' },
      { __proto__: 'x', constructor: 'y', 'name[]': 'a', car_id: "1; drop table leads", location_id: 'NaN' },
      { name: '\u0000\u202e', email: 'a@b.co', phone: '0412 000 000', postcode: '0000', selfAssessedCreditScore: 'EXCELLENT' },
    ];
    for (const fields of hostile) {
      const response = await post(fields);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBeLessThan(500);
    }
    const huge = await callLeadRoute(financeEnquiryRoute, { host: w.hostA, rawBody: 'a='.padEnd(40_000, 'x'), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(huge.status).toBe(413);
  });

  it('marks a finished finance enquiry phone_verified only when a code verified that phone here in the last 15 minutes', async () => {
    const phone = mobile();
    const unverified = await callLeadRoute(leadsRoute, { host: w.hostA, body: { lead: validLead({ phone, category: 'Finance Enquiry', email: 'fin.a@example.com', phone_verified: true }) } });
    expect(unverified.status).toBe(201);
    const [first] = await db.select().from(leads).where(eq(leads.email, 'fin.a@example.com'));
    // The visitor's own claim is dropped; the platform's answer stands.
    expect(first.attributes.phone_verified).toBe(false);

    const codes: string[] = [];
    await sendPhoneCode(w.a.tenant, { phone }, '198.18.2.1', async (message) => {
      codes.push(message.body.slice(0, 6));
      return 'test';
    });
    await verifyPhoneCode(w.a.tenant, { phone, code: codes[0]! });
    await callLeadRoute(leadsRoute, { host: w.hostA, body: { lead: validLead({ phone, category: 'Finance Enquiry', email: 'fin.b@example.com' }) } });
    const [second] = await db.select().from(leads).where(eq(leads.email, 'fin.b@example.com')).orderBy(desc(leads.createdAt));
    expect(second.attributes.phone_verified).toBe(true);
    // The same phone on another website was not verified there.
    await callLeadRoute(leadsRoute, { host: w.hostB, body: { lead: validLead({ phone, category: 'Finance Enquiry', email: 'fin.c@example.com' }) } });
    const [third] = await db.select().from(leads).where(eq(leads.email, 'fin.c@example.com'));
    expect(third.attributes.phone_verified).toBe(false);
    // Other enquiries are not asked.
    await callLeadRoute(leadsRoute, { host: w.hostA, body: { lead: validLead({ phone, email: 'fin.d@example.com' }) } });
    const [fourth] = await db.select().from(leads).where(eq(leads.email, 'fin.d@example.com'));
    expect(fourth.attributes).not.toHaveProperty('phone_verified');
  });
});
