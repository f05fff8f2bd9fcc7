import { logger } from '@/lib/logger';
import { noteDatabaseAnswered, noteDatabaseUnavailable } from './health';

/**
 * PostgreSQL's LISTEN/NOTIFY as the application sees it, whichever database runs (decision 055):
 * `notify` for each payload announced on the channel, `listening(true)` once notifications flow
 * and `listening(false)` when they may have stopped (the connection dropped or stopped answering),
 * so the listener can fall back to polling until they flow again; `closed` once the database
 * handle is closed (nothing follows it).
 */
export type NotificationEvents = { notify: (payload: string) => void; listening: (up: boolean) => void; closed: () => void };
export type Subscription = { close: () => Promise<void> };

/** How often the listening connection proves it still answers, and how long it may take. */
export const LISTEN_HEARTBEAT_MS = 1_000;
/** Wait before connecting again after the listening connection was lost. */
export const LISTEN_RETRY_MS = 1_000;

/**
 * A connection of its own on a PostgreSQL server (not one of the pool's: LISTEN belongs to a
 * session), connected again whenever it is lost. A stalled connection delivers no error, so it
 * runs `select 1` every LISTEN_HEARTBEAT_MS and counts an answer later than that as lost.
 */
export function listenOnServer(url: string, channel: string, events: NotificationEvents, connectMs: number): Subscription {
  let closed = false;
  let current: import('pg').Client | null = null;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: import('pg').Client, error?: unknown) => {
    if (client !== current) return;
    current = null;
    clearInterval(heartbeat);
    // Closes the socket at once: end() would wait for a stalled server to answer.
    (client as unknown as { connection?: { stream?: { destroy: () => void } } }).connection?.stream?.destroy();
    client.end().catch(() => undefined);
    if (!closed) {
      events.listening(false);
      if (error) noteDatabaseUnavailable();
      logger.warn({ err: error, channel }, 'database notifications lost: polling until they are back');
      retry = setTimeout(connect, LISTEN_RETRY_MS);
    }
  };

  const connect = async () => {
    if (closed) return;
    const { Client } = await import('pg');
    const client = new Client({ connectionString: url, connectionTimeoutMillis: connectMs, query_timeout: LISTEN_HEARTBEAT_MS, keepAlive: true });
    current = client;
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('Connection terminated')));
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) events.notify(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      lost(client, error);
      return;
    }
    if (client !== current) return;
    noteDatabaseAnswered();
    events.listening(true);
    let waiting = false;
    heartbeat = setInterval(() => {
      if (waiting) return;
      waiting = true;
      client.query('select 1').then(
        () => {
          waiting = false;
          noteDatabaseAnswered();
        },
        (error: unknown) => lost(client, error),
      );
    }, LISTEN_HEARTBEAT_MS);
    heartbeat.unref();
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const client = current;
      if (client) lost(client);
      events.closed();
    },
  };
}

/** A database that delivers its notifications itself (PGlite in this process, or its primary's channel): listening at once, never lost. */
export async function listenInProcess(
  listen: (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void> | void>,
  channel: string,
  events: NotificationEvents,
): Promise<Subscription> {
  const unlisten = await listen(channel, events.notify);
  events.listening(true);
  return {
    close: async () => {
      await unlisten();
      events.closed();
    },
  };
}
