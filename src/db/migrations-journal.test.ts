import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Drizzle's migrator applies only the migrations whose journal time is later than the last one a
 * database applied. drizzle-kit stamps a new migration with the clock, and earlier entries here were
 * stamped ahead of it: a new entry stamped earlier would be applied to a new database and silently
 * skipped by every existing one (found with migration 0024).
 */
describe('the migrations journal', () => {
  const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'drizzle', 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number; when: number; tag: string }[];
  };

  it('stamps every migration later than the one before it, in file order', () => {
    const { entries } = journal;
    expect(entries.length).toBeGreaterThan(1);
    for (let i = 1; i < entries.length; i++) {
      expect(entries[i].idx, entries[i].tag).toBe(i);
      expect(entries[i].when, `${entries[i].tag} must be stamped after ${entries[i - 1].tag}`).toBeGreaterThan(entries[i - 1].when);
    }
  });

  it('has a SQL file for every entry, and an entry for every SQL file', () => {
    const files = fs.readdirSync(path.join(process.cwd(), 'drizzle')).filter((name) => name.endsWith('.sql')).sort();
    expect(files).toEqual(journal.entries.map((entry) => `${entry.tag}.sql`));
  });
});
