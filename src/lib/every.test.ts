import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEvery } from './every';

describe('runEvery', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the task each interval, never two at once, goes on after a failure, and stops', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let release: () => void = () => {};
    const stop = runEvery(
      1_000,
      async () => {
        runs += 1;
        running += 1;
        most = Math.max(most, running);
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
        running -= 1;
        if (runs === 2) throw new Error('boom');
      },
      'task failed',
    );
    await vi.advanceTimersByTimeAsync(3_500);
    // The first run is still going at 2 s and 3 s: those are skipped.
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(3);
    expect(most).toBe(1);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
  });
});
