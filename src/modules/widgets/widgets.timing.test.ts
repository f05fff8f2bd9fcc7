import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_POLL_MS,
  OPEN_DELAY_MS,
  ScriptLoader,
  WIDGET_POLL_MS,
  afterFirstInteraction,
  openWhenReady,
  pollFor,
  popupClosedBefore,
  rememberPopupClosed,
} from './widgets.timing';

function fakeTarget() {
  const listeners = new Map<string, () => void>();
  return {
    addEventListener: (type: string, fn: () => void) => void listeners.set(type, fn),
    removeEventListener: (type: string) => void listeners.delete(type),
    fire: (type: string) => listeners.get(type)?.(),
    listeners,
  };
}

describe('widget timing (SPEC §4, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses the spec delays', () => {
    expect([WIDGET_POLL_MS, ANALYTICS_POLL_MS, OPEN_DELAY_MS]).toEqual([100, 300, 1300]);
  });

  it('starts at 3 s when nobody interacts, once, and stops listening', () => {
    const target = fakeTarget();
    const run = vi.fn();
    afterFirstInteraction(run, 3000, target as unknown as Window);
    vi.advanceTimersByTime(2999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(target.listeners.size).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it.each(['scroll', 'click', 'touchstart', 'keydown'])('starts at the first %s, not again at 3 s', (type) => {
    const target = fakeTarget();
    const run = vi.fn();
    afterFirstInteraction(run, 3000, target as unknown as Window);
    vi.advanceTimersByTime(500);
    target.fire(type);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('without a delay (chat, chatbot, tools: decision 043) only a real interaction starts it', () => {
    const target = fakeTarget();
    const run = vi.fn();
    afterFirstInteraction(run, null, target as unknown as Window);
    vi.advanceTimersByTime(60_000);
    expect(run).not.toHaveBeenCalled();
    target.fire('scroll');
    expect(run).toHaveBeenCalledTimes(1);
    expect(target.listeners.size).toBe(0);
  });

  it('can be cancelled (the page went away)', () => {
    const run = vi.fn();
    const cancel = afterFirstInteraction(run, 3000, fakeTarget() as unknown as Window);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(run).not.toHaveBeenCalled();
  });

  it('polls at its interval until the check holds, and gives up at the timeout', async () => {
    let ready: string | null = null;
    const check = vi.fn(() => ready);
    const found = pollFor(check, 100, 1000);
    await vi.advanceTimersByTimeAsync(250);
    expect(check).toHaveBeenCalledTimes(3); // 0, 100, 200
    ready = 'iframe';
    await vi.advanceTimersByTimeAsync(100);
    await expect(found).resolves.toBe('iframe');

    const never = pollFor(() => null, 300, 1000);
    const settled = expect(never).rejects.toThrow('timed out after 1000 ms');
    await vi.advanceTimersByTimeAsync(1300);
    await settled;
  });

  it('moves idle → loading → ready, requesting the script once however often it is asked', async () => {
    const inject = vi.fn(() => Promise.resolve());
    const states: string[] = [];
    const loader = new ScriptLoader(inject, () => Promise.resolve(), (state) => states.push(state));
    expect(loader.state).toBe('idle');
    const [a, b] = [loader.load(), loader.load()];
    expect(loader.state).toBe('loading');
    expect(await a).toBe(true);
    expect(await b).toBe(true);
    expect(await loader.load()).toBe(true);
    expect(inject).toHaveBeenCalledTimes(1);
    expect(states).toEqual(['loading', 'ready']);
  });

  it('ends in error, without throwing, when the script or its ready check fails; and does not retry', async () => {
    const inject = vi.fn(() => Promise.reject(new Error('script failed to load: https://x/widget.js')));
    const loader = new ScriptLoader(inject);
    expect(await loader.load()).toBe(false);
    expect(loader.state).toBe('error');
    expect(loader.error).toContain('script failed to load');
    expect(await loader.load()).toBe(false);
    expect(inject).toHaveBeenCalledTimes(1);

    const unready = new ScriptLoader(() => Promise.resolve(), () => Promise.reject(new Error('timed out after 15000 ms')));
    expect(await unready.load()).toBe(false);
    expect(unready.state).toBe('error');
  });

  it('text button: opens at once when ready', async () => {
    const open = vi.fn(() => true);
    const loading = vi.fn();
    await expect(openWhenReady({ state: 'ready', load: () => Promise.resolve(true) }, open, loading)).resolves.toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
    expect(loading).not.toHaveBeenCalled();
  });

  it('text button: otherwise shows loading, loads, and opens 1.3 s after the click', async () => {
    const open = vi.fn(() => true);
    const loading = vi.fn();
    const load = vi.fn(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 400)));
    const opened = openWhenReady({ state: 'idle', load }, open, loading);
    expect(loading).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1299);
    expect(open).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(opened).resolves.toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('text button: a script that fails does not open (the caller falls back to the contact form)', async () => {
    const open = vi.fn(() => true);
    const opened = openWhenReady({ state: 'idle', load: () => Promise.resolve(false) }, open);
    await vi.advanceTimersByTimeAsync(OPEN_DELAY_MS);
    await expect(opened).resolves.toBe(false);
    expect(open).not.toHaveBeenCalled();
  });

  it('remembers a closed popup in the browser, and survives blocked storage', () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
    expect(popupClosedBefore(storage)).toBe(false);
    rememberPopupClosed(storage);
    expect(popupClosedBefore(storage)).toBe(true);
    const blocked = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('SecurityError'); } };
    expect(popupClosedBefore(blocked)).toBe(false);
    expect(() => rememberPopupClosed(blocked)).not.toThrow();
  });
});
