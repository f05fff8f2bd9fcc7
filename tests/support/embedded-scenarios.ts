import { messages } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { bigint, boolean, customType, date, doublePrecision, integer, interval, json, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Db } from '@/db';
import { rowsOf } from '@/db/rows';

/**
 * What tests/integration/embedded-shared.test.ts runs both in a server process that reaches the
 * embedded database through the cluster primary and on an in-process PGlite, to compare.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const probes = pgTable('type_probes', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }),
  local: timestamp('local', { mode: 'date' }),
  day: date('day', { mode: 'date' }),
  dayText: date('day_text'),
  span: interval('span'),
  doc: json('doc'),
  docb: jsonb('docb'),
  blob: bytea('blob'),
  amount: numeric('amount'),
  big: bigint('big', { mode: 'bigint' }),
  bigNumber: bigint('big_number', { mode: 'number' }),
  ratio: doublePrecision('ratio'),
  flag: boolean('flag'),
  words: text('words').array(),
  numbers: integer('numbers').array(),
  times: timestamp('times', { withTimezone: true, mode: 'date' }).array(),
  amounts: numeric('amounts').array(),
  nothing: text('nothing'),
  key: uuid('key'),
});

const CREATE = `create table if not exists type_probes (
  id integer primary key, at timestamptz, at_text timestamptz, local timestamp, day date, day_text date, span interval,
  doc json, docb jsonb, blob bytea, amount numeric, big int8, big_number int8, ratio float8, flag boolean,
  words text[], numbers integer[], times timestamptz[], amounts numeric[], nothing text, key uuid)`;

const FULL = {
  id: 1,
  at: new Date('2026-03-04T05:06:07.089Z'),
  atText: '2026-03-04 05:06:07.089+00',
  local: new Date('2026-03-04T05:06:07.000Z'),
  day: new Date('2026-03-04T00:00:00.000Z'),
  dayText: '2026-03-04',
  span: '1 day 02:03:04',
  doc: { a: [1, 'two', null], nested: { b: true }, text: 'ünïcødé 🚗' },
  docb: { z: 1, a: [2.5, false] },
  blob: Buffer.from([0, 1, 2, 127, 128, 255]),
  amount: '12345678901234567890.123',
  big: 9007199254740993n,
  bigNumber: 42,
  ratio: 0.1,
  flag: true,
  words: ['a', 'b,c', 'd"e', "f'g", ''],
  numbers: [1, -2, 3],
  times: [new Date('2026-01-01T00:00:00.000Z'), new Date('2026-12-31T23:59:59.999Z')],
  amounts: ['1.5', '2.25'],
  nothing: null,
  key: '3f0e7a52-7b1c-4d7e-9a55-1d2c3b4a5f60',
};

/**
 * Writes a row of every column type the platform uses (and a row of nulls), then reads them back
 * every way the code base does: drizzle selects (array rows mapped by column), db.execute (object
 * rows, drizzle's parsers), the client's own query and exec (PGlite's parsers), a returning insert,
 * and inside a transaction; also parameters of each type.
 */
export async function typeRoundTrip(db: Db) {
  const client = (db as unknown as { $client: { query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>; exec: (text: string) => Promise<{ rows: unknown[] }[]> } }).$client;
  await db.execute(sql.raw(CREATE));
  await db.execute(sql`delete from type_probes`);
  const returning = await db.insert(probes).values([FULL, { id: 2 }]).returning();
  const select = await db.select().from(probes).orderBy(asc(probes.id));
  const execute = rowsOf(await db.execute(sql`select * from type_probes order by id`));
  const query = (await client.query('select * from type_probes order by id')).rows;
  const exec = (await client.exec('select * from type_probes order by id; select count(*)::int as n, sum(big) as total from type_probes')).map((result) => result.rows);
  const inTransaction = await db.transaction(async (tx) => tx.select().from(probes).orderBy(asc(probes.id)));
  const parameters = rowsOf(
    await db.execute(sql`select ${FULL.at}::timestamptz as at, ${FULL.blob}::bytea as blob, ${FULL.big}::int8 as big, ${JSON.stringify(FULL.doc)}::jsonb as doc,
      ${FULL.amount}::numeric as amount, ${null}::text as nothing, ${true}::boolean as flag, ${'{1,2}'}::int[] as numbers,
      ${FULL.at}::timestamptz = ${FULL.at.toISOString()}::timestamptz as same_instant`),
  );
  return { returning, select, execute, query, exec, inTransaction, parameters };
}

/** The kind of every value, nested (Date, Buffer, Uint8Array, bigint…): what toEqual may not tell apart. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value !== 'object') return typeof value;
  const name = (value as object).constructor?.name ?? 'Object';
  if (name !== 'Object') return name;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, shapeOf(inner)]));
}

/** An error as the test compares it: PostgreSQL's fields, its class, and its cause's. */
export function describeError(error: unknown): Record<string, unknown> | null {
  if (!(error instanceof Error)) return error === undefined ? null : { value: String(error) };
  const fields = error as unknown as Record<string, unknown>;
  const described: Record<string, unknown> = { class: error instanceof messages.DatabaseError ? 'DatabaseError' : error.constructor.name, name: error.name, message: error.message };
  for (const key of ['code', 'severity', 'detail', 'hint', 'constraint', 'table', 'schema', 'column', 'routine', 'query']) {
    if (fields[key] !== undefined) described[key] = fields[key];
  }
  if (error.cause !== undefined) described.cause = describeError(error.cause);
  return described;
}
