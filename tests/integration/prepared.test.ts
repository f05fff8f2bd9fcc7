import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db';
import { literal, queryPrepared } from '@/db/prepared';
import { useTestDatabase } from '../support/database';

/** Statements prepared once per connection and run with literals (src/db/prepared.ts). */
describe('prepared statements', () => {
  let db: Db;
  beforeAll(async () => {
    db = (await useTestDatabase()).db;
  });

  const preparedCount = async () =>
    Number((await queryPrepared<{ n: number }>(db, sql`select count(*)::int as n from pg_prepared_statements where name like 'stmt_%'`))[0].n);

  it('sends every value back unchanged, however hostile the text', async () => {
    const values = ["'; drop table websites; --", "it's", 'back\\slash\\', "\\'", 'E\'x\'', '$1', '$$ $tag$', 'ünïcødé 🚗', '', '   '];
    for (const value of values) {
      const [row] = await queryPrepared<{ v: string; n: number }>(db, sql`select ${value}::text as v, length(${value}::text) as n`);
      expect(row, value).toEqual({ v: value, n: [...value].length });
    }
    // The text that would drop the websites table was only ever a value: the table is still there.
    const [table] = await queryPrepared<{ exists: boolean }>(db, sql`select to_regclass('public.websites') is not null as exists`);
    expect(table.exists).toBe(true);
  });

  it('sends numbers, booleans, dates and nulls with their types', async () => {
    const when = new Date('2026-11-21T10:11:12.345Z');
    const [row] = await queryPrepared<{ n: number; neg: number; f: string; b: boolean; d: string; none: null }>(
      db,
      sql`select ${41}::int + 1 as n, ${-7}::int as neg, (${0.5}::numeric * 2)::text as f, ${true}::boolean as b,
        to_char(${when}::timestamptz at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') as d, ${null}::text as none`,
    );
    expect(row).toEqual({ n: 42, neg: -7, f: '1.0', b: true, d: '2026-11-21 10:11:12.345', none: null });
  });

  it('refuses values that cannot be written as a literal', () => {
    expect(() => literal('a\0b')).toThrow(/NUL/);
    expect(() => literal(Number.POSITIVE_INFINITY)).toThrow();
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal({ a: 1 })).toThrow();
    expect(literal("o'neil\\")).toBe("E'o''neil\\\\'");
  });

  it('prepares a statement once and reuses it with other values', async () => {
    const before = await preparedCount();
    for (let i = 0; i < 5; i++) {
      const [row] = await queryPrepared<{ twice: number }>(db, sql`select ${i}::int * 2 as twice`);
      expect(row.twice).toBe(i * 2);
    }
    expect(await preparedCount()).toBe(before + 1);
  });

  it('keeps at most 100 statements on a connection, dropping the least recently used', async () => {
    // PGlite has one connection; on a server, one client at a time is checked out here.
    for (let i = 0; i < 130; i++) await queryPrepared(db, sql`select ${i}::int as ${sql.identifier(`column_${i}`)}`);
    // Decision 019: at most 100 a connection; after 130 different statements, exactly 100 are kept.
    expect(await preparedCount()).toBe(100);
  });

  it('prepares again when the connection lost its statements', async () => {
    const query = sql`select ${'kept'}::text as word`;
    expect((await queryPrepared<{ word: string }>(db, query))[0].word).toBe('kept');
    await db.execute(sql`deallocate all`);
    expect((await queryPrepared<{ word: string }>(db, query))[0].word).toBe('kept');
  });

  it('uses a statement another copy of this module prepared on the connection (one per route bundle)', async () => {
    const query = sql`select ${'shared'}::text as word, ${7}::int as n`;
    expect((await queryPrepared<{ word: string }>(db, query))[0].word).toBe('shared');
    // What another copy of the module would see: nothing recorded, the statement still prepared.
    const state = globalThis as unknown as { __preparedStatements: WeakMap<object, Map<string, unknown>> };
    const client = (db as unknown as { $client: object }).$client;
    state.__preparedStatements.get(client)?.clear();
    const both = await Promise.all([queryPrepared<{ word: string }>(db, query), queryPrepared<{ word: string }>(db, query)]);
    expect(both.map(([row]) => row.word)).toEqual(['shared', 'shared']);
  });

  it('reports a bad statement as an error and does not keep it', async () => {
    await expect(queryPrepared(db, sql`select * from no_such_table where id = ${1}`)).rejects.toThrow(/no_such_table/);
    await expect(queryPrepared(db, sql`select * from no_such_table where id = ${1}`)).rejects.toThrow(/no_such_table/);
    expect((await queryPrepared<{ ok: number }>(db, sql`select ${1}::int as ok`))[0].ok).toBe(1);
  });
});
