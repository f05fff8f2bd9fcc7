import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db';
import { useTestDatabase } from '../support/database';
import { callLeadRoute, seedLeadWorld, type LeadWorld } from '@/modules/leads/leads.test-support';
import { POST as sendRoute } from '@/app/api/phone-codes/route';
import { POST as verifyRoute } from '@/app/api/phone-codes/verify/route';
import { POST as rateLimitRoute } from '@/app/api/rate-limit/route';
import { GET as contactRoute } from '@/app/api/check-if-contact-exists/route';
import { phoneVerifiedRecently, sendPhoneCode, verifyPhoneCode } from '@/modules/identity/identity.codes';
import { CODE_MESSAGES } from '@/modules/identity/identity.validation';
import { customers, verifications } from '@/modules/identity/identity.schema';
import { twilioSms } from '@/modules/identity/adapters/sms';
import { leadDeliveries } from '@/modules/leads/leads.schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';

let counter = 0;
/** A fresh Australian mobile number and client address per call. */
const mobile = () => `0412 ${String(100 + (counter += 1)).padStart(3, '0')} ${String(500 + counter).slice(-3)}`;
const address = () => `198.18.0.${counter % 250}`;

describe('phone codes', () => {
  let db: Db;
  let w: LeadWorld;

  beforeAll(async () => {
    ({ db } = await useTestDatabase());
    w = await seedLeadWorld(db);
  });

  const call = (handler: typeof sendRoute, body: unknown, host = w.hostA, ip = address()) => callLeadRoute(handler, { host, body, headers: { [CLIENT_ADDRESS_HEADER]: ip } });

  /** The code the local SMS default left in the outbox for this E.164 number. */
  async function codeSentTo(e164: string): Promise<string> {
    const [row] = await db.select().from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms')).orderBy(desc(leadDeliveries.id)).limit(20).then((rows) => rows.filter((r) => r.payload.kind === 'sms' && r.payload.to === e164));
    if (!row || row.payload.kind !== 'sms') throw new Error('no SMS');
    return /^(\d{6}) /.exec(row.payload.body)![1];
  }
  const e164 = (local: string) => `+61${local.replace(/\s/g, '').slice(1)}`;

  it('sends a 6-digit code by the outbox, stores only its hash, and checks it once', async () => {
    const phone = mobile();
    const sent = await call(sendRoute, { phone, first_name: 'Ava', email: 'ava@example.com' });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ ok: true, resend_after: 30 });
    const code = await codeSentTo(e164(phone));
    const [row] = await db.select().from(verifications).where(and(eq(verifications.phone, e164(phone)), eq(verifications.verificationType, 'sms')));
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).not.toContain(code);
    expect(row.metadata).toMatchObject({ first_name: 'Ava', email: 'ava@example.com', website: w.a.tenant.slug });
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBeGreaterThan(9.9 * 60_000);

    const wrong = await call(verifyRoute, { phone, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({ error: CODE_MESSAGES.invalid, fields: { code: CODE_MESSAGES.invalid } });
    expect((await call(verifyRoute, { phone, code })).status).toBe(200);
    expect((await call(verifyRoute, { phone, code })).status).toBe(422);
    const [verified] = await db.select().from(verifications).where(and(eq(verifications.phone, e164(phone)), eq(verifications.verificationType, 'verify')));
    expect(verified.metadata).toMatchObject({ first_name: 'Ava' });
    expect(await phoneVerifiedRecently(w.a.tenant, e164(phone), 15 * 60_000)).toBe(true);
    expect(await phoneVerifiedRecently(w.b.tenant, e164(phone), 15 * 60_000)).toBe(false);
  });

  it('answers an empty code and one of 5 or 7 digits with the spec messages', async () => {
    const phone = mobile();
    const cases: [unknown, string][] = [['', CODE_MESSAGES.required], ['12345', CODE_MESSAGES.digits], ['1234567', CODE_MESSAGES.digits], [undefined, CODE_MESSAGES.required]];
    for (const [code, message] of cases) {
      const response = await call(verifyRoute, { phone, code });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { fields: Record<string, string> }).fields.code).toBe(message);
    }
  });

  it('a code expires after 10 minutes; 5 wrong tries end it; a new one replaces the old, after 30 s', async () => {
    const t = Date.now();
    const expiring = mobile();
    await sendPhoneCode(w.a.tenant, { phone: expiring }, null, undefined, t);
    const code = await codeSentTo(e164(expiring));
    // Decision 029: a code is valid 10 minutes.
    await expect(verifyPhoneCode(w.a.tenant, { phone: expiring, code }, t + 10 * 60_000 + 1)).rejects.toThrow(CODE_MESSAGES.invalid);

    const tried = mobile();
    await sendPhoneCode(w.a.tenant, { phone: tried }, null, undefined, t);
    const right = await codeSentTo(e164(tried));
    const wrong = right === '999999' ? '888888' : '999999';
    // Decision 029: 5 wrong tries per code; the fifth ends it.
    for (let i = 0; i < 4; i += 1) await expect(verifyPhoneCode(w.a.tenant, { phone: tried, code: wrong }, t)).rejects.toThrow(CODE_MESSAGES.invalid);
    await expect(verifyPhoneCode(w.a.tenant, { phone: tried, code: wrong }, t)).rejects.toThrow(CODE_MESSAGES.rateLimit);
    await expect(verifyPhoneCode(w.a.tenant, { phone: tried, code: right }, t)).rejects.toThrow(CODE_MESSAGES.rateLimit);

    const resent = mobile();
    await sendPhoneCode(w.a.tenant, { phone: resent }, null, undefined, t);
    const first = await codeSentTo(e164(resent));
    await expect(sendPhoneCode(w.a.tenant, { phone: resent }, null, undefined, t + 10_000)).rejects.toThrow(CODE_MESSAGES.rateLimit);
    // Resent until the new code differs from the first (two equal 6-digit codes: one chance in a million), within the hour's 3.
    let second = first;
    let at = t;
    while (second === first) {
      at += 31_000;
      await sendPhoneCode(w.a.tenant, { phone: resent }, null, undefined, at);
      second = await codeSentTo(e164(resent));
    }
    await expect(verifyPhoneCode(w.a.tenant, { phone: resent, code: first }, at + 1_000)).rejects.toThrow(CODE_MESSAGES.invalid);
    await expect(verifyPhoneCode(w.a.tenant, { phone: resent, code: second }, at + 1_000)).resolves.toMatchObject({ phone: e164(resent) });
  });

  it('50 parallel sends for one phone send exactly one code (the 30 s resend gate), and say exactly why the rest are refused', async () => {
    const phone = mobile();
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => call(sendRoute, { phone }, w.hostA, `198.19.${i}.1`)));
    const sent = responses.filter((r) => r.status === 200).length;
    expect(sent).toBe(1);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused.length).toBe(50 - sent);
    expect(((await refused[0].json()) as { error: string }).error).toBe(CODE_MESSAGES.rateLimit);
    expect(refused[0].headers.get('retry-after')).toMatch(/^\d+$/);
    const sms = (await db.select().from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms'))).filter((r) => r.payload.kind === 'sms' && r.payload.to === e164(phone));
    expect(sms).toHaveLength(sent);
  });

  it('one client address gets at most its hourly number of codes, whatever the phones', async () => {
    const ip = '198.20.0.1';
    const t = Date.now();
    const statuses: number[] = [];
    // Decision 029: 10 codes per client address per hour.
    for (let i = 0; i < 11; i += 1) {
      statuses.push(await sendPhoneCode(w.a.tenant, { phone: mobile() }, ip, undefined, t).then(() => 200, (e: { status?: number }) => e.status ?? 500));
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
  });

  it('sends only to mobiles of the website’s own country (the SMS-pumping guard)', async () => {
    for (const phone of ['+64 21 123 4567', '+1 415 555 2671', '+44 7700 900123', '0412', 'x'.repeat(30)]) {
      const response = await call(sendRoute, { phone });
      expect(response.status, phone).toBe(422);
      expect(((await response.json()) as { error: string }).error).toBe('Invalid phone number. Must be an Australian number.');
    }
    // A landline, with SPEC §5's mobile-only message (issue 31, item 5).
    const landline = await call(sendRoute, { phone: '02 9999 0000' });
    expect(landline.status).toBe(422);
    expect(await landline.json()).toMatchObject({ error: 'Must be an Australian mobile number.', fields: { phone: 'Must be an Australian mobile number.' } });
  });

  it('a provider failure gives a clear message, no usable code, and a failed outbox record', async () => {
    const phone = mobile();
    const failing = async () => Promise.reject(new Error('provider timeout'));
    await expect(sendPhoneCode(w.a.tenant, { phone }, null, failing)).rejects.toThrow(CODE_MESSAGES.sendFailed);
    const [row] = await db.select().from(verifications).where(eq(verifications.phone, e164(phone)));
    expect(row.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const [record] = (await db.select().from(leadDeliveries).where(eq(leadDeliveries.channel, 'sms'))).filter((r) => r.payload.kind === 'sms' && r.payload.to === e164(phone));
    expect(record).toMatchObject({ status: 'failed', lastError: 'provider timeout' });
    expect(record.payload.kind === 'sms' && record.payload.body).not.toMatch(/\d{6}/);
  });

  it('POST /api/rate-limit says whether a code may be sent now, and counts nothing', async () => {
    const phone = mobile();
    for (let i = 0; i < 20; i += 1) expect((await call(rateLimitRoute, { phone }, w.hostA, '198.21.0.1')).status).toBe(200);
    expect((await call(sendRoute, { phone }, w.hostA, '198.21.0.1')).status).toBe(200);
    const now = await call(rateLimitRoute, { phone }, w.hostA, '198.21.0.1');
    expect(now.status).toBe(429);
    expect(((await now.json()) as { error: string }).error).toBe(CODE_MESSAGES.rateLimit);
  });

  it('GET /api/check-if-contact-exists answers for this website’s customers only', async () => {
    const phone = mobile();
    const ask = async (host: string, value = phone) => {
      const request = new Request(`http://${host}/api/check-if-contact-exists?phone_number=${encodeURIComponent(value)}`, { headers: { host, [CLIENT_ADDRESS_HEADER]: address() } });
      const response = await contactRoute(request, { params: Promise.resolve({}) });
      return { status: response.status, body: (await response.json()) as { data: { exists: boolean } | null; error: string | null } };
    };
    expect(await ask(w.hostA)).toEqual({ status: 200, body: { data: { exists: false }, error: null } });
    await db.insert(customers).values({ websiteId: w.b.websiteId, phone: e164(phone) });
    expect((await ask(w.hostA)).body.data).toEqual({ exists: false });
    await db.insert(customers).values({ websiteId: w.a.websiteId, phone: e164(phone) });
    expect((await ask(w.hostA)).body.data).toEqual({ exists: true });
    for (const value of ['', 'abc', '+1 415 555 2671', '\u0000']) {
      const answer = await ask(w.hostA, value);
      expect(answer.status).toBe(422);
      expect(answer.body.data).toBeNull();
      expect(answer.body.error).toBeTruthy();
    }
  });

  it('a code sent on one website cannot be checked on another', async () => {
    const phone = mobile();
    await call(sendRoute, { phone });
    const code = await codeSentTo(e164(phone));
    expect((await call(verifyRoute, { phone, code }, w.hostB)).status).toBe(422);
    expect((await call(verifyRoute, { phone, code }, w.hostA)).status).toBe(200);
  });

  it('answers hostile bodies on every endpoint with 4xx, never 5xx', async () => {
    const bodies: unknown[] = [null, [], 'x', {}, { phone: 5 }, { phone: ['0412000000'] }, { phone: '\u0000' }, { phone: 'x'.repeat(5000) }, { phone: '0412345678', extra: 1 }, { phone: '0412345678', code: { $ne: '' } }, { __proto__: { phone: '0412345678' } }];
    for (const handler of [sendRoute, verifyRoute, rateLimitRoute]) {
      for (const body of bodies) {
        const status = (await call(handler, body)).status;
        expect(status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(status, JSON.stringify(body)).toBeLessThan(500);
      }
      expect((await callLeadRoute(handler, { host: w.hostA, rawBody: 'phone=0412345678', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
      expect((await callLeadRoute(handler, { host: 'nowhere.localhost', body: { phone: '0412345678' } })).status).toBe(404);
    }
  });

  describe('the Twilio adapter', () => {
    const seen: { path: string; auth?: string; form: URLSearchParams }[] = [];
    let base = '';
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ path: request.url ?? '', auth: request.headers.authorization, form: new URLSearchParams(body) });
        response.setHeader('content-type', 'application/json');
        if (new URLSearchParams(body).get('To') === '+61400000000') return void response.writeHead(400).end(JSON.stringify({ message: 'unreachable' }));
        response.end(JSON.stringify({ sid: 'SM123' }));
      });
    });
    beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => ((base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`), resolve()))));
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('posts the message to the account’s Messages resource with basic auth, and fails on an error answer', async () => {
      const send = twilioSms({ accountSid: 'AC1', authToken: 'tok', from: '+61400111222', messagingServiceSid: null, baseUrl: base });
      expect(await send({ to: '+61412345678', from: 'Harbour', body: '123456 is your code' })).toBe('twilio SM123');
      expect(seen[0].path).toBe('/2010-04-01/Accounts/AC1/Messages.json');
      expect(seen[0].auth).toBe(`Basic ${Buffer.from('AC1:tok').toString('base64')}`);
      expect(Object.fromEntries(seen[0].form)).toEqual({ To: '+61412345678', Body: '123456 is your code', From: 'Harbour' });
      await expect(send({ to: '+61400000000', from: 'Harbour', body: 'x' })).rejects.toThrow('twilio answered 400: unreachable');
    });
  });
});
