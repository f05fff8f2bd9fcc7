import { openDatabase } from '../src/db/client';
import { scriptDatabaseOptions } from './script-db';

const handle = await openDatabase(scriptDatabaseOptions());
console.log(`Database migrated (${handle.kind}).`);
await handle.close();
