// Points a dealership's lead webhook at an address, with a new signing secret printed once.
//   npm run leads:webhook -- --dealership <dealership-slug> --url <https://…>
// Every complete lead of the dealership is then POSTed there as JSON, signed
// X-Lead-Signature: t={unix seconds},v1={hex HMAC-SHA256 of "t.body"} with that secret.
// On the embedded database, stop the server first (one process may open it).
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { databaseOptions } from '../src/db';
import { ValidationError } from '../src/modules/dashboard/dashboard.errors';
import { setLeadWebhook } from '../src/modules/leads/leads.commands';

const USAGE = 'usage: npm run leads:webhook -- --dealership <dealership-slug> --url <https://receiver.example/leads>';

let args: { dealership?: string; url?: string };
try {
  ({ values: args } = parseArgs({ options: { dealership: { type: 'string' }, url: { type: 'string' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!args.dealership || !args.url) {
  console.error(USAGE);
  process.exit(2);
}

const handle = await openDatabase(databaseOptions());
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
let exitCode = 0;
try {
  const hook = await setLeadWebhook(args.dealership, args.url);
  if (!hook) {
    console.error(`No dealership '${args.dealership}'.`);
    exitCode = 1;
  } else {
    console.log(`Lead webhook of '${args.dealership}' (website ${hook.websiteId}): ${hook.url}`);
    console.log(`  secret:  ${hook.secret}`);
    console.log('The secret is shown only this once; running this again replaces it.');
  }
} catch (error) {
  if (!(error instanceof ValidationError)) throw error;
  console.error(`url ${error.fields?.url}\n${USAGE}`);
  exitCode = 2;
} finally {
  await handle.close();
}
process.exit(exitCode);
