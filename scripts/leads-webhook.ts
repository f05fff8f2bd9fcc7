// Points a dealership's lead webhook at an address, with a new signing secret printed once.
//   npm run leads:webhook -- --dealership <dealership-slug> --url <https://…>
// Every complete lead of the dealership is then POSTed there as JSON, signed
// X-Lead-Signature: t={unix seconds},v1={hex HMAC-SHA256 of "t.body"} with that secret.
// https to a public address; a loopback or private address (or a name resolving to one) is refused,
// as the delivery refuses it, unless LEAD_WEBHOOK_ALLOW_PRIVATE=1 (then http on this machine too).
// On the embedded database, stop the server first (one process may open it).
import { ValidationError } from '@/lib/http';
import { setLeadWebhook } from '../src/modules/leads/leads.commands';
import { stringOptions, withDatabase } from './cli';

const USAGE = 'usage: npm run leads:webhook -- --dealership <dealership-slug> --url <https://receiver.example/leads>';

const args = stringOptions(['dealership', 'url'], USAGE, (a) => !!a.dealership && !!a.url);

await withDatabase(async () => {
  try {
    const hook = await setLeadWebhook(args.dealership!, args.url!);
    if (!hook) {
      console.error(`No dealership '${args.dealership}'.`);
      return 1;
    }
    console.log(`Lead webhook of '${args.dealership}' (website ${hook.websiteId}): ${hook.url}`);
    console.log(`  secret:  ${hook.secret}`);
    console.log('The secret is shown only this once; running this again replaces it.');
    return 0;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    console.error(`url ${error.fields?.url}\n${USAGE}`);
    return 2;
  }
});
