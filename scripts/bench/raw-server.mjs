// A plain Node HTTP server that answers each path with bytes recorded from the application (status,
// headers and body as the page cache sends them), in as many processes as the application runs
// (node:cluster, one listening port): the ceiling the page cache is compared with in
// `npm run bench:pages` (issue 33). Usage: node raw-server.mjs <pages.json> <port> <processes>;
// prints 'listening' once every process listens.
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';

const [file, port, processes] = process.argv.slice(2);

if (cluster.isPrimary) {
  let listening = 0;
  const count = Math.max(1, Number(processes) || 1);
  for (let i = 0; i < count; i++) {
    cluster.fork().on('listening', () => {
      if (++listening === count) console.log('listening');
    });
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const pages = new Map(
    Object.entries(JSON.parse(fs.readFileSync(file, 'utf8'))).map(([path, page]) => [path, { ...page, body: Buffer.from(page.body, 'base64') }]),
  );
  http
    .createServer((request, response) => {
      const page = pages.get(request.url ?? '/');
      if (!page) return response.writeHead(404).end();
      response.writeHead(page.status, { ...page.headers, 'content-length': String(page.body.length) });
      response.end(page.body);
    })
    .listen(Number(port), '127.0.0.1');
}
