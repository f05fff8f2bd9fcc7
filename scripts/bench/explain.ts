// EXPLAIN (ANALYZE, BUFFERS) of the SQL statements SqlSearchEngine runs for bench:search query kinds
// when it counts in SQL (the stock index turned off),
// on the bench database at DATABASE_URL (made by `npm run bench:search`; any other is refused).
//   DATABASE_URL=postgres://…/bench_search npx tsx --conditions=react-server scripts/bench/explain.ts 'all websites|3 filters' ['one website|text' …]
// A pattern matches `{scope}|{kind}` as a substring. SHOW_SQL=1 prints each statement and its parameters too.
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openDatabase, SESSION_SETTINGS, type Db } from '../../src/db/client';
import { SqlSearchEngine } from '../../src/modules/stock/search/sql-search-engine';
import { BENCH_NOW } from './generate-stock';
import { selectRows } from './load';
import { queryKinds, scopeFor } from './queries';

const url = process.env.DATABASE_URL;
const patterns = process.argv.slice(2);
if (!url || patterns.length === 0) {
  console.error("usage: DATABASE_URL=postgres://…/bench_search tsx --conditions=react-server scripts/bench/explain.ts '<scope>|<kind>' …");
  process.exit(2);
}

const client = new pg.Client({ connectionString: url });
await client.connect();
// The settings the application's connections have (word similarity threshold, work_mem), so the plans are theirs.
for (const [name, value] of Object.entries(SESSION_SETTINGS)) await client.query(`set ${name} = '${value}'`);
const marked = await client.query<{ present: boolean }>("select to_regclass('public.bench_meta') is not null as present");
if (!marked.rows[0]?.present) {
  console.error('Refusing: DATABASE_URL is not a bench:search database (no bench_meta table).');
  process.exit(2);
}

const handle = await openDatabase({ url });
const dialect = new PgDialect();
let captured: Array<{ sql: string; params: unknown[] }> = [];
// Records every statement the engine passes to execute() (inserts through the query builder are not seen).
const recording = new Proxy(handle.db, {
  get(target, property, receiver) {
    if (property === 'execute') {
      return (query: SQL) => {
        captured.push(dialect.sqlToQuery(query));
        return target.execute(query);
      };
    }
    return Reflect.get(target, property, receiver);
  },
}) as Db;

const ids = (await selectRows<{ id: number }>(handle.db, sql`select id from websites order by id`)).map((r) => Number(r.id));
const [stock] = await selectRows<{ stocknum: string }>(handle.db, sql`select stocknum from cars where website_id = ${ids[0]} and status = 'in_stock' and show_on_dealer_website order by id limit 1`);
const stockChange = async (i: number) => {
  const websiteId = ids[i % ids.length];
  await client.query('begin');
  await client.query('update cars set price = price # 1, updated_at = now() where id = (select min(id) from cars where website_id = $1)', [websiteId]);
  await client.query('update websites set stock_version = stock_version + 1 where id = $1', [websiteId]);
  await client.query('commit');
};
// The SQL statements: without the stock index (decision 020), which counts in the process instead.
const engine = new SqlSearchEngine(recording, { prepared: false, stockIndexCars: 0 });

for (const kind of queryKinds(() => stock?.stocknum ?? '', stockChange)) {
  for (const scope of ['one website', 'all websites'] as const) {
    const key = `${scope}|${kind.name}`;
    if (!patterns.some((p) => key.includes(p))) continue;
    await kind.prepare?.(0);
    captured = [];
    const started = performance.now();
    await engine.search(scopeFor(scope, ids, 0, BENCH_NOW), kind.request(0));
    console.log(`===== ${key}: ${captured.length} statement(s), ${(performance.now() - started).toFixed(1)} ms in search()`);
    for (const statement of captured) {
      if (!/^\s*(with|select)\b/i.test(statement.sql)) {
        console.log(`-- (not explained, writes) ${statement.sql.slice(0, 100)}…`);
        continue;
      }
      if (process.env.SHOW_SQL) console.log(`-- SQL:\n${statement.sql}\n-- params: ${JSON.stringify(statement.params)}`);
      const plan = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${statement.sql}`, statement.params);
      console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
  }
}
await client.end();
await handle.close();
