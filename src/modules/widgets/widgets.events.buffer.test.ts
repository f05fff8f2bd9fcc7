import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '@/lib/logger';
import { EventBuffer, EventLimiter, type EventRow } from './widgets.events';

const row = (i: number, websiteId = 1): EventRow => ({ websiteId, category: 1, url: `/p/${i}`, eventProperties: {} });
const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i));

/** A writer that records each statement's rows; fails as told. */
function recorder(fail: (batch: EventRow[]) => unknown = () => null) {
  const calls: EventRow[][] = [];
  const write = async (batch: EventRow[]) => {
    const error = fail(batch);
    if (error) throw error;
    calls.push(batch);
  };
  return { calls, write };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the analytics event buffer', () => {
  it('writes N events queued within the interval in one insert, about a second later', async () => {
    vi.useFakeTimers();
    const { calls, write } = recorder();
    const buffer = new EventBuffer({ write, flushEveryMs: 1000, flushAtRows: 500 });
    for (let i = 0; i < 120; i++) buffer.add([row(i)]);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0].map((r) => r.url)).toEqual(Array.from({ length: 120 }, (_, i) => `/p/${i}`));
    expect(buffer.size).toBe(0);
    // Nothing buffered: no timer, no empty insert.
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
  });

  it('writes at once when flushAtRows are waiting, in statements of at most maxInsertRows', async () => {
    const { calls, write } = recorder();
    const buffer = new EventBuffer({ write, flushEveryMs: 60_000, flushAtRows: 50, maxInsertRows: 20 });
    buffer.add(rows(49));
    expect(calls).toHaveLength(0);
    buffer.add(rows(1));
    await buffer.flush();
    expect(calls.map((c) => c.length)).toEqual([20, 20, 10]);
    buffer.stop();
  });

  it('logs a failed write and never throws to the caller; one bad row does not lose the others', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const { calls, write } = recorder((batch) => (batch.some((r) => r.url === '/p/3') ? new Error('value too long') : null));
    const buffer = new EventBuffer({ write });
    buffer.add(rows(6));
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(calls.flat().map((r) => r.url)).toEqual(['/p/0', '/p/1', '/p/2', '/p/4', '/p/5']);
    expect(buffer.stats).toMatchObject({ written: 5, failed: 1, buffered: 0 });
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ events: 6, failed: 1 }), 'analytics events not written');
  });

  it('keeps events while the database is unreachable and writes them when it answers', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    let down = true;
    const { calls, write } = recorder(() => (down ? Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) : null));
    const buffer = new EventBuffer({ write, flushEveryMs: 60_000 });
    buffer.add(rows(3));
    await buffer.flush();
    expect(buffer.size).toBe(3);
    expect(errors).toHaveBeenCalledTimes(1);
    down = false;
    buffer.add([row(99)]);
    await buffer.flush();
    expect(calls.flat().map((r) => r.url)).toEqual(['/p/0', '/p/1', '/p/2', '/p/99']);
    buffer.stop();
  });

  it('is bounded: past maxRows the oldest events are dropped, and the drop is logged', async () => {
    const warnings = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const { calls, write } = recorder();
    const buffer = new EventBuffer({ write, maxRows: 10, flushAtRows: 1000, flushEveryMs: 60_000 });
    for (let i = 0; i < 15; i++) buffer.add([row(i)]);
    expect(buffer.size).toBe(10);
    expect(buffer.stats.dropped).toBe(5);
    expect(warnings).toHaveBeenCalledWith(expect.objectContaining({ dropped: 1, buffered: 10 }), expect.stringContaining('oldest events dropped'));
    await buffer.flush();
    expect(calls[0].map((r) => r.url)).toEqual(Array.from({ length: 10 }, (_, i) => `/p/${i + 5}`));
  });

  it('runs one flush at a time; events arriving during a write go in the next', async () => {
    let release: () => void = () => {};
    const calls: number[] = [];
    const buffer = new EventBuffer({
      flushEveryMs: 60_000,
      write: async (batch) => {
        calls.push(batch.length);
        if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    buffer.add(rows(2));
    const first = buffer.flush();
    await Promise.resolve();
    buffer.add(rows(3));
    // Called during the first write: waits for it, then writes what came meanwhile.
    const second = buffer.flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual([2]);
    release();
    await second;
    expect(calls).toEqual([2, 3]);
    await first;
    buffer.stop();
  });
});

describe('the event limiter', () => {
  it('refuses a key over its limit within this process before any sync', () => {
    const limiter = new EventLimiter(5, 60_000);
    expect(limiter.hit('k', 3, 0)).toEqual({ ok: true });
    expect(limiter.hit('k', 2, 0)).toEqual({ ok: true });
    expect(limiter.hit('k', 1, 0)).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(limiter.hit('other', 1, 0)).toEqual({ ok: true });
  });
});
