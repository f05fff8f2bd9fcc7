import http from 'node:http';
import { openDatabase, SERVER_TIMEOUTS, type DatabaseHandle } from '@/db/client';
import { installRequestHooks } from '@/lib/request-hooks';
import * as carRoute from '@/app/(dashboard)/websites/[websiteId]/cars/[slug]/route';
import { serveStock } from './stock-app';

/**
 * One application server of the two-servers test (decision 055), in a process of its own: the
 * database named by APP_DB_URL with the server's bounds, the real request hooks and page cache,
 * the stock page and feeds (tests/support/stock-app.ts), and the Dashboard API's car route at
 * /websites/{id}/cars/{slug}. Prints 'listening {port}' once it answers.
 */
const handle = await openDatabase({ url: process.env.APP_DB_URL!, poolSize: 5, timeouts: SERVER_TIMEOUTS });
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
installRequestHooks({ pageCache: { maxBytes: 8 << 20, maxEntryBytes: 2 << 20, maxAgeMs: 60_000, staleIfErrorMs: 24 * 3_600_000 }, trustedProxyHops: 0, development: false });

async function dashboard(request: http.IncomingMessage, response: http.ServerResponse, websiteId: string, slug: string): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const answer = await carRoute.PUT(
    new Request(`http://dealer.example${request.url}`, { method: request.method, headers: request.headers as Record<string, string>, body: Buffer.concat(chunks) }),
    { params: Promise.resolve({ websiteId, slug }) },
  );
  response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
}

const server = http.createServer((request, response) => {
  const car = /^\/websites\/(\d+)\/cars\/([^/?]+)$/.exec(request.url ?? '');
  const answering = car && request.method === 'PUT' ? dashboard(request, response, car[1], car[2]) : serveStock(request, response);
  answering.catch((error: unknown) => {
    console.error(error);
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => {
  server.close();
  void handle.close().then(() => process.exit(0));
});
