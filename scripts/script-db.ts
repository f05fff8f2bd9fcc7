import path from 'node:path';

/** The database the command-line scripts open: the same choice the server makes. */
export function scriptDatabaseOptions() {
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  return { url: process.env.DATABASE_URL, dataDir: path.join(dataDir, 'pglite') };
}
