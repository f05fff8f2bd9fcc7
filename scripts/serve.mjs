// Serves the production build: `next start` in one process per CPU core, so a render uses every
// core (a Node process uses one). The processes share the port (node:cluster hands each connection
// to one of them) and nothing else: everything they must agree on is in the database
// (ARCHITECTURE.md, rule 6), as with replicas on several machines. On a PostgreSQL server
// (DATABASE_URL) each process has its own pool. The embedded database can be opened by one process
// only: this primary opens it and runs the statements of its server processes
// (src/db/embedded-host.ts, decision 046), and runs nothing else. WEB_CONCURRENCY sets the count;
// with 1 there is a single `next start`, which opens the embedded database itself. Arguments go to
// `next start`.
import cluster from 'node:cluster';
import path from 'node:path';
import { importServerModule, serverProcessCount } from './lib.mjs';

const count = serverProcessCount();
if (cluster.isPrimary && count > 1) {
  let stopping = false;
  /** The embedded database held for the server processes (null on a PostgreSQL server). */
  let host = null;
  // After the last server process: the database closed (PGlite shut down cleanly, its lock
  // released), then the exit with process.exitCode.
  const finish = async () => {
    try {
      await host?.close();
    } catch (error) {
      console.error('closing the embedded database failed:', error);
      process.exitCode ||= 1;
    }
    process.exit();
  };
  const alive = () => Object.values(cluster.workers ?? {}).filter(Boolean);
  const stopAll = (signal) => {
    stopping = true;
    if (alive().length === 0) void finish();
    for (const worker of alive()) worker.process.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal));

  if (!process.env.DATABASE_URL) {
    try {
      const { hostEmbeddedDatabase } = await importServerModule('src/db/embedded-host.ts');
      host = await hostEmbeddedDatabase();
    } catch (error) {
      // Most often the data directory is held by a script or another server: its message says which.
      console.error(error instanceof Error && error.name === 'DataDirLockedError' ? error.message : error);
      process.exit(1);
    }
  }

  if (stopping) void finish();
  else {
    const fork = () => cluster.fork(host?.workerEnv ?? {});
    for (let i = 0; i < count; i++) fork();
    // A process that dies is replaced; one that dies at once would be replaced in a loop, so a
    // second death within 5 s of its start ends the whole server with its code.
    const started = new Map();
    cluster.on('online', (worker) => started.set(worker.id, Date.now()));
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (alive().length === 0) void finish();
        return;
      }
      const lived = Date.now() - (started.get(worker.id) ?? 0);
      console.error(`server process ${worker.process.pid} ended (${signal ?? code}) after ${Math.round(lived / 1000)} s`);
      if (lived < 5_000) {
        process.exitCode = code || 1;
        stopAll('SIGTERM');
        return;
      }
      fork();
    });
  }
} else {
  const next = path.join(import.meta.dirname, '..', 'node_modules', 'next', 'dist', 'bin', 'next');
  process.argv = [process.argv[0], next, 'start', ...process.argv.slice(2)];
  await import(next);
}
