import { openDatabase } from '../src/db/client';
import { databaseOptions } from '../src/db';

const handle = await openDatabase(databaseOptions());
console.log(`Database migrated (${handle.kind}).`);
await handle.close();
