// Serves the production build: `next start` in one process per CPU core when the data is on a
// PostgreSQL server (DATABASE_URL), so a render uses every core (a Node process uses one). The
// processes share the port (node:cluster hands each connection to one of them) and nothing else:
// everything they must agree on is in the database (ARCHITECTURE.md, rule 6), as with replicas on
// several machines. The embedded database can only be opened by one process, so without
// DATABASE_URL there is one. WEB_CONCURRENCY sets the count. Arguments go to `next start`.
import cluster from 'node:cluster';
import path from 'node:path';
import { serverProcessCount } from './lib.mjs';

const count = serverProcessCount();
if (cluster.isPrimary && count > 1) {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < count; i++) fork();
  // A process that dies is replaced; one that dies at once would be replaced in a loop, so a
  // second death within 5 s of its start ends the whole server with its code.
  const started = new Map();
  cluster.on('online', (worker) => started.set(worker.id, Date.now()));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    console.error(`server process ${worker.process.pid} ended (${signal ?? code}) after ${Math.round(lived / 1000)} s`);
    if (lived < 5_000) {
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGTERM');
      process.exitCode = code || 1;
      return;
    }
    fork();
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
} else {
  const next = path.join(import.meta.dirname, '..', 'node_modules', 'next', 'dist', 'bin', 'next');
  process.argv = [process.argv[0], next, 'start', ...process.argv.slice(2)];
  await import(next);
}
