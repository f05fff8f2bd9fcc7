import { describe, expect, it } from 'vitest';
import { isLoopbackHost, normalizeHost, slugFromDevHost } from '@/lib/host';

describe('normalizeHost', () => {
  it('lowercases and drops the port', () => {
    expect(normalizeHost('Kiwi-Motors.LOCALHOST:3000')).toBe('kiwi-motors.localhost');
    expect(normalizeHost('www.example.com.')).toBe('www.example.com');
    expect(normalizeHost('[::1]:3000')).toBe('[::1]');
  });

  it('refuses what is not a host name', () => {
    for (const bad of [null, '', ' ', 'a b', '../etc', 'x/y', 'evil.com\r\nX: y', '-bad.com', 'a'.repeat(300), "x'--", 'a.localhost:80@evil.example', 'a.localhost:80/x', 'a.localhost:', 'a.localhost:123456', '[::1]x', '[::1]:80@evil']) {
      expect(normalizeHost(bad)).toBeNull();
    }
  });
});

describe('development hosts', () => {
  it('reads the website slug from {slug}.localhost', () => {
    expect(slugFromDevHost('kiwi-motors.localhost')).toBe('kiwi-motors');
    expect(slugFromDevHost('a.b.localhost')).toBeNull();
    expect(slugFromDevHost('kiwi-motors.example.com')).toBeNull();
    expect(slugFromDevHost('localhost')).toBeNull();
  });

  it('knows loopback names', () => {
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('kiwi-motors.localhost')).toBe(false);
  });
});
