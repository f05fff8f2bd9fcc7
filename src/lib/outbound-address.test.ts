import { describe, expect, it } from 'vitest';
import { checkedAddresses, nonPublicReason, pinnedLookup, RefusedAddressError, type Resolver } from './outbound-address';

/** Lead webhooks go to public addresses only: every range an attacker could aim the platform at is refused. */

describe('nonPublicReason', () => {
  it.each([
    ['0.0.0.0', /this-network/],
    ['10.1.2.3', /private 10\.0\.0\.0\/8/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['169.254.169.254', /link-local 169\.254\.0\.0\/16, cloud metadata/],
    ['172.16.0.1', /private 172\.16\.0\.0\/12/],
    ['172.31.255.255', /private 172\.16\.0\.0\/12/],
    ['192.168.1.1', /private 192\.168\.0\.0\/16/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['::', /unspecified/],
    ['::1', /loopback ::1/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1%eth0', /link-local fe80/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback 127\.0\.0\.0\/8, inside an IPv4-mapped IPv6/],
    ['::ffff:7f00:1', /loopback 127\.0\.0\.0\/8, inside an IPv4-mapped/],
    ['::ffff:a9fe:a9fe', /cloud metadata among them, inside an IPv4-mapped/],
    ['::ffff:10.0.0.1', /private 10/],
    ['64:ff9b::192.168.0.1', /private 192\.168.*NAT64/],
    ['2002:7f00:1::', /loopback.*6to4/],
    ['[::1]', /loopback/],
  ])('%s is refused (%s)', (ip, reason) => {
    expect(nonPublicReason(ip)).toMatch(reason);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.15.255.255', '172.32.0.1', '169.253.0.1', '100.128.0.1', '11.0.0.1', '2606:4700::6810:84e5', '::ffff:8.8.8.8', '64:ff9b::808:808', '2001:db8::1'])(
    '%s is public',
    (ip) => {
      expect(nonPublicReason(ip)).toBeNull();
    },
  );

  it('a name is not an address', () => {
    expect(nonPublicReason('localhost')).toBe('not an IP address');
  });
});

describe('checkedAddresses', () => {
  const noDns: Resolver = async () => {
    throw new Error('literal addresses are never resolved');
  };

  it.each([
    ['http://2130706433/hook', '127.0.0.1'],
    ['http://0x7f.1/hook', '127.0.0.1'],
    ['http://0177.0.0.1/hook', '127.0.0.1'],
    ['http://0x7f000001/hook', '127.0.0.1'],
    ['http://127.1/hook', '127.0.0.1'],
    ['http://0/hook', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['http://[::1]:8080/hook', '::1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254'],
  ])('%s (%s) is refused without asking DNS', async (url, address) => {
    const refusal = await checkedAddresses(new URL(url), { allowPrivate: false, resolve: noDns }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RefusedAddressError);
    expect((refusal as Error).message).toMatch(new RegExp(`^refused: ${address.replace(/[.[\]]/g, '\\$&')} is not a public address`));
  });

  it('a name is refused when any of its addresses is private, and the message names it', async () => {
    const resolve: Resolver = async (host) =>
      host === 'hooks.dealer.example'
        ? [
            { address: '93.184.215.14', family: 4 },
            { address: '10.0.0.7', family: 4 },
          ]
        : [];
    const refusal = await checkedAddresses(new URL('https://hooks.dealer.example/leads'), { allowPrivate: false, resolve }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RefusedAddressError);
    expect((refusal as Error).message).toBe('refused: hooks.dealer.example resolves to 10.0.0.7, which is not a public address (private 10.0.0.0/8); LEAD_WEBHOOK_ALLOW_PRIVATE=1 allows it');
  });

  it('a name with public addresses only is answered with those addresses; private ones only when allowed', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700::6810:84e5', family: 6 },
    ];
    expect(await checkedAddresses(new URL('https://crm.example/'), { allowPrivate: false, resolve })).toHaveLength(2);
    const local: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await checkedAddresses(new URL('http://localhost:9/'), { allowPrivate: true, resolve: local })).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('a name that does not resolve is an ordinary (retryable) error, not a refusal', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await checkedAddresses(new URL('https://gone.example/'), { allowPrivate: false, resolve: failing }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(RefusedAddressError);
    expect((error as Error).message).toBe('could not resolve gone.example: ENOTFOUND');
  });
});

describe('pinnedLookup', () => {
  it('answers only the checked addresses, for one address or all, by family', () => {
    const lookup = pinnedLookup([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700::6810:84e5', family: 6 },
    ]);
    const answers: unknown[] = [];
    lookup('rebound.example', { all: true }, (...args: unknown[]) => answers.push(args));
    lookup('rebound.example', { family: 6 }, (...args: unknown[]) => answers.push(args));
    expect(answers).toEqual([
      [
        null,
        [
          { address: '93.184.215.14', family: 4 },
          { address: '2606:4700::6810:84e5', family: 6 },
        ],
      ],
      [null, '2606:4700::6810:84e5', 6],
    ]);
  });
});
