// Migrates the database and, when it holds no website yet, loads the demo dealers.
import { openDatabase } from '../src/db/client';
import { databaseHasWebsites, seedDemoData } from '@/demo';
import { websites } from '../src/modules/tenancy/tenancy.schema';
import { databaseOptions } from '../src/db';
import { mediaDir } from '../src/lib/media';

const handle = await openDatabase(databaseOptions());
try {
  if (await databaseHasWebsites(handle.db)) {
    console.log(`Database ready (${handle.kind}).`);
  } else {
    console.log(`Empty database (${handle.kind}): loading the demo dealers…`);
    await seedDemoData(handle.db, { mediaDir: mediaDir(), log: (line) => console.log(line) });
  }
  // Read by scripts/start.mjs to print the demo URLs once the server answers.
  const sites = await handle.db.select({ slug: websites.slug, name: websites.name }).from(websites).orderBy(websites.id);
  console.log(`@@sites ${JSON.stringify(sites)}`);
} finally {
  await handle.close();
}
