import { describe, expect, it } from 'vitest';
import { hashSecret, parseBasicAuth, verifySecret } from '@/lib/http/dealer-auth';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const KEY = 'dk_0123456789abcdef01234567';

describe('parseBasicAuth', () => {
  it('reads the key id and the secret (which may hold colons)', () => {
    expect(parseBasicAuth(`Basic ${b64(`${KEY}:se:cr:et`)}`)).toEqual({ keyId: KEY, secret: 'se:cr:et' });
    expect(parseBasicAuth(`basic   ${b64(`${KEY}:s`)}`)).toEqual({ keyId: KEY, secret: 's' });
  });

  it.each([
    [null],
    [''],
    ['Basic'],
    ['Bearer abc'],
    [`Basic ${b64('no-colon')}`],
    [`Basic ${b64(`:secret`)}`],
    [`Basic ${b64(`${KEY}:`)}`],
    [`Basic ${b64(`not-a-key-id:secret`)}`],
    [`Basic ${b64(`${KEY}:${'x'.repeat(300)}`)}`],
    [`Basic ${'A'.repeat(2000)}`],
    [`Basic ${b64(`${KEY}:x`)} trailing`],
  ])('refuses %j', (header) => {
    expect(parseBasicAuth(header)).toBeNull();
  });
});

describe('secret hashing', () => {
  it('verifies the secret it hashed and nothing else; the same secret hashes differently each time', async () => {
    const hash = await hashSecret('correct horse');
    expect(hash).not.toContain('correct horse');
    expect(await verifySecret('correct horse', hash)).toBe(true);
    expect(await verifySecret('correct horsf', hash)).toBe(false);
    expect(await verifySecret('', hash)).toBe(false);
    expect(await hashSecret('correct horse')).not.toBe(hash);
  });

  it.each([['plain'], ['scrypt$1$2$3'], ['bcrypt$16384$8$1$c2FsdA$aGFzaA'], ['scrypt$abc$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA'], ['scrypt$99999999$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA'], ['scrypt$16384$8$1$c2FsdA$short']])(
    'answers false, without throwing, for the stored value %j',
    async (stored) => {
      expect(await verifySecret('anything', stored)).toBe(false);
    },
  );
});
