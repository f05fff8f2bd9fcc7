import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { financeSettings, instantQuote } from '../finance.calc';
import { carClarityPartner } from './carclarity-http';
import { localPartner } from './local';
import type { FinanceApplication } from './types';
import { hostedApplicationUrl, youxPartner } from './youx-http';

/** The finance partners against a local stand-in on 127.0.0.1: what they send, what they read, failures and timeouts. */
describe('finance partner adapters', () => {
  const seen: { method: string; url: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  let base = '';
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', auth: request.headers.authorization, body: JSON.parse(body || 'null') });
      response.setHeader('content-type', 'application/json');
      if (request.url?.startsWith('/slow')) return void setTimeout(() => response.end('{}'), 1_000);
      if (request.url?.startsWith('/down')) return void response.writeHead(500).end('{"error":"boom"}');
      if (request.url === '/youx/quote') return void response.end(JSON.stringify({ weeklyRepaymentAmount: 151.2, advertisedRate: 9.1, comparisonRate: 10.4 }));
      if (request.url === '/youx/customers') return void response.end(JSON.stringify({ redirectUrl: 'https://apply.youxpowered.com.au/continue/abc', id: 77 }));
      if (request.url === '/cc/customers') return void response.end(JSON.stringify({ redirectUrl: 'https://carclarity.example/next/1', customerId: 'c-1' }));
      if (request.url === '/bad/customers') return void response.end(JSON.stringify({ ok: true }));
      response.writeHead(404).end('{}');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const application: FinanceApplication = {
    id: '4f0c2f55-1111-4a8e-9d0e-2b8f4f6b0a01',
    websiteSlug: 'harbour-city-motors',
    dealershipSlug: 'harbour-city-mazda',
    partnerCode: 'HCM01',
    phone: '+61412000111',
    firstName: 'Ava',
    lastName: 'Lee',
    email: 'ava@example.com',
    postcode: '2000',
    subscribe: true,
    purchasePrice: 32_500,
    loanTermYears: 5,
    selfAssessedCreditScore: 'GREAT',
    vin: 'JM0BP2HL00X100001',
    nvic: null,
    year: 2024,
    car: { id: 9, name: '2024 Mazda CX-5', carType: 'used' },
    quote: { weeklyRepaymentAmount: 160, advertisedRate: 8.99, comparisonRate: 10.25 },
  };
  const quoteRequest = { selfAssessedCreditScore: 'GREAT' as const, purchasePrice: 32_500, loanTerm: 5, year: 2024, vin: null, nvic: null, whoIsHelping: null, dealership_slug: 'harbour-city-mazda' };

  it('YouX: quotes and creates the customer with its key, reading the partner’s answer', async () => {
    const youx = youxPartner({ url: `${base}/youx`, key: 'yk' });
    expect(await youx.quote(quoteRequest, financeSettings())).toEqual({ weeklyRepaymentAmount: 151.2, advertisedRate: 9.1, comparisonRate: 10.4 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/youx/quote', auth: 'Bearer yk' });
    expect(seen.at(-1)?.body).toEqual({ selfAssessedCreditScore: 'GREAT', purchasePrice: 32_500, loanTerm: 5, year: 2024, vin: null, nvic: null, whoIsHelping: null });
    expect(await youx.createCustomer(application)).toEqual({ redirectUrl: 'https://apply.youxpowered.com.au/continue/abc', reference: '77' });
    expect(seen.at(-1)).toMatchObject({ url: '/youx/customers', body: { dealerCode: 'HCM01', reference: application.id, customer: { phoneNumber: '+61412000111', email: 'ava@example.com' } } });
  });

  it('YouX hosted application: no call, the dealer’s page with the amount', async () => {
    const calls = seen.length;
    const hosted = youxPartner({ url: `${base}/youx`, key: 'yk' }, { hostedApplication: true });
    expect(await hosted.createCustomer(application)).toEqual({ redirectUrl: 'https://apply.youxpowered.com.au/HCM01?amount=32500', reference: null });
    expect(seen.length).toBe(calls);
    expect(hostedApplicationUrl('a b', 10_000.4)).toBe('https://apply.youxpowered.com.au/a%20b?amount=10000');
    // Without API keys the hosted page still works, and quotes come from the calculator.
    const keyless = youxPartner(null, { hostedApplication: true });
    expect((await keyless.createCustomer(application)).redirectUrl).toBe('https://apply.youxpowered.com.au/HCM01?amount=32500');
    expect(await keyless.quote(quoteRequest, financeSettings())).toEqual(await localPartner.quote(quoteRequest, financeSettings()));
    await expect(youxPartner(null).createCustomer(application)).rejects.toThrow('not configured');
  });

  it('CarClarity: the customer and the lead in one call; quotes from the calculator', async () => {
    const cc = carClarityPartner({ url: `${base}/cc`, key: 'ck' });
    expect(await cc.createCustomer(application)).toEqual({ redirectUrl: 'https://carclarity.example/next/1', reference: 'c-1' });
    expect(seen.at(-1)).toMatchObject({ url: '/cc/customers', auth: 'Bearer ck', body: { partnerCode: 'HCM01', customer: { mobile: '+61412000111' }, lead: { amount: 32_500, quote: application.quote } } });
    expect(await cc.quote(quoteRequest, financeSettings())).toEqual(await localPartner.quote(quoteRequest, financeSettings()));
  });

  it('fails on an error answer, an answer without a redirect, and a timeout', async () => {
    await expect(youxPartner({ url: `${base}/down`, key: 'k' }).createCustomer(application)).rejects.toThrow('500');
    await expect(carClarityPartner({ url: `${base}/bad`, key: 'k' }).createCustomer(application)).rejects.toThrow();
    await expect(youxPartner({ url: `${base}/slow`, key: 'k' }, { hostedApplication: false, timeoutMs: 100 }).quote(quoteRequest, financeSettings())).rejects.toThrow();
    await expect(carClarityPartner({ url: `${base}/slow`, key: 'k' }, 100).createCustomer(application)).rejects.toThrow();
  });

  it('local: the calculator’s quote and the dealer’s confirmation page', async () => {
    const settings = financeSettings({ rates: { GREAT: 6.5 } });
    expect(await localPartner.quote(quoteRequest, settings)).toEqual(instantQuote({ purchasePrice: 32_500, loanTermYears: 5, credit: 'GREAT', settings }));
    expect((await localPartner.createCustomer(application)).redirectUrl).toBe(`/success?category=finance-enquiry&application=${application.id}`);
  });
});
