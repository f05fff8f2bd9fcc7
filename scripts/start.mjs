// `npm start`: build if needed, migrate, seed the demo dealers into an empty database, serve.
import { buildIfNeeded, startServer, tsx, waitForHttp } from './lib.mjs';

const port = Number(process.env.PORT ?? 3000);

await buildIfNeeded();
// Migrate and seed in a process of their own: it must let go of the embedded database before
// the server opens it.
let sites = [];
const prepared = await tsx('scripts/db-prepare.ts', [], {
  stdio: ['inherit', 'pipe', 'inherit'],
  onLine: (line) => {
    if (line.startsWith('@@sites ')) sites = JSON.parse(line.slice('@@sites '.length));
    else console.log(line);
  },
});
if (prepared !== 0) process.exit(prepared);

const server = startServer(port);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
  });
}
// Ended by a signal nobody here sent (killed, out of memory): a failure, so that a process manager
// (Restart=on-failure) starts the server again.
server.on('exit', (code, signal) => {
  if (signal && !stopping) console.error(`The server's primary process ${server.pid} was ended by ${signal}: the server is down.`);
  process.exit(code ?? (signal && !stopping ? 1 : 0));
});

await waitForHttp(`http://127.0.0.1:${port}/api/health`);
console.log(`\nThe platform is running on port ${port}. Demo dealer sites:`);
for (const site of sites) console.log(`  ${site.name.padEnd(28)} http://${site.slug}.localhost:${port}/`);
console.log(`  Directory of demo sites      http://localhost:${port}/`);
console.log('Any host works with curl too: curl -H "Host: kiwi-motors.localhost" http://127.0.0.1:' + port + '/');
