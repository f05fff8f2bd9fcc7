import 'server-only';
import { sql } from 'drizzle-orm';
import { currentDatabase, getDatabase, type Db } from '@/db';
import type { DatabaseHandle } from '@/db/client';
import { noteDatabaseAnswered, noteDatabaseUnavailable } from '@/db/health';
import { rowsOf } from '@/db/rows';
import { logger } from '@/lib/logger';
import type { Generations } from './tenancy.memo';

/**
 * The website and car generations of the websites this process has served, kept in the process
 * (decision 055), so a page served from the cache needs no database round trip to know it is
 * still current. Each change of a generation is announced at commit on the channel 'generations'
 * (drizzle/0017: triggers on website_generations and car_generations); this process listens, on a
 * connection of its own on a PostgreSQL server, or through the embedded database (its primary
 * passes notifications to every server process). While notifications are not flowing (the
 * connection lost or not yet made) it reads the generations of every website it holds every
 * POLL_MS instead, and once more each time they flow again. While the database does not answer,
 * the generations stay as last known, and cached pages are served as they are (stale-if-error).
 *
 * Staleness: a change is known here as soon as its notification arrives (milliseconds after the
 * commit), or within POLL_MS while polling. A silently stalled notification connection is noticed
 * by its heartbeat within 2 s (src/db/notifications.ts).
 */

export const GENERATIONS_CHANNEL = 'generations';
/** How often the generations are read while notifications are not flowing. */
export const POLL_MS = 500;

/** Both generations of a website that no longer exists. */
export const GONE = 'gone';

type Watch = {
  known: Map<number, Generations>;
  listening: boolean;
  stopped: boolean;
  poll?: NodeJS.Timeout;
  polling: boolean;
};

// Per database (tests open fresh ones with the same website ids); on globalThis, because the request
// hooks (serving the cache) and the pages (reading and learning generations) are bundled apart.
const KEY = Symbol.for('dealer-platform.website-generations');
const holder = globalThis as unknown as { [KEY]?: WeakMap<Db, Watch> };
const watches = (holder[KEY] ??= new WeakMap<Db, Watch>());
/** The watch of the database getDatabase() answers, for knownGenerations(): kept with that answer, so a replaced database (tests) is not mistaken for it. */
const LATEST = Symbol.for('dealer-platform.website-generations.latest');
const latest = globalThis as unknown as { [LATEST]?: { database: Promise<DatabaseHandle> | undefined; watch: Watch } };

/** The later of two values of one generation: notifications and reads may arrive out of order, generations only grow. */
function later(a: string, b: string): string {
  if (a === GONE || b === GONE) return GONE;
  return BigInt(a) >= BigInt(b) ? a : b;
}

function watchOf(handle: DatabaseHandle): Watch {
  let watch = watches.get(handle.db);
  if (!watch) {
    watch = { known: new Map(), listening: false, stopped: false, polling: false };
    watches.set(handle.db, watch);
    start(handle, watch);
  }
  const database = currentDatabase();
  const held = latest[LATEST];
  if (database && (held?.watch !== watch || held.database !== database)) {
    database.then(
      (current) => {
        if (current.db === handle.db && currentDatabase() === database) latest[LATEST] = { database, watch: watch! };
      },
      () => undefined,
    );
  }
  return watch;
}

/**
 * The website's generations if this process already holds them, without waiting for anything: what
 * a page-cache hit checks (decision 055). Undefined when it does not (currentGenerations reads them).
 */
export function knownGenerations(websiteId: number): Generations | undefined {
  const held = latest[LATEST];
  return held && held.database === currentDatabase() && !held.watch.stopped ? held.watch.known.get(websiteId) : undefined;
}

/** The generations this process keeps for one database: what it knows now, and what a read of the database said. */
export type HeldGenerations = {
  known: (websiteId: number) => Generations | undefined;
  learn: (websiteId: number, generations: Generations) => void;
};

/** The generations this process keeps for `handle`'s database (its search engine's, decision 071), kept current as above. */
export function heldGenerationsOf(handle: DatabaseHandle): HeldGenerations {
  const watch = watchOf(handle);
  return {
    known: (websiteId) => (watch.stopped ? undefined : watch.known.get(websiteId)),
    learn: (websiteId, generations) => learnGenerations(handle, websiteId, generations),
  };
}

function start(handle: DatabaseHandle, watch: Watch): void {
  const schedulePoll = () => {
    clearTimeout(watch.poll);
    if (watch.stopped) return;
    watch.poll = setTimeout(() => void poll(handle, watch).finally(() => !watch.listening && schedulePoll()), POLL_MS);
    watch.poll.unref();
  };
  handle
    .subscribe(GENERATIONS_CHANNEL, {
      notify: (payload) => applyNotification(watch, payload),
      listening: (up) => {
        watch.listening = up;
        // Notifications flow from now on; what changed before they did is read once.
        if (up) {
          clearTimeout(watch.poll);
          void poll(handle, watch);
        } else schedulePoll();
      },
      closed: () => {
        watch.stopped = true;
        clearTimeout(watch.poll);
      },
    })
    .catch((error: unknown) => {
      logger.warn({ err: error }, 'cannot listen for generation changes: polling');
      schedulePoll();
    });
}

function applyNotification(watch: Watch, payload: string): void {
  const [kind, id, generation] = payload.split(':');
  const websiteId = Number(id);
  const held = watch.known.get(websiteId);
  if (!held) return;
  if (kind === GONE) watch.known.set(websiteId, { website: GONE, cars: GONE });
  else if (kind === 'website' && generation) watch.known.set(websiteId, { ...held, website: later(held.website, generation) });
  else if (kind === 'cars' && generation) watch.known.set(websiteId, { ...held, cars: later(held.cars, generation) });
}

async function poll(handle: DatabaseHandle, watch: Watch): Promise<void> {
  if (watch.stopped || watch.polling || watch.known.size === 0) return;
  watch.polling = true;
  const ids = [...watch.known.keys()];
  try {
    const rows = rowsOf<{ id: number; website: string | number | null; cars: string | number | null }>(
      await handle.db.execute(
        sql`select w.id, wg.generation as website, cg.generation as cars from websites w
            left join website_generations wg on wg.website_id = w.id left join car_generations cg on cg.website_id = w.id
            where w.id = any(${`{${ids.join(',')}}`}::int[])`,
      ),
    );
    noteDatabaseAnswered();
    const found = new Set<number>();
    for (const row of rows) {
      found.add(row.id);
      learnGenerations(handle, row.id, { website: String(row.website ?? 0), cars: String(row.cars ?? 0) });
    }
    for (const id of ids) if (!found.has(id)) watch.known.set(id, { website: GONE, cars: GONE });
  } catch (error) {
    // Stale-if-error: the generations stay as they were until the database answers again.
    noteDatabaseUnavailable();
    logger.warn({ err: error }, 'cannot read the website generations: keeping the last known');
  } finally {
    watch.polling = false;
  }
}

/**
 * What a read of the database said a website's generations are (the tenant lookup reads them on
 * every render); starts keeping them for this database.
 */
export function learnGenerations(handle: DatabaseHandle, websiteId: number, generations: Generations): void {
  const watch = watchOf(handle);
  const held = watch.known.get(websiteId);
  watch.known.set(websiteId, held ? { website: later(held.website, generations.website), cars: later(held.cars, generations.cars) } : generations);
}

/**
 * The website's generations as this process knows them, without asking the database; read from it
 * the first time (and kept from then on). 'gone' for both when the website no longer exists.
 */
export async function currentGenerations(websiteId: number): Promise<Generations> {
  const handle = await getDatabase();
  const watch = watchOf(handle);
  const held = watch.known.get(websiteId);
  if (held) return held;
  const [row] = rowsOf<{ website: string | number | null; cars: string | number | null }>(
    await handle.db.execute(
      sql`select wg.generation as website, cg.generation as cars from websites w
          left join website_generations wg on wg.website_id = w.id left join car_generations cg on cg.website_id = w.id
          where w.id = ${websiteId}`,
    ),
  );
  const generations = row ? { website: String(row.website ?? 0), cars: String(row.cars ?? 0) } : { website: GONE, cars: GONE };
  learnGenerations(handle, websiteId, generations);
  return watch.known.get(websiteId)!;
}
