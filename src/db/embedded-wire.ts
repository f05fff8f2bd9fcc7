import 'server-only';
import { messages, TransactionAbortedError } from '@electric-sql/pglite';

/**
 * What the server processes and the cluster primary that holds the embedded database say to each
 * other over the cluster's IPC channel (decision 046): src/db/embedded-client.ts sends statements,
 * src/db/embedded-host.ts runs them on the one PGlite and answers. The channel uses Node's
 * 'advanced' serialization, so Dates, BigInts, Buffers and Uint8Arrays arrive as they were sent.
 */

/** Marks this channel's messages among the others on the process's IPC channel. */
export const CHANNEL = 'embedded-db';

/**
 * Set by the primary in its server processes' environment: the data directory (resolved) it holds
 * for them. openDatabase() in such a process asks the primary instead of opening that directory.
 */
export const HOST_ENV = 'EMBEDDED_DATABASE_HOST';

/**
 * What PGlite's query options become on the channel. Parsers are functions, which cannot cross it:
 * the primary leaves the values of `rawTypes` (the type ids the caller has parsers for) as the
 * text PostgreSQL sent, and the caller's parsers run on them in its own process.
 */
export type WireOptions = { rowMode?: 'array' | 'object'; rawTypes?: number[]; paramTypes?: number[] };

export type Request = { channel: typeof CHANNEL; client: string; id: number } & (
  | { op: 'query'; tx?: number; text: string; params: unknown[]; options?: WireOptions }
  | { op: 'exec'; tx?: number; text: string; options?: WireOptions }
  /** begin answers once the transaction holds the database; commit and rollback when it has ended. */
  | { op: 'begin' | 'commit' | 'rollback'; tx: number }
);

/**
 * A NOTIFY the primary heard on its PGlite, passed on to every server process (decision 055): the
 * channels it listens on are NOTIFIED_CHANNELS.
 */
export type Notification = { channel: typeof CHANNEL; notification: { channel: string; payload: string } };

/** The database's notification channels the primary passes on (drizzle/0017: the website generations). */
export const NOTIFIED_CHANNELS = ['generations'] as const;

export type Response = { channel: typeof CHANNEL; client: string; id: number } & ({ result: unknown } | { error: WireError });

/**
 * An error as it crosses the channel: its PGlite class (a PostgreSQL error, a COMMIT that rolled
 * back, or another error) and PostgreSQL's fields, so callers see what they would in-process.
 */
export type WireError = { message: string; name: string; kind: 'database' | 'aborted' | 'other'; fields: Record<string, string | number> };

/** The fields of a PostgreSQL error (PGlite's DatabaseError, as node-postgres names them). */
const ERROR_FIELDS = [
  'length',
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
  // The statement PGlite adds (the caller adds its parameters back itself).
  'query',
] as const;

export function errorToWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', kind: 'other', fields: {} };
  const fields: Record<string, string | number> = {};
  const source = error as unknown as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    const value = source[key];
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  const kind = error instanceof TransactionAbortedError ? 'aborted' : error instanceof messages.DatabaseError ? 'database' : 'other';
  return { message: error.message, name: error.name, kind, fields };
}

/**
 * The statement-name tag of server process `workerId` (cluster worker id, unique while the primary
 * runs): its prepared statements on the shared session are named with it (src/db/prepared.ts), so
 * no process deallocates another's, and the primary drops a dead process's statements.
 */
export const statementTag = (workerId: number) => `w${workerId}_`;
