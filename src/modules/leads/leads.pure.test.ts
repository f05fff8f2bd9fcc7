import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildAdf, escapeXml } from './leads.adf';
import { backoffMs, signWebhook } from './leads.delivery';
import { isDisposableEmail, scoreLead, type SpamSignals } from './leads.spam';
import { parseTrail, recordVisit, TRAIL_MAX_AGE_MS, trailLeadFields } from './leads.tracking';
import { safeFileName, sniffContentType } from './leads.files';

const signals = (overrides: Partial<SpamSignals> = {}): SpamSignals => ({
  honeypot: undefined,
  fillMs: 20_000,
  minimumFillMs: 3_000,
  message: 'Is it available?',
  email: 'jane@example.com',
  sameMessageCount: 0,
  ...overrides,
});

describe('spam scoring', () => {
  it('a honeypot value alone is spam; an empty or blank one is not', () => {
    expect(scoreLead(signals({ honeypot: 'red' }))).toEqual({ spam: true, reasons: ['honeypot'] });
    expect(scoreLead(signals({ honeypot: '  ' })).spam).toBe(false);
  });
  it('fill time: below the minimum is a signal, at the minimum is not', () => {
    expect(scoreLead(signals({ fillMs: 2_999 })).reasons).toEqual(['fill-time']);
    expect(scoreLead(signals({ fillMs: 3_000 })).reasons).toEqual([]);
    expect(scoreLead(signals({ fillMs: undefined })).reasons).toEqual([]);
  });
  it('one signal never marks spam; two do', () => {
    expect(scoreLead(signals({ message: 'see www.cheap-cars.biz' }))).toEqual({ spam: false, reasons: ['links'] });
    expect(scoreLead(signals({ message: 'see https://x.example', email: 'a@mailinator.com' }))).toEqual({ spam: true, reasons: ['links', 'disposable-email'] });
  });
  it('repeated messages count from the threshold and only for long messages', () => {
    const long = 'Please call me back about finance options today';
    expect(scoreLead(signals({ message: long, sameMessageCount: 2 })).reasons).toEqual([]);
    expect(scoreLead(signals({ message: long, sameMessageCount: 3 })).reasons).toEqual(['repeated-message']);
    expect(scoreLead(signals({ message: 'Call me', sameMessageCount: 9 })).reasons).toEqual([]);
  });
  it('disposable domains include subdomains but not look-alikes', () => {
    expect(isDisposableEmail('x@Mailinator.com')).toBe(true);
    expect(isDisposableEmail('x@eu.mailinator.com')).toBe(true);
    expect(isDisposableEmail('x@notmailinator.com')).toBe(false);
  });
});

describe('ADF/XML', () => {
  it('escapes markup and drops control characters', () => {
    expect(escapeXml(`<a href="x">&'\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
  });
  it('builds a prospect with vehicle, customer and vendor', () => {
    const xml = buildAdf({
      leadId: '00000000-0000-4000-8000-000000000001',
      createdAt: new Date('2026-11-21T01:02:03Z'),
      firstName: 'Jane',
      lastName: 'O<Neil',
      email: 'jane@example.com',
      phone: '0411222333',
      postcode: '2000',
      message: 'Hi',
      category: 'General Enquiry',
      subcategory: null,
      dealershipName: 'Harbour City',
      websiteName: 'Harbour City Motors',
      car: { year: 2021, make: 'Mazda', model: 'CX-5', stocknum: 'S1', vin: null, carType: 'used', price: 29990 },
    });
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><\?adf version="1.0"\?><adf><prospect status="new">/);
    expect(xml).toContain('<vehicle interest="buy" status="used"><year>2021</year><make>Mazda</make><model>CX-5</model><stock>S1</stock><price type="asking" currency="AUD">29990</price></vehicle>');
    expect(xml).toContain('<name part="last">O&lt;Neil</name>');
    expect(xml).toContain('<requestdate>2026-11-21T01:02:03.000Z</requestdate>');
    expect(xml).not.toContain('<vin>');
  });
});

describe('delivery back-off and webhook signature', () => {
  it('doubles from the base and stops at an hour', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000))).toEqual([1000, 2000, 4000, 8000]);
    // Decision 010: at most an hour.
    expect(backoffMs(30, 1000)).toBe(3_600_000);
    // The default base is 5 s: 5 s × 2^(n−1).
    expect([1, 2, 3, 10, 11].map((n) => backoffMs(n))).toEqual([5_000, 10_000, 20_000, 2_560_000, 3_600_000]);
  });
  it('signs t.body with HMAC-SHA256', () => {
    const expected = createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex');
    expect(signWebhook('{"a":1}', 'k', 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });
});

describe('visitor trail', () => {
  const t0 = 1_700_000_000_000;
  it('keeps the last 50 pages and the first tracking query', () => {
    let trail = recordVisit(null, '/', '?utm_source=google&colour=red', t0);
    for (let i = 0; i < 60; i += 1) trail = recordVisit(trail, `/p${i}`, '', t0 + i);
    expect(trail.visitedPages).toHaveLength(50);
    expect(trail.visitedPages.at(-1)).toBe('/p59');
    expect(trail.firstPageQuery).toEqual({ utm_source: 'google' });
    expect(trailLeadFields(trail).linked_query_params).toEqual({ utm_source: 'google' });
  });
  it('a new tracking query or 30 days start afresh', () => {
    const trail = recordVisit(recordVisit(null, '/', '?gclid=1', t0), '/a', '', t0 + 1);
    expect(recordVisit(trail, '/b', '?fbclid=2', t0 + 2)).toMatchObject({ firstPageQuery: { fbclid: '2' }, visitedPages: ['/b?fbclid=2'] });
    expect(recordVisit(trail, '/c', '', t0 + TRAIL_MAX_AGE_MS + 1)).toMatchObject({ firstPageQuery: {}, visitedPages: ['/c'] });
    expect(recordVisit(trail, '/c', '', t0 + TRAIL_MAX_AGE_MS).visitedPages).toHaveLength(3);
  });
  it('reads back only a well-formed, unexpired trail', () => {
    const stored = JSON.stringify(recordVisit(null, '/', '', t0));
    expect(parseTrail(stored, t0 + 1)?.visitedPages).toEqual(['/']);
    expect(parseTrail(stored, t0 + TRAIL_MAX_AGE_MS + 1)).toBeNull();
    expect(parseTrail('{nope', t0)).toBeNull();
    expect(parseTrail('{"startedAt":"x"}', t0)).toBeNull();
  });
});

describe('uploaded files', () => {
  it('recognises photos and PDFs by their first bytes only', () => {
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffContentType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffContentType(Buffer.from('<svg onload=alert(1)>'))).toBeNull();
    expect(sniffContentType(Buffer.from('MZ\x90\0'))).toBeNull();
  });
  it('file names lose paths and odd characters and take the real extension', () => {
    expect(safeFileName('C:\\Users\\x\\photo (1).JPG', 'image/jpeg')).toBe('photo _1_.jpg');
    expect(safeFileName('../../evil.html', 'application/pdf')).toBe('evil.pdf');
    expect(safeFileName('', 'image/png')).toBe('file.png');
  });
});
