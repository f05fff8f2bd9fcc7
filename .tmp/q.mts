import { openDatabase } from '../src/db/client';
import { sql } from 'drizzle-orm';
const h = await openDatabase({ dataDir: '/work/wt/vitals/.test-data/e2e/pglite' });
console.log(await h.db.execute(sql`select view_id, page_type, lcp, inp, cls, fcp, ttfb from web_vitals where view_id not like 'seed-%'`));
await h.close();
