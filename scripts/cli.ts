// What the operator commands (apikey:create, leads:retry, leads:webhook) share: their options read
// or the usage printed (exit 2), and the database opened once, for the modules' getDb() too.
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { databaseOptions } from '../src/db';

/** The string options `names`; an unknown option, or arguments `valid` refuses: the usage on stderr and exit 2. */
export function stringOptions<K extends string>(names: readonly K[], usage: string, valid: (args: Partial<Record<K, string>>) => boolean): Partial<Record<K, string>> {
  let args: Partial<Record<K, string>>;
  try {
    args = parseArgs({ options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])) }).values as Partial<Record<K, string>>;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  if (!valid(args)) {
    console.error(usage);
    process.exit(2);
  }
  return args;
}

/**
 * Runs `work` with the database open (the modules reach it through getDb(): this handle rather than
 * a second one), closes it, and exits with the code `work` answers.
 */
export async function withDatabase(work: (handle: DatabaseHandle) => Promise<number>): Promise<never> {
  const handle = await openDatabase(databaseOptions());
  (globalThis as unknown as { __dbHandle?: Promise<DatabaseHandle> }).__dbHandle = Promise.resolve(handle);
  let exitCode: number;
  try {
    exitCode = await work(handle);
  } finally {
    await handle.close();
  }
  process.exit(exitCode);
}
