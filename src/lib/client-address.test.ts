import { describe, expect, it } from 'vitest';
import { normaliseAddress, resolveClientAddress } from './client-address';
import { demoPagesVisibleTo, isLoopbackAddress } from './demo-access';
import type { Env } from './env';

describe('resolveClientAddress', () => {
  it('takes the socket address and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(resolveClientAddress('203.0.113.9', '10.0.0.1', 0)).toBe('203.0.113.9');
    expect(resolveClientAddress('::ffff:203.0.113.9', 'anything, at, all', 0)).toBe('203.0.113.9');
  });

  it('with N trusted hops takes the N-th entry from the right, whatever the client put before it', () => {
    expect(resolveClientAddress('10.0.0.2', 'forged, 198.51.100.4', 1)).toBe('198.51.100.4');
    expect(resolveClientAddress('10.0.0.2', '1.1.1.1, 198.51.100.4, 10.0.0.3', 2)).toBe('198.51.100.4');
    expect(resolveClientAddress('10.0.0.2', ['1.1.1.1', '198.51.100.4'], 1)).toBe('198.51.100.4');
    // Fewer entries than hops: the leftmost is the best there is; none at all: the socket.
    expect(resolveClientAddress('10.0.0.2', '198.51.100.4', 3)).toBe('198.51.100.4');
    expect(resolveClientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });

  it('gives no address for garbage rather than a key the client chose', () => {
    expect(resolveClientAddress('10.0.0.2', 'not-an-ip', 1)).toBeNull();
    expect(resolveClientAddress(undefined, undefined, 0)).toBeNull();
  });

  it('spells every address one way', () => {
    expect(normaliseAddress('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(normaliseAddress('203.0.113.9:8080')).toBe('203.0.113.9');
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normaliseAddress('x'.repeat(300))).toBeNull();
  });
});

describe('demo pages (the outbox) are shown', () => {
  const settings = (demoMode: boolean, demoModeForEveryone: boolean) => ({ demoMode, demoModeForEveryone }) as Env;

  it('by default only to clients on this machine', () => {
    expect(demoPagesVisibleTo('127.0.0.1', settings(true, false))).toBe(true);
    expect(demoPagesVisibleTo('::1', settings(true, false))).toBe(true);
    expect(demoPagesVisibleTo('203.0.113.9', settings(true, false))).toBe(false);
    expect(demoPagesVisibleTo(null, settings(true, false))).toBe(false);
  });

  it('to everyone only when DEMO_MODE=1 says so, and to no one without demo mode', () => {
    expect(demoPagesVisibleTo('203.0.113.9', settings(true, true))).toBe(true);
    expect(demoPagesVisibleTo('127.0.0.1', settings(false, false))).toBe(false);
  });

  it('knows loopback addresses', () => {
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
  });
});
