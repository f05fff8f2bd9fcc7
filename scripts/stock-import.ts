// Imports stock for one website from a CSV or JSON file.
//   npm run stock:import -- --website <website-slug> <file.csv|file.json>
// Prints `row N: accepted <slug>` or `row N: rejected – <field>: <reason>; …` per row and a total.
// Exit code: 0 all rows accepted, 1 some rejected (the good rows are still imported),
// 2 unusable input (missing file, unknown website, unreadable CSV or JSON).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { formatImportRow, importStock, parseStockFile, StockFileError } from '../src/modules/dashboard/dashboard.import';
import { findTenantById } from '../src/modules/tenancy/tenancy.queries';
import { websites } from '../src/modules/tenancy/tenancy.schema';
import { databaseOptions } from '../src/db';

const USAGE = 'usage: npm run stock:import -- --website <website-slug> <file.csv|file.json>';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

let website: string | undefined;
let file: string | undefined;
try {
  const { values, positionals } = parseArgs({ options: { website: { type: 'string' } }, allowPositionals: true });
  website = values.website;
  if (positionals.length > 1) fail(`one file at a time\n${USAGE}`);
  file = positionals[0];
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (!website || !file) fail(USAGE);

let content: string;
try {
  content = fs.readFileSync(file, 'utf8');
} catch (error) {
  fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}

let rows: Record<string, unknown>[];
try {
  rows = parseStockFile(file, content);
} catch (error) {
  fail(`${file}: ${error instanceof StockFileError ? error.message : `unreadable (${(error as Error).message})`}`);
}

const handle = await openDatabase(databaseOptions());
// The modules reach the database through getDb(); give them this handle rather than a second one.
(globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
let exitCode = 0;
try {
  const [site] = await handle.db.select({ id: websites.id }).from(websites).where(eq(websites.slug, website));
  const tenant = site ? await findTenantById(site.id) : null;
  if (!tenant) {
    console.error(`No website with slug '${website}'.`);
    exitCode = 2;
  } else {
    const started = performance.now();
    const result = await importStock(tenant, rows);
    for (const row of result.rows) console.log(formatImportRow(row));
    console.log(`${result.accepted} accepted, ${result.rejected} rejected`);
    console.error(`(${rows.length} rows in ${Math.round(performance.now() - started)} ms)`);
    exitCode = result.rejected > 0 ? 1 : 0;
  }
} finally {
  await handle.close();
}
process.exit(exitCode);
