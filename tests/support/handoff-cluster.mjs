// Child process of tests/scripts/cluster-handoff.test.ts: a node:cluster primary with two plain
// HTTP server processes (round-robin, as scripts/serve.mjs runs). With HANDOFF_TRACK=1 it closes,
// when a server process ends, the connections handed to it that it never took (trackHandoffs of
// scripts/supervision.mjs, as serve.mjs does); with 0 it leaves them as node:cluster does.
// A server process that gets GET /freeze blocks its event loop for good (a dying process that
// reads nothing more) and prints `@@frozen {pid}`. Prints `@@ready {port}` and `@@closed {n}` on an exit.
import cluster from 'node:cluster';
import http from 'node:http';
import { trackHandoffs } from '../../scripts/supervision.mjs';

if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const closers = new Map();
  let listening = 0;
  for (let i = 0; i < 2; i++) {
    const worker = cluster.fork();
    if (process.env.HANDOFF_TRACK === '1') closers.set(worker.id, trackHandoffs(worker.process));
  }
  cluster.on('listening', (worker, address) => {
    if (++listening === 2) process.stdout.write(`@@ready ${address.port}\n`);
  });
  cluster.on('message', (_worker, message) => message?.frozen && process.stdout.write(`@@frozen ${message.frozen}\n`));
  cluster.on('exit', (worker) => process.stdout.write(`@@closed ${closers.get(worker.id)?.() ?? 0}\n`));
} else {
  http
    .createServer((request, response) => {
      if (request.url === '/freeze') {
        process.send({ frozen: process.pid });
        for (;;);
      }
      response.end(String(process.pid));
    })
    .listen(Number(process.env.HANDOFF_PORT ?? 0), '127.0.0.1');
}
