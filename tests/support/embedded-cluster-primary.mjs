// Child process of tests/integration/embedded-shared.test.ts: a cluster primary that holds the
// embedded database of DATA_DIR for its server processes exactly as scripts/serve.mjs does (the same
// module, loaded the same way), with tests/support/embedded-cluster-worker.ts as the server
// processes instead of Next. Prints `@@primary {pid}` and, for each server process ready,
// `@@worker {id, pid, port}`. SIGTERM stops the workers, then closes the database.
import cluster from 'node:cluster';
import path from 'node:path';
import { importServerModule } from '../../scripts/lib.mjs';

const { hostEmbeddedDatabase } = await importServerModule('src/db/embedded-host.ts');
const host = await hostEmbeddedDatabase();
process.stdout.write(`@@primary ${JSON.stringify({ pid: process.pid })}\n`);

cluster.setupPrimary({ exec: path.join(import.meta.dirname, 'embedded-cluster-worker.ts'), execArgv: ['--import', 'tsx', '--conditions=react-server'] });
cluster.on('message', (worker, message) => {
  if (message?.testWorker) process.stdout.write(`@@worker ${JSON.stringify({ id: worker.id, ...message.testWorker })}\n`);
});
cluster.on('exit', (worker, code, signal) => process.stdout.write(`@@exit ${JSON.stringify({ id: worker.id, code, signal })}\n`));
for (let i = 0; i < Number(process.env.EMBEDDED_TEST_WORKERS ?? 2); i++) cluster.fork(host.workerEnv);

process.once('SIGTERM', async () => {
  const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve).kill('SIGTERM'))));
  await host.close();
  process.exit(0);
});
