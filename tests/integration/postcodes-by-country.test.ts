import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import * as leadsRoute from '@/app/api/leads/route';
import * as deliveryRoute from '@/app/api/checkout/delivery/route';
import { callLeadRoute, validLead } from '@/modules/leads/leads.test-support';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { leads } from '@/modules/leads/leads.schema';
import { seedCheckoutWorld, type CheckoutWorld } from '@/modules/checkout/checkout.test-support';

/**
 * Issue 36: postcodes per country at the server's door. SPEC §5: 'Postcode: exactly 4 digits, max
 * length 4, "Invalid postcode. Please enter a 4-digit number."'; decision 013: the country is the
 * website's (en-NZ → New Zealand's 4-digit postcodes, en-US → 5-digit ZIP codes with 'Invalid ZIP
 * code. Please enter a 5-digit number.'). A browser can send any postcode, so the lead API and the
 * delivery check of the online purchase are called directly.
 */

const FOUR_DIGITS = 'Invalid postcode. Please enter a 4-digit number.';
const ZIP = 'Invalid ZIP code. Please enter a 5-digit number.';

let db: Db;
let w: CheckoutWorld;
let ip = 0;
const nextIp = () => `10.37.${(ip >> 8) & 255}.${(ip += 1) & 255}`;

const setLocale = (locale: string) => db.update(websites).set({ config: sql`jsonb_set(${websites.config}, '{locale}', ${JSON.stringify(locale)}::jsonb)` }).where(eq(websites.id, w.b.websiteId));

async function delivery(postcode: string) {
  const request = new Request(`http://${w.hostB}/api/checkout/delivery?postcode=${encodeURIComponent(postcode)}`, { headers: { host: w.hostB, 'x-dealer-client-address': nextIp() } });
  const response = await deliveryRoute.GET(request, { params: Promise.resolve({}) });
  return { status: response.status, body: (await response.json()) as { postcode?: string; fields?: Record<string, string> } };
}

async function lead(postcode: string, localPhone: string) {
  const response = await callLeadRoute(leadsRoute.POST, { host: w.hostB, body: { lead: validLead({ postcode, phone: localPhone, url: `http://${w.hostB}/contact` }) }, headers: { 'x-dealer-client-address': nextIp() } });
  return { status: response.status, body: (await response.json()) as { id?: string; fields?: Record<string, string> } };
}

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  w = await seedCheckoutWorld(db);
});

describe('a New Zealand website (en-NZ): postcodes of exactly 4 digits', () => {
  beforeAll(() => setLocale('en-NZ'));
  // A New Zealand mobile number, different for each lead.
  let phone = 0;
  const nzMobile = () => `021 ${String(2_000_000 + (phone += 1)).padStart(7, '0')}`;

  it('the lead API takes 6011 (Wellington) and refuses 3 or 5 digits and letters with the 4-digit message', async () => {
    expect((await lead('6011', nzMobile())).status).toBe(201);
    for (const bad of ['601', '60111', '6O11', '60 11']) {
      const refused = await lead(bad, nzMobile());
      expect(refused.status, bad).toBe(422);
      expect(refused.body.fields, bad).toEqual({ 'lead.postcode': FOUR_DIGITS });
    }
  });

  it('the delivery check takes 6011 and refuses 60111 and 601 with the 4-digit message', async () => {
    expect(await delivery('6011')).toEqual({ status: 200, body: { postcode: '6011' } });
    for (const bad of ['60111', '601']) {
      expect(await delivery(bad), bad).toMatchObject({ status: 422, body: { fields: { postcode: FOUR_DIGITS } } });
    }
    // Four digits that are not a New Zealand postcode: 'Invalid postcode' (SPEC §8, geocoding found nothing).
    expect(await delivery('0000')).toMatchObject({ status: 422, body: { fields: { postcode: 'Invalid postcode' } } });
  });
});

describe('a US website (en-US): 5-digit ZIP codes', () => {
  beforeAll(() => setLocale('en-US'));
  let phone = 0;
  const usPhone = () => `(214) 555-${String(1000 + (phone += 1)).slice(-4)}`;

  // Issue 31 item 1: every US lead with a 5-digit ZIP was refused with the 4-digit message.
  it('the lead API takes a ZIP (75201) and a ZIP+4 (75201-1234), kept as typed, and refuses 4 digits, 6 digits and a malformed +4', async () => {
    for (const good of ['75201', '75201-1234']) {
      const taken = await lead(good, usPhone());
      expect(taken.status, good).toBe(201);
      const [row] = await db.select({ postcode: leads.postcode }).from(leads).where(eq(leads.id, taken.body.id!));
      expect(row.postcode, good).toBe(good);
    }
    for (const bad of ['7520', '752011', '75201-123', '75201 1234x']) {
      const refused = await lead(bad, usPhone());
      expect(refused.status, bad).toBe(422);
      expect(refused.body.fields, bad).toEqual({ 'lead.postcode': ZIP });
    }
  });

  it('the delivery check takes 75201 (Dallas) and refuses 4 and 6 digits with the ZIP message', async () => {
    expect(await delivery('75201')).toEqual({ status: 200, body: { postcode: '75201' } });
    for (const bad of ['7520', '752011', '7520A']) {
      expect(await delivery(bad), bad).toMatchObject({ status: 422, body: { fields: { postcode: ZIP } } });
    }
  });
});
