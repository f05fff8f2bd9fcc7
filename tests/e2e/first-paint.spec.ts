import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config';

/**
 * Decision 075: a page whose HTML arrives in pieces (a phone on a slow network, or a busy one that
 * paints between two slices of parsing) is not painted half-parsed, so nothing a visitor already sees
 * moves when the rest arrives. Before it, a half-parsed header laid its menu across the call button's
 * column and narrowed it when the button arrived, and the footer at the bottom of a short page rose
 * as it grew (the garage's 'nothing below it moves' test saw 0.0026–0.0028 on a busy CI machine).
 *
 * A proxy in front of the server sends each page in two pieces, cut where the test says, 800 ms apart.
 */
const PIECE_DELAY_MS = 800;

type Cut = { site: string; path: string; before: string; where: string };

const CUTS: Cut[] = [
  { site: 'harbour-city-motors', path: '/my-garage', before: 'aria-label="My garage"', where: 'the header, before its garage and call buttons' },
  { site: 'harbour-city-motors', path: '/my-garage', before: '<nav aria-label="Footer"', where: 'the footer of a short page' },
  { site: 'kiwi-motors', path: '/mykiwi/saved', before: '<nav aria-label="Footer"', where: 'the footer of a short page' },
  { site: 'lone-star-auto', path: '/', before: 'href="tel:', where: 'the header, before its call button' },
];

/** Serves the server's pages through itself, each document in two pieces: up to `cutBefore`'s first occurrence, then the rest. */
async function piecewiseProxy(cutBefore: string) {
  let cuts = 0;
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: E2E_PORT, path: req.url, method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity' } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          const at = String(answer.headers['content-type']).startsWith('text/html') ? body.indexOf(cutBefore) : -1;
          if (at < 0) return void res.end(body);
          cuts += 1;
          res.write(body.subarray(0, at));
          setTimeout(() => res.end(body.subarray(at)), PIECE_DELAY_MS);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, cuts: () => cuts, close: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())) };
}

for (const each of CUTS) {
  test(`${each.site} ${each.path} arriving in two pieces, cut in ${each.where}: nothing painted moves`, async ({ browser }) => {
    const proxy = await piecewiseProxy(each.before);
    for (const width of [375, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { shifts: number[] }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) shifts.push(entry.value);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const cutsBefore = proxy.cuts();
      const response = await page.goto(`http://${each.site}.localhost:${proxy.port}${each.path}`);
      expect(response?.status()).toBe(200);
      expect(proxy.cuts(), `${width} px: the page came in two pieces`).toBe(cutsBefore + 1);
      // Both pieces are in; a shift they caused has been reported by now.
      await page.waitForTimeout(300);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
      expect(shifts, `${width} px: layout shifts`).toEqual([]);
      await page.close();
    }
    await proxy.close();
  });
}
