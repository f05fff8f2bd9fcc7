import 'server-only';
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { logger } from '@/lib/logger';
import { openDatabase } from './client';
import { SERVER_TIMEOUTS } from './client';
import { CHANNEL, HOST_ENV, NOTIFIED_CHANNELS, errorToWire, statementTag, type Notification, type Request, type Response, type WireError, type WireOptions } from './embedded-wire';
import { databaseOptions } from './index';
import { statementNamePrefix } from './prepared';

/**
 * The cluster primary's side of the embedded database shared by server processes (decision 046).
 * PGlite is a database in one process: the primary opens it (data-dir lock, pg_trgm, migrations,
 * session settings: openDatabase) and runs the statements its server processes send over the
 * cluster's IPC channel (src/db/embedded-client.ts). It runs nothing else.
 *
 * PGlite has one session. A process's transaction holds it from BEGIN until that process commits or
 * rolls back: PGlite's own transaction() makes every other statement wait, and the transaction's
 * statements reach it by their transaction id. A process that ends with a transaction open (killed,
 * crashed) has it rolled back at once, and its prepared statements are dropped.
 */

export type EmbeddedDatabaseHost = {
  /** To add to the environment of each server process forked after this. */
  workerEnv: Record<string, string>;
  /** Rolls back what is still open and closes the database (after the server processes have ended). */
  close: () => Promise<void>;
};

/** Ends a transaction without COMMIT: asked for by its process, or its process has gone. */
class RolledBack extends Error {}

type OpenTransaction = {
  worker: Worker;
  /** Set once BEGIN has run: the transaction holds the database. */
  tx?: Transaction;
  /** Resolving it commits, rejecting it rolls back. */
  end: { resolve: () => void; reject: (reason: RolledBack) => void };
  /** Settles after COMMIT or ROLLBACK. */
  done: Promise<void>;
  /** Rolls the transaction back when its process sends nothing for idleInTransactionMs (decision 055). */
  idle?: NodeJS.Timeout;
};

/** SQLSTATE 25P03, as PostgreSQL's idle_in_transaction_session_timeout: isDatabaseUnavailable() reads it as 'try again'. */
const IDLE_IN_TRANSACTION = 'terminating transaction due to idle-in-transaction timeout';

type Statement = Extract<Request, { op: 'query' | 'exec' }>;

const keepText = (value: string) => value;
const parsersOf = new Map<string, QueryOptions['parsers']>();

function queryOptions(wire: WireOptions | undefined): QueryOptions | undefined {
  if (!wire) return undefined;
  let parsers: QueryOptions['parsers'];
  if (wire.rawTypes?.length) {
    const key = wire.rawTypes.join(',');
    parsers = parsersOf.get(key);
    if (!parsers) parsersOf.set(key, (parsers = Object.fromEntries(wire.rawTypes.map((type) => [type, keepText]))));
  }
  return { rowMode: wire.rowMode, paramTypes: wire.paramTypes, parsers };
}

/** A result as it crosses the channel: a COPY's blob (unused here) cannot. */
function sendable(result: Results<unknown> | Results<unknown>[]): unknown {
  const strip = (one: Results<unknown>) => {
    if (!one.blob) return one;
    const { blob: _blob, ...rest } = one;
    return rest;
  };
  return Array.isArray(result) ? result.map(strip) : strip(result);
}

export async function hostEmbeddedDatabase(dataDir = databaseOptions().dataDir): Promise<EmbeddedDatabaseHost> {
  if (!cluster.isPrimary) throw new Error('hostEmbeddedDatabase runs in the cluster primary');
  const handle = await openDatabase({ dataDir });
  const pg = (handle.db as unknown as { $client: PGlite }).$client;
  cluster.setupPrimary({ serialization: 'advanced' });

  const transactions = new Map<string, OpenTransaction>();
  /** Transactions rolled back for idling, until their process asks about them again. */
  const timedOut = new Set<string>();
  const { idleInTransactionMs } = SERVER_TIMEOUTS;
  const idleFrom = (key: string, open: OpenTransaction) => {
    clearTimeout(open.idle);
    open.idle = setTimeout(() => {
      if (transactions.get(key) !== open) return;
      timedOut.add(key);
      logger.warn({ pid: open.worker.process.pid, idleInTransactionMs }, 'a server process left its transaction idle: rolled back');
      open.end.reject(new RolledBack(IDLE_IN_TRANSACTION));
    }, idleInTransactionMs);
  };
  const keyOf = (worker: Worker, request: Request & { tx?: number }) => `${worker.id}/${request.client}/${request.tx}`;
  const ended = new Set<number>();
  let closing = false;

  const answer = (worker: Worker, request: Request, body: { result: unknown } | { error: WireError }) => {
    if (!worker.isConnected()) return;
    const head = { channel: CHANNEL, client: request.client, id: request.id } as const;
    const ignore = () => undefined;
    try {
      worker.send({ ...head, ...body } satisfies Response, undefined, undefined, ignore);
    } catch (error) {
      // A value the channel cannot carry: the caller gets the reason instead of waiting forever.
      worker.send({ ...head, error: errorToWire(error) } satisfies Response, undefined, undefined, ignore);
    }
  };
  const refuse = (worker: Worker, request: Request, message: string) => answer(worker, request, { error: errorToWire(new Error(message)) });
  /** A statement, COMMIT or ROLLBACK for a transaction that is not open: 25P03 when it was rolled back for idling. */
  const closedTransaction = (worker: Worker, request: Request & { tx?: number }) => {
    const key = keyOf(worker, request);
    if (!timedOut.has(key)) return refuse(worker, request, 'Transaction is closed');
    if (request.op === 'commit' || request.op === 'rollback') timedOut.delete(key);
    if (request.op === 'rollback') return answer(worker, request, { result: null });
    answer(worker, request, { error: errorToWire(Object.assign(new Error(IDLE_IN_TRANSACTION), { code: '25P03' })) });
  };

  const statement = (worker: Worker, request: Statement) => {
    const key = keyOf(worker, request);
    const open = request.tx === undefined ? undefined : transactions.get(key);
    const target = request.tx === undefined ? pg : open?.tx;
    if (!target) return closedTransaction(worker, request);
    if (open) clearTimeout(open.idle);
    const options = queryOptions(request.options);
    const running = request.op === 'query' ? target.query(request.text, request.params, options) : target.exec(request.text, options);
    running
      .then(
        (result) => answer(worker, request, { result: sendable(result) }),
        (error: unknown) => answer(worker, request, { error: errorToWire(error) }),
      )
      .finally(() => {
        if (open && transactions.get(key) === open) idleFrom(key, open);
      });
  };

  const begin = (worker: Worker, request: Request & { tx: number }) => {
    const key = keyOf(worker, request);
    if (transactions.has(key)) return refuse(worker, request, 'Transaction already open');
    let end!: OpenTransaction['end'];
    const ending = new Promise<void>((resolve, reject) => (end = { resolve, reject }));
    // Rejected before anyone awaits it when the process ends while BEGIN still waits its turn.
    ending.catch(() => undefined);
    const open: OpenTransaction = { worker, end, done: Promise.resolve() };
    transactions.set(key, open);
    open.done = pg.transaction(async (tx) => {
      open.tx = tx;
      answer(worker, request, { result: null });
      idleFrom(key, open);
      await ending;
    });
    open.done
      .then(
        () => undefined,
        (error: unknown) => {
          if (!open.tx) answer(worker, request, { error: errorToWire(error) });
        },
      )
      .finally(() => {
        clearTimeout(open.idle);
        transactions.delete(key);
      });
  };

  const finish = (worker: Worker, request: Request & { tx: number }, commit: boolean) => {
    const open = transactions.get(keyOf(worker, request));
    // A ROLLBACK while BEGIN still waits its turn (the process gave up waiting): dropped when it comes.
    if (open && !open.tx && !commit) {
      open.end.reject(new RolledBack('rolled back before it began'));
      return answer(worker, request, { result: null });
    }
    if (!open?.tx) return closedTransaction(worker, request);
    clearTimeout(open.idle);
    if (commit) open.end.resolve();
    else open.end.reject(new RolledBack('rolled back'));
    open.done.then(
      () => answer(worker, request, { result: null }),
      (error: unknown) => answer(worker, request, error instanceof RolledBack ? { result: null } : { error: errorToWire(error) }),
    );
  };

  const onMessage = (worker: Worker, message: unknown) => {
    const request = message as Request | null;
    if (request?.channel !== CHANNEL) return;
    if (closing) return refuse(worker, request, 'The embedded database is closing');
    switch (request.op) {
      case 'query':
      case 'exec':
        return statement(worker, request);
      case 'begin':
        return begin(worker, request);
      case 'commit':
      case 'rollback':
        return finish(worker, request, request.op === 'commit');
      default:
        return refuse(worker, request, `unknown request ${(request as { op?: unknown }).op}`);
    }
  };

  // A process that has gone cannot commit: what it left open is rolled back now, so the others
  // go on, and the statements it prepared are dropped.
  const onGone = (worker: Worker) => {
    if (ended.has(worker.id)) return;
    ended.add(worker.id);
    let rolledBack = 0;
    for (const open of transactions.values()) {
      if (open.worker !== worker) continue;
      open.end.reject(new RolledBack(`server process ${worker.process.pid} ended`));
      rolledBack++;
    }
    if (rolledBack > 0) logger.warn({ pid: worker.process.pid, transactions: rolledBack }, 'a server process ended inside a transaction: rolled back');
    void dropStatements(worker.id);
  };

  const dropStatements = async (workerId: number) => {
    try {
      const { rows } = await pg.query<{ name: string }>('select name from pg_prepared_statements where starts_with(name, $1)', [statementNamePrefix(statementTag(workerId))]);
      if (rows.length > 0) await pg.exec(rows.map(({ name }) => `DEALLOCATE "${name}";`).join('\n'));
    } catch (error) {
      logger.warn({ err: error, workerId }, 'could not drop the prepared statements of an ended server process');
    }
  };

  // The database's notifications (the website generations) go to every server process (decision 055).
  const unlisten = await Promise.all(
    NOTIFIED_CHANNELS.map((channel) =>
      pg.listen(channel, (payload) => {
        const message: Notification = { channel: CHANNEL, notification: { channel, payload } };
        for (const worker of Object.values(cluster.workers ?? {})) {
          if (worker?.isConnected()) worker.send(message, undefined, undefined, () => undefined);
        }
      }),
    ),
  );

  cluster.on('message', onMessage);
  cluster.on('disconnect', onGone);
  cluster.on('exit', onGone);

  return {
    workerEnv: { [HOST_ENV]: path.resolve(dataDir) },
    close: async () => {
      if (closing) return;
      closing = true;
      await Promise.all(unlisten.map((stop) => stop()));
      cluster.off('message', onMessage);
      cluster.off('disconnect', onGone);
      cluster.off('exit', onGone);
      const open = [...transactions.values()];
      for (const one of open) one.end.reject(new RolledBack('the server is stopping'));
      await Promise.allSettled(open.map((one) => one.done));
      await handle.close();
    },
  };
}
