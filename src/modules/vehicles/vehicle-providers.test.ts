import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupNevdis } from './adapters/nevdis-http';
import { valuationFromAutograb } from './adapters/autograb-http';
import { postJson } from '@/lib/http-json';

/** The provider adapters against a local stand-in on 127.0.0.1: what they send, what they read, and failures. */
describe('vehicle provider adapters', () => {
  const seen: { url: string; auth: string | undefined; body: unknown }[] = [];
  let base = '';
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', auth: request.headers.authorization, body: JSON.parse(body || 'null') });
      if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 2_000);
      if (request.url === '/down') return void response.writeHead(503).end();
      response.setHeader('content-type', 'application/json');
      if (request.url === '/nevdis') response.end(JSON.stringify({ vin: 'MR0FA3CD100123456', make: 'Toyota', model: 'HiLux', badge: 'SR5', year: '2019', colour: 'White', extra: 1 }));
      else if (request.url === '/nevdis-unknown') response.end(JSON.stringify({ error: 'not found' }));
      else response.end(JSON.stringify({ retail: { low: 30000, median: 32000, high: 34000 }, trade_in: { low: 26000, median: 27000, high: 28000 }, comparables: 40 }));
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('asks the registration provider with its key and reads the vehicle', async () => {
    const vehicle = await lookupNevdis({ url: `${base}/nevdis`, key: 'k1' }, { registration: 'ABC123', state: 'NSW' });
    expect(vehicle).toEqual({ vin: 'MR0FA3CD100123456', make: 'Toyota', model: 'HiLux', badge: 'SR5', year: 2019, body: null, fuel: null, transmission: null, colour: 'White' });
    expect(seen.at(-1)).toEqual({ url: '/nevdis', auth: 'Bearer k1', body: { registration: 'ABC123', state: 'NSW' } });
    expect(await lookupNevdis({ url: `${base}/nevdis-unknown`, key: 'k1' }, { vin: 'MR0FA3CD100123456' })).toBeNull();
  });

  it('reads Autograb’s ranges into the estimate’s shape', async () => {
    const estimate = await valuationFromAutograb({ url: `${base}/autograb`, key: 'k2' }, { make: 'Toyota', model: 'HiLux', year: 2019, km: 80000, state: 'NSW' });
    expect(estimate).toEqual({ ok: true, retail: { low: 30000, median: 32000, high: 34000 }, tradeIn: { low: 26000, median: 27000, high: 28000 }, state: null, comparables: 40 });
  });

  it('fails on a provider error and on a timeout, so the service falls back', async () => {
    await expect(postJson(`${base}/down`, 'k', {}, 1_000)).rejects.toThrow('503');
    await expect(postJson(`${base}/slow`, 'k', {}, 200)).rejects.toThrow();
  });
});
