// Serves the production build: `next start` in one process per CPU core, so a render uses every
// core (a Node process uses one). The processes share the port (node:cluster hands each connection
// to one of them) and nothing else: everything they must agree on is in the database
// (ARCHITECTURE.md, rule 6), as with replicas on several machines. On a PostgreSQL server
// (DATABASE_URL) each process has its own pool. The embedded database can be opened by one process
// only: this primary opens it and runs the statements of its server processes
// (src/db/embedded-host.ts, decision 046), and runs nothing else. WEB_CONCURRENCY sets the count;
// with 1 there is a single `next start`, which opens the embedded database itself. Arguments go to
// `next start`. A server process that dies is replaced (scripts/supervision.mjs, decision 057); if
// the primary dies, its server processes end with it and the process manager starts `npm start` again.
import cluster from 'node:cluster';
import path from 'node:path';
import { importServerModule, serverProcessCount } from './lib.mjs';
import { GIVE_UP_AFTER, QUICK_DEATH_MS, replacementDelay, trackHandoffs } from './supervision.mjs';

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
    // A process that dies is replaced (decision 057): at once, unless processes keep dying within
    // QUICK_DEATH_MS of their start, then after a growing delay; after GIVE_UP_AFTER such deaths
    // in a row the server stops with code 1, for the process manager to see.
    const born = new Map();
    const closeInTransit = new Map();
    const replacing = new Map();
    let quickDeaths = 0;
    const fork = (replaces) => {
      const worker = cluster.fork(host?.workerEnv ?? {});
      born.set(worker.id, Date.now());
      closeInTransit.set(worker.id, trackHandoffs(worker.process));
      if (replaces) replacing.set(worker.id, replaces);
      // A process that stays up that long ends the run of quick deaths.
      setTimeout(() => {
        if (!worker.isDead()) quickDeaths = 0;
      }, QUICK_DEATH_MS).unref();
    };
    for (let i = 0; i < count; i++) fork();
    cluster.on('listening', (worker) => {
      const replaced = replacing.get(worker.id);
      if (!replaced) return;
      replacing.delete(worker.id);
      console.error(`server process ${worker.process.pid} ready, replacing ${replaced.pid} ${Date.now() - replaced.endedAt} ms after it ended`);
    });
    cluster.on('exit', (worker, code, signal) => {
      const closed = closeInTransit.get(worker.id)?.() ?? 0;
      closeInTransit.delete(worker.id);
      if (stopping) {
        if (alive().length === 0) void finish();
        return;
      }
      const lived = Date.now() - (born.get(worker.id) ?? 0);
      born.delete(worker.id);
      quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      const ended = `server process ${worker.process.pid} ended (${signal ?? `code ${code}`}) after ${(lived / 1000).toFixed(1)} s`;
      const dropped = closed > 0 ? `; closed ${closed} connection${closed === 1 ? '' : 's'} it had not taken` : '';
      if (quickDeaths >= GIVE_UP_AFTER) {
        console.error(`${ended}${dropped}. Server processes keep dying within ${QUICK_DEATH_MS / 1000} s of starting (${quickDeaths} in a row): stopping the server.`);
        process.exitCode = code || 1;
        stopAll('SIGTERM');
        return;
      }
      const delay = replacementDelay(quickDeaths);
      console.error(`${ended}${dropped}; replacing it${delay ? ` in ${delay / 1000} s (${quickDeaths} quick deaths in a row)` : ''}`);
      const replaces = { pid: worker.process.pid, endedAt: Date.now() };
      setTimeout(() => stopping || fork(replaces), delay);
    });
  }
} else {
  if (cluster.isWorker) {
    // The primary is gone (killed, or crashed): node:cluster ends this process at once. Say why.
    const primaryPid = process.ppid;
    cluster.worker.on('disconnect', () => {
      if (cluster.worker.exitedAfterDisconnect) return;
      const holds = process.env.EMBEDDED_DATABASE_HOST ? ', which held the embedded database,' : '';
      console.error(`server process ${process.pid}: the server's primary process ${primaryPid}${holds} is gone, so this process ends too. Start the server again (npm start; a process manager does it by itself, see README.md).`);
    });
  }
  const next = path.join(import.meta.dirname, '..', 'node_modules', 'next', 'dist', 'bin', 'next');
  process.argv = [process.argv[0], next, 'start', ...process.argv.slice(2)];
  await import(next);
}
