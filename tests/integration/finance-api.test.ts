import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as quoteRoute } from '@/app/api/youx/quote/route';
import { POST as customerRoute } from '@/app/api/youx/create-customer/route';
import { POST as carClarityRoute } from '@/app/api/carClarityCustomer/route';
import { sendPhoneCode, verifyPhoneCode } from '@/modules/identity/identity.codes';
import { financeApplications } from '@/modules/finance/finance.schema';
import { FINANCE_MESSAGES } from '@/modules/finance/finance.enquiry';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { cars } from '@/modules/stock/stock.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { env } from '@/lib/env';

let counter = 0;
const mobile = () => `0414 ${String(300 + (counter += 1)).padStart(3, '0')} ${String(700 + counter).slice(-3)}`;
const e164 = (local: string) => `+61${local.replace(/\s/g, '').slice(1)}`;

describe('finance quote and hand-over', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
    // Website A quotes with rates of its own.
    await db.execute(sql`update websites set config = jsonb_set(config, '{finance}', '{"rates": {"GREAT": 7.49, "DECENT": 11.5, "POOR": 16}}'::jsonb) where id = ${w.a.websiteId}`);
  });
  afterAll(async () => {
    await db.execute(sql`update websites set config = config - 'finance' where id in (${w.a.websiteId}, ${w.b.websiteId})`);
  });

  const call = (handler: typeof quoteRoute, body: unknown, options: { host?: string; headers?: Record<string, string> } = {}) =>
    callLeadRoute(handler, { host: options.host ?? w.hostA, body, headers: { [CLIENT_ADDRESS_HEADER]: `198.19.0.${counter % 250}`, ...options.headers } });

  /** Verifies the phone by a code on the website: the cookie (name=token) the code check answers. */
  let clock = Date.now();
  async function verify(phone: string, tenant = w.a.tenant): Promise<{ cookie: string }> {
    let code = '';
    // Each code 31 s after the last: past the resend gate, which counts every website together.
    clock += 31_000;
    await sendPhoneCode(tenant, { phone }, `198.19.1.${counter % 250}`, async (message) => {
      code = message.body.slice(0, 6);
      return 'test';
    }, clock);
    const { verificationToken } = await verifyPhoneCode(tenant, { phone, code }, clock);
    return { cookie: `dp_phone_verification=${verificationToken}` };
  }
  /** Moves a phone's latest code check on website A back in time. */
  const checkedAgo = (phone: string, ms: number) =>
    db.execute(sql`update verifications set created_at = now() - ${`${ms} milliseconds`}::interval where website_id = ${w.a.websiteId} and phone = ${e164(phone)} and verification_type = 'verify'`);

  const customer = (phone: string, extra: Record<string, unknown> = {}) => ({
    data: { selfAssessedCreditScore: 'GREAT', purchasePrice: 32000, loanTerm: 5, phoneNumber: phone, firstName: 'Ava', lastName: 'Lee', email: 'ava.lee@example.com', subscribe: false, postCode: '2000', ...extra },
    additionalData: { car_id: w.carA, category: 'Finance Enquiry', lead_attributes: {} },
  });

  it('quotes from the website’s rates: the calculator’s figures, clamped inputs', async () => {
    const response = await call(quoteRoute, { selfAssessedCreditScore: 'decent', purchasePrice: '$45,000', loanTerm: 4, year: 2021 });
    expect(response.status).toBe(200);
    // Worked by hand from decision 030 (not from instantQuote): $45,000 + the $400 establishment fee
    // over 208 weeks at 11.5 % / 52 a week, 45,400 × r / (1 − (1 + r)^−208) = 272.54, plus the $10
    // monthly fee spread over the weeks (120 / 52 = 2.31): 274.85 a week. The comparison rate is on
    // the benchmark ($30,000 over 60 months, fee payable at settlement): 12.75 % at 11.5 %.
    expect(await response.json()).toEqual({ weeklyRepaymentAmount: 274.85, advertisedRate: 11.5, comparisonRate: 12.75 });
    // Clamped to $200,000 and 7 years: $200,400 over 364 weeks at 7.49 % plus 2.31 = 710.13; the
    // comparison rate at 7.49 % is 8.76 %.
    const clamped = await (await call(quoteRoute, { purchasePrice: 500_000, loanTerm: 12 })).json();
    expect(clamped).toEqual({ weeklyRepaymentAmount: 710.13, advertisedRate: 7.49, comparisonRate: 8.76 });
  });

  it('refuses malformed quote requests with the field', async () => {
    const cases: [unknown, string][] = [
      [{ selfAssessedCreditScore: 'EXCELLENT' }, 'selfAssessedCreditScore'],
      [{ purchasePrice: 'lots' }, 'purchasePrice'],
      [{ purchasePrice: -5 }, 'purchasePrice'],
      [{ year: 'soon' }, 'year'],
      [{ vin: 'x'.repeat(40) }, 'vin'],
    ];
    for (const [body, field] of cases) {
      const response = await call(quoteRoute, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(((await response.json()) as { fields: Record<string, string> }).fields)).toContain(field);
    }
  });

  it('hands over only a phone verified by a code on this website in the last 15 minutes, once per code check', async () => {
    const phone = mobile();
    const refused = await call(customerRoute, customer(phone));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe(FINANCE_MESSAGES.unverified);

    // Verified 16 minutes ago: too old.
    const old = await verify(phone);
    await checkedAgo(phone, 16 * 60 * 1000);
    expect((await call(customerRoute, customer(phone), { headers: old })).status).toBe(403);

    // Verified on another website: not here.
    const elsewhere = await verify(phone, w.b.tenant);
    expect((await call(customerRoute, customer(phone), { headers: elsewhere })).status).toBe(403);

    const verified = await verify(phone);
    const accepted = await call(customerRoute, customer(phone), { headers: verified });
    expect(accepted.status).toBe(200);
    const { redirectUrl } = (await accepted.json()) as { redirectUrl: string };
    expect(redirectUrl).toMatch(/^\/success\?category=finance-enquiry&application=[0-9a-f-]{36}$/);
    const [row] = await db.select().from(financeApplications).where(eq(financeApplications.phone, e164(phone)));
    expect(row).toMatchObject({ websiteId: w.a.websiteId, carId: w.carA, partner: 'local', status: 'created', redirectUrl });
    expect(row.quote).toMatchObject({ advertisedRate: 7.49 });
    // The code check is used up: not a second application, with its cookie or without.
    expect((await call(customerRoute, customer(phone), { headers: verified })).status).toBe(403);
    expect((await call(customerRoute, customer(phone))).status).toBe(403);

    // Verified 14 minutes ago: still fresh.
    const earlier = mobile();
    const fresh = await verify(earlier);
    await checkedAgo(earlier, 14 * 60 * 1000);
    expect((await call(customerRoute, customer(earlier), { headers: fresh })).status).toBe(200);
  });

  it('refuses another website’s car, and hands over once per Idempotency-Key', async () => {
    const phone = mobile();
    const verified = await verify(phone);
    const foreign = await call(customerRoute, { ...customer(phone), additionalData: { car_id: w.carB } }, { headers: verified });
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as { fields: Record<string, string> }).fields).toHaveProperty('additionalData.car_id');

    // The refused body did not use up the code check.
    const headers = { ...verified, 'idempotency-key': 'finance-key-0001' };
    const first = await call(customerRoute, customer(phone), { headers });
    const again = await call(customerRoute, customer(phone), { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
    const rows = await db.select().from(financeApplications).where(and(eq(financeApplications.websiteId, w.a.websiteId), eq(financeApplications.idempotencyKey, 'finance-key-0001')));
    expect(rows).toHaveLength(1);
  });

  // Issue 31 item 8: finance only on a car that can be bought, as the car page offers it (decision 052).
  it('refuses a hand-over for a sold or reserved car', async () => {
    const phone = mobile();
    const verified = await verify(phone);
    for (const change of [{ reserved: true }, { status: 'sold' as const, soldDate: new Date() }]) {
      await db.update(cars).set(change).where(eq(cars.id, w.carA));
      try {
        // Refused before the one-time verification is spent (decision 056), so it still counts below.
        const refused = await call(customerRoute, customer(phone), { headers: verified });
        expect(refused.status, JSON.stringify(change)).toBe(422);
        expect(((await refused.json()) as { fields: Record<string, string> }).fields).toEqual({ 'additionalData.car_id': 'is sold or reserved' });
      } finally {
        await db.update(cars).set({ reserved: false, status: 'in_stock', soldDate: null }).where(eq(cars.id, w.carA));
      }
    }
    expect((await call(customerRoute, customer(phone), { headers: verified })).status).toBe(200);
  });

  it('takes CarClarity hand-overs at /api/carClarityCustomer (the local partner where CarClarity has no keys)', async () => {
    const phone = mobile();
    const response = await call(carClarityRoute, customer(phone), { headers: await verify(phone) });
    expect(response.status).toBe(200);
    const [row] = await db.select().from(financeApplications).where(eq(financeApplications.phone, e164(phone)));
    expect(row.status).toBe('created');
  });

  it('hands over through the YouX API: its answer, 502 and a failed row when it fails, the same answer on a repeat, the hosted page', async () => {
    const requests: { url: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
    let failing = false;
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        requests.push({ url: request.url ?? '', auth: request.headers.authorization, body: JSON.parse(body) });
        response.setHeader('content-type', 'application/json');
        if (failing) return void response.writeHead(503).end('{"error":"maintenance"}');
        if (request.url === '/quote') return void response.end(JSON.stringify({ weeklyRepaymentAmount: 171.05, advertisedRate: 9.45, comparisonRate: 10.61 }));
        response.end(JSON.stringify({ redirectUrl: 'https://apply.youxpowered.com.au/continue/yx-1', id: 'yx-1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const saved = env().youx;
    env().youx = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: 'test-youx-key' };
    const setPartner = (partner: Record<string, unknown>) =>
      db.execute(sql`update websites set config = jsonb_set(config, '{finance,partners}', ${JSON.stringify({ [`${w.a.tenant.slug}-dealer`]: partner })}::jsonb) where id = ${w.a.websiteId}`);
    const ip = (n: number) => ({ headers: { [CLIENT_ADDRESS_HEADER]: `198.19.2.${n}` } });
    try {
      await setPartner({ partner: 'youx', partnerCode: 'ALPHA01' });

      // The website's one dealership quotes through YouX.
      const quote = await call(quoteRoute, { purchasePrice: 32000, loanTerm: 5 }, ip(1));
      expect(await quote.json()).toEqual({ weeklyRepaymentAmount: 171.05, advertisedRate: 9.45, comparisonRate: 10.61 });
      expect(requests.at(-1)).toMatchObject({ url: '/quote', auth: 'Bearer test-youx-key', body: { purchasePrice: 32000, loanTerm: 5, selfAssessedCreditScore: 'GREAT' } });

      const phone = mobile();
      const created = await call(customerRoute, customer(phone), { headers: { ...ip(2).headers, ...(await verify(phone)), 'idempotency-key': 'youx-ok-1' } });
      expect(await created.json()).toEqual({ redirectUrl: 'https://apply.youxpowered.com.au/continue/yx-1' });
      expect(requests.at(-1)).toMatchObject({ url: '/customers', auth: 'Bearer test-youx-key', body: { dealerCode: 'ALPHA01', customer: { phoneNumber: e164(phone), email: 'ava.lee@example.com' }, loan: { purchasePrice: 32000, loanTerm: 5 } } });
      const [ok] = await db.select().from(financeApplications).where(and(eq(financeApplications.websiteId, w.a.websiteId), eq(financeApplications.idempotencyKey, 'youx-ok-1')));
      expect(ok).toMatchObject({ partner: 'youx', status: 'created', partnerReference: 'yx-1' });

      failing = true;
      const failedQuote = await call(quoteRoute, { purchasePrice: 32000 }, ip(3));
      expect(failedQuote.status).toBe(502);
      expect(await failedQuote.json()).toEqual({ error: FINANCE_MESSAGES.quoteFailed });

      const headers = { ...ip(4).headers, ...(await verify(phone)), 'idempotency-key': 'youx-down-1' };
      const failed = await call(customerRoute, customer(phone), { headers });
      expect(failed.status).toBe(502);
      expect(await failed.json()).toEqual({ error: 'Failed to create customer with YouX' });
      const calls = requests.length;
      const repeat = await call(customerRoute, customer(phone), { headers });
      expect(repeat.status).toBe(502);
      expect(await repeat.json()).toEqual({ error: 'Failed to create customer with YouX' });
      expect(requests.length).toBe(calls);
      const [row] = await db.select().from(financeApplications).where(and(eq(financeApplications.websiteId, w.a.websiteId), eq(financeApplications.idempotencyKey, 'youx-down-1')));
      expect(row).toMatchObject({ partner: 'youx', status: 'failed', redirectUrl: null });
      expect(row.error).toContain('503');

      // The hosted application page: no API call, YouX's page for the dealer with the amount.
      await setPartner({ partner: 'youx', partnerCode: 'ALPHA01', hostedApplication: true });
      const hosted = await call(customerRoute, customer(phone), { headers: { ...ip(5).headers, ...(await verify(phone)) } });
      expect(await hosted.json()).toEqual({ redirectUrl: 'https://apply.youxpowered.com.au/ALPHA01?amount=32000' });
      expect(requests.length).toBe(calls);
    } finally {
      env().youx = saved;
      await db.execute(sql`update websites set config = config #- '{finance,partners}' where id = ${w.a.websiteId}`);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('answers hostile bodies with 4xx, never 5xx', async () => {
    const hostile: unknown[] = [
      null,
      [],
      'text',
      { data: [] },
      { data: { phoneNumber: { $ne: 1 } } },
      { data: { ...customer(mobile()).data, firstName: '<script>alert(1)</script>' } },
      { data: { ...customer(mobile()).data, purchasePrice: 1e308 * 10 } },
      { data: { ...customer(mobile()).data, loanTerm: 'x'.repeat(10_000) } },
      { __proto__: { admin: true }, data: { ...customer(mobile()).data } },
      { data: customer(mobile()).data, additionalData: { car_id: "1 OR 1=1", lead_attributes: { ['x'.repeat(500)]: 1 } } },
      JSON.parse('{"constructor":{"prototype":{"polluted":1}},"selfAssessedCreditScore":"GREAT"}'),
    ];
    for (const body of hostile) {
      const label = JSON.stringify(body)?.slice(0, 80);
      // A quote ignores what it does not know and defaults what is missing: never a server error.
      expect((await call(quoteRoute, body)).status, label).toBeLessThan(500);
      const handOver = await call(customerRoute, body);
      expect(handOver.status, label).toBeGreaterThanOrEqual(400);
      expect(handOver.status, label).toBeLessThan(500);
    }
    const valid = customer(mobile()).data;
    const raw = [
      '{"__proto__":{"polluted":1},"purchasePrice":30000}',
      `{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"data":${JSON.stringify(valid)}}`,
      '{"purchasePrice":1e309,"loanTerm":-1}',
      '{"purchasePrice":-1e309,"loanTerm":1e309,"year":-2024}',
      `{"data":${JSON.stringify({ ...valid, purchasePrice: 1e309 }).replace('"purchasePrice":null', '"purchasePrice":1e309')}}`,
      '{"purchasePrice":NaN}',
      '{"loanTerm":"NaN","purchasePrice":"Infinity","year":"NaN"}',
      '[{"purchasePrice":30000}]',
      '"just text"',
      'null',
      '0',
      `{"data":${JSON.stringify(valid)},"additionalData":[1,2,3]}`,
      `{"data":${JSON.stringify({ ...valid, phoneNumber: ['0414000000'] })}}`,
      `{"data":${JSON.stringify({ ...valid, firstName: "Robert'); DROP TABLE finance_applications;--", email: "x' OR '1'='1@example.com" })}}`,
      `{"vin":"' OR 1=1 --","nvic":"1; DELETE FROM websites","whoIsHelping":"\u0000\ud800"}`,
      `{"data":${JSON.stringify(valid)},"additionalData":{"lead_attributes":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}}`,
      `{"selfAssessedCreditScore":"${'G'.repeat(20_000)}"}`,
      `{"data":{"firstName":"${'x'.repeat(40_000)}"}}`,
    ];
    for (const rawBody of raw) {
      for (const handler of [quoteRoute, customerRoute]) {
        const response = await callLeadRoute(handler, { host: w.hostA, rawBody, headers: { 'content-type': 'application/json', [CLIENT_ADDRESS_HEADER]: '198.19.3.1' } });
        expect(response.status, rawBody.slice(0, 80)).toBeLessThan(500);
        expect(((await response.json()) as { error?: string }).error ?? 'ok', rawBody.slice(0, 80)).toBeTypeOf('string');
      }
    }
    expect((await db.select({ id: financeApplications.id }).from(financeApplications)).length).toBeGreaterThan(0);

    const notJson = await callLeadRoute(quoteRoute, { host: w.hostA, rawBody: '{"purchasePrice":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    const form = await callLeadRoute(customerRoute, { host: w.hostA, rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is not there where the website offers no instant finance', async () => {
    await db.execute(sql`update websites set config = jsonb_set(config, '{finance}', '{"instantQuote": false}'::jsonb) where id = ${w.b.websiteId}`);
    expect((await call(quoteRoute, {}, { host: w.hostB })).status).toBe(404);
    expect((await call(customerRoute, customer(mobile()), { host: w.hostB })).status).toBe(404);
    const [site] = await db.select({ config: websites.config }).from(websites).where(eq(websites.id, w.b.websiteId));
    expect((site.config as { finance: { instantQuote: boolean } }).finance.instantQuote).toBe(false);
    // The partners lend in Australia: a New Zealand website has no instant finance either.
    await db.execute(sql`update websites set config = (config - 'finance') || '{"currency": "NZD"}'::jsonb where id = ${w.b.websiteId}`);
    expect((await call(quoteRoute, {}, { host: w.hostB })).status).toBe(404);
    await db.execute(sql`update websites set config = config - 'currency' where id = ${w.b.websiteId}`);
    expect((await call(quoteRoute, {}, { host: w.hostB })).status).toBe(200);
  });
});
