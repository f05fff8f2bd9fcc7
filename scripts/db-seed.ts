// `npm run db:seed`: loads (or reloads) the eight demo dealers and their photos.
//   --no-media   write the rows only, no image files
import { openDatabase } from '../src/db/client';
import { seedDemoData } from '@/demo';
import { mediaDir } from '../src/lib/media';
import { databaseOptions } from '../src/db';

const withMedia = !process.argv.includes('--no-media');
const started = performance.now();
const handle = await openDatabase(databaseOptions());
try {
  const dir = withMedia ? mediaDir() : null;
  console.log(`Seeding the demo dealers into the ${handle.kind} database${dir ? `, media in ${dir}` : ' (no media files)'}…`);
  const summary = await seedDemoData(handle.db, { mediaDir: dir, log: (line) => console.log(`  ${line}`) });
  const width = Math.max(...Object.keys(summary.carsByWebsite).map((s) => s.length));
  console.log(`\n${summary.websites} websites, ${summary.cars} vehicles:`);
  for (const [slug, count] of Object.entries(summary.carsByWebsite)) console.log(`  ${slug.padEnd(width)}  ${String(count).padStart(4)}`);
  const { in_stock, coming_soon, sold } = summary.carsByStatus;
  console.log(`By status: in_stock ${in_stock}, coming_soon ${coming_soon}, sold ${sold}.`);
  console.log(
    `Photos: ${summary.imageRows} image rows over ${summary.photoFiles} files; ${summary.imagesWritten} written, ${summary.imagesSkipped} already present.`,
  );
  console.log(`Seeded in ${summary.seconds.toFixed(1)} s (${((performance.now() - started) / 1000).toFixed(1)} s including opening the database).`);
} finally {
  await handle.close();
}
