import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, type Db } from '@/db';
import { isDatabaseUnavailable } from '@/db/errors';
import { rowsOf } from '@/db/rows';
import { logger } from '@/lib/logger';
import { HOUR_MS, type LimitCount } from '@/lib/rate-limit';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { wallTimeAt, isoDate, isValidTimeZone } from '@/lib/time-zone';
import { analyticsEvents, webVitals } from './widgets.schema';
import type { EventInput, VitalsInput } from './widgets.events.validation';

/**
 * The one writer of analytics events (SPEC §3, §9). Server-side records that must be readable at
 * once (the phone reveal's token) call writeEvents; the visitor's events (POST /api/events) go
 * through the process's EventBuffer: kept in memory and written by one multi-row insert about every
 * second, or as soon as FLUSH_AT_ROWS are waiting, and on shutdown. So the endpoint answers 202
 * without waiting for the database and a page view costs a fraction of an insert.
 *
 * A failed write is logged and never reaches the visitor (SPEC §8 'Analytics failure: logged
 * only'). While the database is unreachable the events stay buffered (bounded: past MAX_ROWS the
 * oldest are dropped and the drop logged) and are written when it answers again; any other failure
 * of a batch is retried row by row, so one bad row cannot lose its neighbours.
 *
 * Events of one process are lost if it dies without a shutdown signal: at most a second's worth.
 * Web vitals reports (decision 058) take the same path through a second buffer of their own rows.
 */

export type EventRow = typeof analyticsEvents.$inferInsert;
export type VitalRow = typeof webVitals.$inferInsert;
export type EventWriter<Row = EventRow> = (rows: Row[]) => Promise<void>;

export const EVENT_BUFFER_DEFAULTS = {
  flushEveryMs: 1000,
  flushAtRows: 500,
  maxRows: 20_000,
  /** Rows per INSERT statement (9 parameters each; PostgreSQL allows 65,535). */
  maxInsertRows: 2000,
} as const;

/** Writes rows now, in one statement per maxInsertRows. */
export async function writeEvents(rows: EventRow[], db?: Db): Promise<void> {
  if (rows.length === 0) return;
  const database = db ?? (await getDb());
  for (let i = 0; i < rows.length; i += EVENT_BUFFER_DEFAULTS.maxInsertRows) {
    await database.insert(analyticsEvents).values(rows.slice(i, i + EVENT_BUFFER_DEFAULTS.maxInsertRows));
  }
}

/** A validated visitor event of this website as a row. */
export function eventRow(tenant: Tenant, event: EventInput, createdAt = new Date()): EventRow {
  return {
    websiteId: tenant.id,
    category: event.category,
    url: event.url ?? null,
    leadId: event.lead_id ?? null,
    anonId: event.anon_id ?? null,
    sessionId: event.session_id ?? null,
    errorMessage: event.error_message ?? null,
    eventProperties: event.event_properties ?? {},
    createdAt,
  };
}

/** The local date in a zone at an instant, worked out once a minute per zone (Intl is the costly part of a report). */
const localDays = new Map<string, { minute: number; day: string }>();
function localDay(zone: string, instantMs: number): string {
  const minute = Math.floor(instantMs / 60_000);
  const known = localDays.get(zone);
  if (known?.minute === minute) return known.day;
  const day = isoDate(wallTimeAt(instantMs, zone));
  localDays.set(zone, { minute, day });
  return day;
}

/** A page view's validated web vitals as a row; its day is the website's local date at `receivedAt`. */
export function vitalsRow(tenant: Tenant, report: VitalsInput, receivedAt = new Date()): VitalRow {
  const zone = isValidTimeZone(tenant.config.timeZone) ? tenant.config.timeZone : 'UTC';
  const m = report.metrics;
  return {
    websiteId: tenant.id,
    viewId: report.view_id,
    day: localDay(zone, receivedAt.getTime()),
    pageType: report.page_type,
    lcp: m.LCP ?? null,
    inp: m.INP ?? null,
    cls: m.CLS ?? null,
    fcp: m.FCP ?? null,
    ttfb: m.TTFB ?? null,
    createdAt: receivedAt,
  };
}

const VITAL_COLUMNS = ['lcp', 'inp', 'cls', 'fcp', 'ttfb'] as const;

/**
 * Writes page views' vitals: a view already stored (reported again when its tab was hidden a
 * second time) keeps its day and page type and takes the larger of each metric (PostgreSQL's
 * greatest() ignores nulls). Reports of one view in the same batch are merged first, since one
 * INSERT … ON CONFLICT may not touch a row twice.
 */
export async function writeVitals(rows: VitalRow[], db?: Db): Promise<void> {
  if (rows.length === 0) return;
  const merged = new Map<string, VitalRow>();
  for (const row of rows) {
    const key = `${row.websiteId}:${row.viewId}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...row });
    else for (const c of VITAL_COLUMNS) if (row[c] != null && (seen[c] == null || row[c] > seen[c])) seen[c] = row[c];
  }
  const database = db ?? (await getDb());
  const all = [...merged.values()];
  for (let i = 0; i < all.length; i += EVENT_BUFFER_DEFAULTS.maxInsertRows) {
    await database
      .insert(webVitals)
      .values(all.slice(i, i + EVENT_BUFFER_DEFAULTS.maxInsertRows))
      .onConflictDoUpdate({
        target: [webVitals.websiteId, webVitals.viewId],
        set: Object.fromEntries(VITAL_COLUMNS.map((c) => [c, sql.raw(`greatest(web_vitals.${c}, excluded.${c})`)])),
      });
  }
}

export type EventBufferOptions<Row = EventRow> = {
  write?: EventWriter<Row>;
  flushEveryMs?: number;
  flushAtRows?: number;
  maxRows?: number;
  maxInsertRows?: number;
  /** Runs before each flush's writes (the event limiter's count goes to the database then). */
  beforeFlush?: () => Promise<void>;
};

export type EventBufferStats = { buffered: number; written: number; failed: number; dropped: number; flushes: number };

export class EventBuffer<Row = EventRow> {
  private rows: Row[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;
  private readonly write: EventWriter<Row>;
  private readonly flushEveryMs: number;
  private readonly flushAtRows: number;
  private readonly maxRows: number;
  private readonly maxInsertRows: number;
  private readonly beforeFlush: (() => Promise<void>) | undefined;
  readonly stats: EventBufferStats = { buffered: 0, written: 0, failed: 0, dropped: 0, flushes: 0 };

  constructor(options: EventBufferOptions<Row> = {}) {
    this.write = options.write ?? ((rows) => writeEvents(rows as EventRow[]));
    this.flushEveryMs = options.flushEveryMs ?? EVENT_BUFFER_DEFAULTS.flushEveryMs;
    this.flushAtRows = options.flushAtRows ?? EVENT_BUFFER_DEFAULTS.flushAtRows;
    this.maxRows = options.maxRows ?? EVENT_BUFFER_DEFAULTS.maxRows;
    this.maxInsertRows = options.maxInsertRows ?? EVENT_BUFFER_DEFAULTS.maxInsertRows;
    this.beforeFlush = options.beforeFlush;
  }

  get size(): number {
    return this.rows.length;
  }

  /** Queues rows; never throws, never waits for the database. */
  add(rows: Row[]): void {
    if (rows.length === 0) return;
    this.rows.push(...rows);
    this.trim();
    // A flush running now writes the next batch when it ends (flush's finally).
    if (this.flushing) return;
    if (this.rows.length >= this.flushAtRows) void this.flush();
    else this.schedule();
  }

  /**
   * Writes everything buffered when called (after a flush already running, one at a time);
   * resolves when done. Never rejects (failures are logged).
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.rows.length === 0) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
      this.stats.buffered = this.rows.length;
      if (this.rows.length >= this.flushAtRows) void this.flush();
      else if (this.rows.length > 0) this.schedule();
    });
    await this.flushing;
  }

  /** Stops the timer (tests, shutdown after a last flush). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private trim() {
    const over = this.rows.length - this.maxRows;
    if (over > 0) {
      this.rows.splice(0, over);
      this.stats.dropped += over;
      logger.warn({ dropped: over, buffered: this.rows.length }, 'analytics events buffer full: oldest events dropped');
    }
    this.stats.buffered = this.rows.length;
  }

  private schedule() {
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushEveryMs);
    this.timer.unref?.();
  }

  private async drain(): Promise<void> {
    this.stop();
    this.stats.flushes += 1;
    if (this.beforeFlush) {
      try {
        await this.beforeFlush();
      } catch (error) {
        logger.error({ err: error }, 'analytics events: before-flush step failed');
      }
    }
    // What is buffered now; events arriving meanwhile wait for the next flush.
    let remaining = this.rows.length;
    while (remaining > 0) {
      const batch = this.rows.splice(0, Math.min(remaining, this.maxInsertRows));
      remaining -= batch.length;
      try {
        await this.write(batch);
        this.stats.written += batch.length;
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          // Kept for the next flush, ahead of newer events; the cap still holds.
          this.rows.unshift(...batch);
          this.trim();
          logger.error({ err: error, events: batch.length }, 'analytics events not written: database unavailable; kept for the next flush');
          return;
        }
        await this.writeOneByOne(batch, error);
      }
    }
  }

  private async writeOneByOne(batch: Row[], batchError: unknown) {
    let failed = 0;
    let firstError: unknown = batchError;
    for (const row of batch) {
      try {
        await this.write([row]);
        this.stats.written += 1;
      } catch (error) {
        failed += 1;
        firstError = error;
      }
    }
    this.stats.failed += failed;
    if (failed > 0) logger.error({ err: firstError, events: batch.length, failed }, 'analytics events not written');
  }
}

/**
 * Per-client limits on events, counted in the shared limiter's table (rate_limits, so every
 * process and replica shares them) without a statement per request: each process counts hits in
 * memory and adds them to the table once per flush, in one statement; a key the table says is over
 * its limit is refused in this process until its window ends. A client can overshoot by what it
 * sends in one flush interval (about a second) per process, which is what makes it cheap.
 */
export class EventLimiter {
  private pending = new Map<string, number>();
  /** Points the table held at the last sync (and added since), and when the window ends. */
  private known = new Map<string, { points: number; expire: number }>();

  constructor(
    readonly max: number,
    readonly durationMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts `points` for key; the seconds to wait when the key is over its limit (nothing counted then). */
  hit(key: string, points: number, nowMs = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const known = this.known.get(key);
    if (known && known.expire <= nowMs) this.known.delete(key);
    const current = this.known.get(key);
    const pending = this.pending.get(key) ?? 0;
    if (current && current.points + pending >= this.max) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((current.expire - nowMs) / 1000)) };
    if (!current && pending >= this.max) return { ok: false, retryAfterSeconds: Math.ceil(this.durationMs / 1000) };
    if (this.pending.size >= this.maxKeys && !this.pending.has(key)) return { ok: true };
    this.pending.set(key, pending + points);
    return { ok: true };
  }

  /** Adds the counted points to rate_limits in one statement and learns each key's total. */
  async sync(db: Db, nowMs = Date.now()): Promise<void> {
    if (this.pending.size === 0) return;
    const counted = [...this.pending].map(([key, points]) => ({ key, points, expire: nowMs + this.durationMs }));
    this.pending.clear();
    const totals = rowsOf<LimitCount>(
      await db.execute(sql`insert into rate_limits (key, points, expire)
        select key, points, expire from jsonb_to_recordset(${JSON.stringify(counted)}::jsonb) as w(key varchar, points integer, expire bigint) order by key
        on conflict (key) do update set
          points = case when rate_limits.expire <= ${nowMs} then excluded.points else rate_limits.points + excluded.points end,
          expire = case when rate_limits.expire <= ${nowMs} then excluded.expire else rate_limits.expire end
        returning key, points, expire`),
    );
    for (const [key, entry] of this.known) if (entry.expire <= nowMs) this.known.delete(key);
    for (const row of totals) {
      if (this.known.size >= this.maxKeys) break;
      this.known.set(row.key, { points: Number(row.points), expire: Number(row.expire) });
    }
  }
}

/** Events per client address per hour, per website: generous, since a mobile carrier's address is shared by many visitors. */
export const EVENTS_PER_IP_PER_HOUR = 10_000;

type EventsState = { buffer: EventBuffer; vitals: EventBuffer<VitalRow>; limiter: EventLimiter };
const globalForEvents = globalThis as unknown as { __analyticsEvents?: EventsState };

/**
 * This process's buffer and limiter. Kept on globalThis: Next bundles each route on its own, and
 * every route must share the one buffer. The first use registers a last flush on shutdown.
 */
export function eventsState(): EventsState {
  if (globalForEvents.__analyticsEvents) return globalForEvents.__analyticsEvents;
  // Both buffers count the limits at their flush (sync takes what is pending, so twice is harmless).
  const beforeFlush = async () => state.limiter.sync(await getDb());
  const buffer = new EventBuffer({ beforeFlush });
  const vitals = new EventBuffer<VitalRow>({ beforeFlush, write: (rows) => writeVitals(rows) });
  const state: EventsState = { buffer, vitals, limiter: new EventLimiter(EVENTS_PER_IP_PER_HOUR, HOUR_MS) };
  globalForEvents.__analyticsEvents = state;
  if (process.env.NODE_ENV !== 'test') {
    // A last flush; where nothing else handles the signal (a script), it is raised again after it.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        void flushBoth().finally(() => {
          if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
        });
      });
    }
    process.once('beforeExit', () => void flushBoth());
  }
  return globalForEvents.__analyticsEvents;
}

/** Queues a website's events for the next flush. */
export function enqueueEvents(rows: EventRow[]): void {
  eventsState().buffer.add(rows);
}

/** Writes what is buffered now, events and vitals (tests, shutdown). */
export function flushEvents(): Promise<void> {
  return flushBoth();
}

async function flushBoth(): Promise<void> {
  const { buffer, vitals } = eventsState();
  await Promise.all([buffer.flush(), vitals.flush()]);
}
