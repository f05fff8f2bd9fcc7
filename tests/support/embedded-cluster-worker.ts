/**
 * A server process of tests/support/embedded-cluster-primary.mjs: reaches the embedded database the
 * way a Next server process of scripts/serve.mjs does (getDatabase(), so openDatabase() finds the
 * primary holding it), and runs what tests/integration/embedded-shared.test.ts asks over HTTP on
 * 127.0.0.1 (POST {action, ...arguments}; the answer is v8-serialized {value} or {error}, so Dates,
 * BigInts and Buffers arrive as they were).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import { sql } from 'drizzle-orm';
import { getDatabase } from '@/db';
import { queryPrepared } from '@/db/prepared';
import { rowsOf } from '@/db/rows';
import { websites } from '@/modules/tenancy/tenancy.schema';
import { currentGenerations } from '@/modules/tenancy/tenancy.generations';
import { describeError, typeRoundTrip } from './embedded-scenarios';

type Args = Record<string, unknown>;
type Respond = (answer: { value: unknown } | { error: unknown }) => void;

const handle = await getDatabase();
const { db } = handle;
const client = (db as unknown as { $client: { constructor: { name: string }; statementTag?: string } }).$client;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const actions: Record<string, (args: Args, respond: Respond) => Promise<unknown>> = {
  info: async () => ({ pid: process.pid, kind: handle.kind, client: client.constructor.name, statementTag: client.statementTag }),
  execute: async ({ text }) => rowsOf(await db.execute(sql.raw(String(text)))),
  /** Read, wait, write: a lost update unless the transactions run one after the other. */
  increment: ({ me, pauseMs }) =>
    db.transaction(async (tx) => {
      const [{ n }] = rowsOf<{ n: number }>(await tx.execute(sql`select n from counter where id = 1`));
      await tx.execute(sql`insert into steps (worker, step, xid) values (${me}, 'read', txid_current())`);
      await sleep(Number(pauseMs));
      await tx.execute(sql`update counter set n = ${n + 1} where id = 1`);
      await tx.execute(sql`insert into steps (worker, step, xid) values (${me}, 'wrote', txid_current())`);
      return n;
    }),
  /** Writes (one of them in a released savepoint), then throws. */
  'roll back': ({ me }) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'doomed')`);
      await tx.transaction(async (inner) => {
        await inner.execute(sql`insert into steps (worker, step) values (${me}, 'doomed in a savepoint')`);
      });
      await tx.execute(sql`update counter set n = n + 100 where id = 1`);
      throw new Error('changed my mind');
    }),
  /** A savepoint rolled back inside a transaction that commits. */
  'roll back a savepoint': ({ me }) =>
    db.transaction(async (tx) => {
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into steps (worker, step) values (${me}, 'inner, rolled back')`);
          throw new Error('not this part');
        })
        .catch(() => undefined);
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'outer, kept')`);
    }),
  /** drizzle's tx.rollback(). */
  'tx.rollback': ({ me }) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'before tx.rollback')`);
      tx.rollback();
    }),
  /** A statement that fails inside a transaction. */
  'fail inside': ({ me }) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'before a division by zero')`);
      await tx.execute(sql`select 1 / 0`);
    }),
  website: async ({ slug }) => db.insert(websites).values({ slug: String(slug), name: String(slug), config: {} }).returning({ id: websites.id }),
  /** Writes inside a transaction, answers, and never ends it: the test kills this process. */
  hold: ({ me }, respond) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'partial')`);
      respond({ value: 'holding' });
      await new Promise(() => {});
    }),
  /** The website's generations as this process keeps them (decision 055: told by the primary's notifications). */
  generations: ({ websiteId }) => currentGenerations(Number(websiteId)),
  /** Writes in a transaction, sends nothing for pauseMs, then writes again. */
  idle: ({ me, pauseMs }) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'before idling')`);
      await sleep(Number(pauseMs));
      await tx.execute(sql`insert into steps (worker, step) values (${me}, 'after idling')`);
    }),
  types: () => typeRoundTrip(db),
  prepared: ({ values }) => Promise.all((values as number[]).map((value) => queryPrepared<{ twice_shared: number }>(db, sql`select ${value}::int * 2 as twice_shared`))),
  /** `count` statements of distinct texts: more than a process keeps prepared. */
  'prepare many': async ({ count }) => {
    for (let i = 0; i < Number(count); i++) await queryPrepared(db, sql`select ${i}::int as ${sql.identifier(`many_${i}`)}`);
    return count;
  },
};

const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    let answered = false;
    const respond: Respond = (answer) => {
      if (answered) return;
      answered = true;
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(v8.serialize(answer));
    };
    const { action, ...args } = JSON.parse(body) as { action: string } & Args;
    const run = actions[action];
    if (!run) return respond({ error: { message: `no action ${action}` } });
    run(args, respond).then(
      (value) => respond({ value }),
      (error: unknown) => respond({ error: describeError(error) }),
    );
  });
});
// Its own port (exclusive: not shared through the cluster primary), so the test can pick the process.
server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
  process.send!({ testWorker: { pid: process.pid, port: (server.address() as AddressInfo).port } });
});
