// `npm run bench:pages`' comparison (issue 17): in the copy of the bench database DATA_DIR names,
// the website whose slug is the argument gets its configuration without the `widgets` block (every
// widget off, as a website that never configured one). Run with tsx --conditions=react-server.
import { sql } from 'drizzle-orm';
import { databaseOptions } from '../../src/db';
import { openDatabase } from '../../src/db/client';

const slug = process.argv[2];
const { dataDir, url } = databaseOptions();
if (!slug || !process.env.DATA_DIR || url) throw new Error('usage: DATA_DIR=<copy> tsx --conditions=react-server scripts/bench/without-widgets.ts <slug> (embedded database only)');
const handle = await openDatabase({ dataDir });
try {
  const result = await handle.db.execute(sql`update websites set config = config - 'widgets' where slug = ${slug} returning slug`);
  const rows = (result as unknown as { rows?: unknown[] }).rows ?? (result as unknown as unknown[]);
  if (rows.length !== 1) throw new Error(`${slug}: no such website in ${dataDir}`);
} finally {
  await handle.close();
}
