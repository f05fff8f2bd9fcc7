import 'server-only';
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { messages, TransactionAbortedError, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import type { DatabaseTimeouts } from './client';
import { CHANNEL, statementTag, type Notification, type Request, type Response, type WireError, type WireOptions } from './embedded-wire';

/**
 * The embedded database as a server process started by scripts/serve.mjs sees it when several
 * share it (decision 046): the cluster primary holds the one PGlite (src/db/embedded-host.ts) and
 * this client sends it statements over the cluster's IPC channel. It answers what drizzle-orm/pglite
 * and src/db/prepared.ts use of a PGlite (query, exec, transaction, close), with the same results
 * and errors.
 */

type Parser = (value: string, typeId?: number) => unknown;
type Parsers = Partial<Record<number, Parser>>;
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer?: NodeJS.Timeout };
type Outgoing = Request extends infer R ? (R extends Request ? Omit<R, 'channel' | 'client' | 'id'> : never) : never;
/** What drizzle-orm/pglite uses of a transaction. */
export type EmbeddedTransaction = Pick<Transaction, 'query' | 'exec' | 'rollback' | 'closed'>;

/** SQLSTATE 08006 (connection failure): isDatabaseUnavailable() reads it as 'try again shortly'. */
function unreachable(reason: string): Error {
  return Object.assign(new Error(`The embedded database cannot be reached: ${reason}`), { code: '08006' });
}

/** SQLSTATE 57014, as PostgreSQL's statement_timeout: isDatabaseUnavailable() reads it as 'try again shortly'. */
function notAnswered(ms: number): Error {
  return Object.assign(new Error(`canceling statement due to statement timeout: the embedded database did not answer within ${ms} ms`), { code: '57014' });
}

function errorFromWire(wire: WireError): Error {
  const error =
    wire.kind === 'aborted'
      ? new TransactionAbortedError()
      : wire.kind === 'database'
        ? new messages.DatabaseError(wire.message, Number(wire.fields.length ?? 0), 'error')
        : Object.assign(new Error(wire.message), wire.name === 'Error' ? {} : { name: wire.name });
  for (const [key, value] of Object.entries(wire.fields)) if (key !== 'length') (error as unknown as Record<string, unknown>)[key] = value;
  return error;
}

const UNSENDABLE_OPTIONS = ['serializers', 'blob', 'onNotice'] as const;
const wireOptionsOf = new WeakMap<QueryOptions, WireOptions>();

function toWire(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  let wire = wireOptionsOf.get(options);
  if (!wire) {
    for (const key of UNSENDABLE_OPTIONS) {
      if (options[key] !== undefined) throw new TypeError(`the query option '${key}' cannot be sent to the process that holds the embedded database`);
    }
    wire = { rowMode: options.rowMode, paramTypes: options.paramTypes, rawTypes: options.parsers ? Object.keys(options.parsers).map(Number) : undefined };
    wireOptionsOf.set(options, wire);
  }
  return wire;
}

/** Runs the caller's parsers on the columns the primary left as text, as PGlite would have in-process. */
function parse<T>(result: Results<T>, options: QueryOptions | undefined): Results<T> {
  const parsers = options?.parsers as Parsers | undefined;
  if (!parsers || result.rows.length === 0 || !result.fields) return result;
  const rows = result.rows as unknown as Record<string | number, unknown>[];
  // Object rows keep the last column of a name (as PGlite builds them): its type's parser applies.
  const columns = new Map<string | number, { type: number; parser: Parser }>();
  result.fields.forEach((field, index) => {
    const key = options?.rowMode === 'array' ? index : field.name;
    const parser = parsers[field.dataTypeID];
    if (parser) columns.set(key, { type: field.dataTypeID, parser });
    else columns.delete(key);
  });
  if (columns.size === 0) return result;
  for (const row of rows) {
    for (const [key, { type, parser }] of columns) {
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = parser(value as string, type);
    }
  }
  return result;
}

export class EmbeddedDatabaseClient {
  /** Names this process's prepared statements on the shared session (src/db/prepared.ts). */
  readonly statementTag: string;
  private readonly id = randomUUID();
  private readonly pending = new Map<number, Pending>();
  private lastRequest = 0;
  private lastTransaction = 0;
  private closedBecause: string | null = null;
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly onMessage = (message: unknown) => {
    const notification = (message as Partial<Notification> | null)?.notification;
    if (notification && (message as Notification).channel === CHANNEL) {
      for (const listener of this.listeners.get(notification.channel) ?? []) listener(notification.payload);
      return;
    }
    const response = message as Partial<Response> | null;
    if (response?.channel !== CHANNEL || response.client !== this.id || response.id === undefined) return;
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    clearTimeout(waiting.timer);
    if ('error' in response && response.error) waiting.reject(errorFromWire(response.error));
    else waiting.resolve((response as { result: unknown }).result);
  };
  private readonly onDisconnect = () => this.shutDown('the server process that holds it has ended');

  /**
   * timeouts.readMs bounds every answer (decision 055): a statement queued behind another
   * process's long transaction, or a primary that has stopped answering, costs a request that long
   * and an error isDatabaseUnavailable() reads as 'try again', not the whole wait.
   */
  constructor(private readonly timeouts?: DatabaseTimeouts) {
    if (!cluster.isWorker || typeof process.send !== 'function') throw new Error('The embedded database is held by another process only for the server processes that scripts/serve.mjs starts');
    this.statementTag = statementTag(cluster.worker!.id);
    process.on('message', this.onMessage);
    process.once('disconnect', this.onDisconnect);
  }

  query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.statement<T>('query', undefined, text, params, options) as Promise<Results<T>>;
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.statement('exec', undefined, text, undefined, options) as Promise<Results[]>;
  }

  /**
   * Runs `callback` in a transaction that holds the database in the primary from BEGIN to its
   * COMMIT or ROLLBACK: other processes' statements wait meanwhile, as they would for a
   * transaction of PGlite's in-process. Commits when the callback resolves, rolls back when it throws.
   */
  async transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const tx = ++this.lastTransaction;
    try {
      await this.send({ op: 'begin', tx });
    } catch (error) {
      // BEGIN not answered in time: the primary drops it instead of holding the database for nobody.
      this.send({ op: 'rollback', tx }).catch(() => undefined);
      throw error;
    }
    let closed = false;
    const ensureOpen = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const transaction: EmbeddedTransaction = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        ensureOpen();
        return (await this.statement<R>('query', tx, text, params ?? [], options)) as Results<R>;
      },
      exec: async (text: string, options?: QueryOptions) => {
        ensureOpen();
        return (await this.statement('exec', tx, text, undefined, options)) as Results[];
      },
      rollback: async () => {
        ensureOpen();
        await this.send({ op: 'rollback', tx });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    try {
      const result = await callback(transaction);
      if (!closed) {
        closed = true;
        await this.send({ op: 'commit', tx });
      }
      return result;
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.send({ op: 'rollback', tx });
      }
      throw error;
    }
  }

  /** The database's notifications on `channel`, which the primary passes on to every server process (NOTIFIED_CHANNELS). */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => void> {
    let listeners = this.listeners.get(channel);
    if (!listeners) this.listeners.set(channel, (listeners = new Set()));
    listeners.add(callback);
    return () => void listeners.delete(callback);
  }

  /** Stops this client (the database stays open in the primary for the other processes). */
  async close(): Promise<void> {
    this.shutDown('this process closed it');
  }

  private async statement<T>(op: 'query' | 'exec', tx: number | undefined, text: string, params: unknown[] | undefined, options: QueryOptions | undefined) {
    const wire = toWire(options);
    try {
      const result = await this.send(op === 'query' ? { op, tx, text, params: params ?? [], options: wire } : { op, tx, text, options: wire });
      return op === 'query' ? parse(result as Results<T>, options) : (result as Results[]).map((one) => parse(one, options));
    } catch (error) {
      // What PGlite adds to a PostgreSQL error in-process.
      if (error instanceof messages.DatabaseError) Object.assign(error, { query: text, params, queryOptions: options });
      throw error;
    }
  }

  private send(request: Outgoing): Promise<unknown> {
    if (this.closedBecause) return Promise.reject(unreachable(this.closedBecause));
    const id = ++this.lastRequest;
    return new Promise((resolve, reject) => {
      const readMs = this.timeouts?.readMs;
      const timer =
        readMs === undefined
          ? undefined
          : setTimeout(() => {
              if (this.pending.delete(id)) reject(notAnswered(readMs));
            }, readMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        process.send!({ channel: CHANNEL, client: this.id, id, ...request }, undefined, undefined, (error: Error | null) => {
          if (error && this.pending.delete(id)) {
            clearTimeout(timer);
            reject(unreachable(error.message));
          }
        });
      } catch (error) {
        // A value the channel cannot carry (a function, a symbol): refused as PGlite would refuse it.
        this.pending.delete(id);
        clearTimeout(timer);
        reject(error);
      }
    });
  }

  private shutDown(reason: string) {
    if (this.closedBecause) return;
    this.closedBecause = reason;
    process.off('message', this.onMessage);
    process.off('disconnect', this.onDisconnect);
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(unreachable(reason));
    }
    this.pending.clear();
  }
}
