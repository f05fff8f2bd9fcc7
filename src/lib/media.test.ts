import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// env() reads MEDIA_DIR once, so it is set before anything asks for it.
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'media-test-'));
process.env.MEDIA_DIR = dir;

const { InvalidMediaKeyError, isValidMediaKey, localMediaStore, mediaContentType, mediaDir, mediaUrl, putMedia, readMedia } =
  await import('./media');
const { GET } = await import('@/app/media/[...path]/route');

const HOSTILE_KEYS = [
  '',
  '../etc/passwd',
  'cars/../../secret.jpg',
  '..',
  '/etc/passwd.jpg',
  '/abs/file.png',
  'cars\\x.jpg',
  'cars/x.jpg\u0000.png',
  'cars//x.jpg',
  'cars/.hidden.jpg',
  '.jpg',
  'cars/x.JPG',
  'Cars/x.jpg',
  'cars/x.jpg.exe',
  'cars/x.html',
  'cars/x',
  'cars/x.jpg/',
  'cars/x y.jpg',
  'cars/%2e%2e/x.jpg',
  'c:/windows/x.jpg',
  `${'a'.repeat(300)}.jpg`,
];

function get(segments: string[]) {
  const url = `http://dealer.example/media/${segments.map(encodeURIComponent).join('/')}`;
  return GET(new Request(url), { params: Promise.resolve({ path: segments }) });
}

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('media keys', () => {
  it('accepts safe relative keys with an allowed extension', () => {
    for (const key of ['cars/ab12cd.jpg', 'logos/harbour-city-motors.svg', 'reports/a_b.pdf', 'x.webp', 'a/b/c/d.png', 'p.jpeg']) {
      expect(isValidMediaKey(key), key).toBe(true);
    }
  });

  it('refuses traversal, absolute paths, backslashes, NUL, odd characters and unknown extensions', () => {
    for (const key of HOSTILE_KEYS) {
      expect(isValidMediaKey(key), JSON.stringify(key)).toBe(false);
      expect(() => mediaUrl(key)).toThrow(InvalidMediaKeyError);
    }
    expect(isValidMediaKey(undefined)).toBe(false);
    expect(isValidMediaKey(42)).toBe(false);
  });

  it('maps extensions to content types', () => {
    expect(mediaContentType('a.jpg')).toBe('image/jpeg');
    expect(mediaContentType('a.jpeg')).toBe('image/jpeg');
    expect(mediaContentType('a.png')).toBe('image/png');
    expect(mediaContentType('a.webp')).toBe('image/webp');
    expect(mediaContentType('a.svg')).toBe('image/svg+xml');
    expect(mediaContentType('a.pdf')).toBe('application/pdf');
  });

  it('builds /media URLs', () => {
    expect(mediaUrl('cars/abc.jpg')).toBe('/media/cars/abc.jpg');
  });
});

describe('local media store', () => {
  it('uses MEDIA_DIR', () => {
    expect(mediaDir()).toBe(path.resolve(dir));
  });

  it('round-trips bytes with the content type, and overwrites', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02]);
    await putMedia('cars/round-trip.jpg', bytes);
    const read = await readMedia('cars/round-trip.jpg');
    expect(read?.contentType).toBe('image/jpeg');
    expect(Buffer.compare(read!.bytes, bytes)).toBe(0);
    expect(await fs.readFile(path.join(dir, 'cars', 'round-trip.jpg'))).toEqual(bytes);

    await putMedia('cars/round-trip.jpg', 'second');
    expect((await readMedia('cars/round-trip.jpg'))?.bytes.toString()).toBe('second');
    // No temp files are left behind.
    expect(await fs.readdir(path.join(dir, 'cars'))).toEqual(['round-trip.jpg']);
  });

  it('answers null for a missing file, and for a directory', async () => {
    expect(await readMedia('cars/missing.jpg')).toBeNull();
    await fs.mkdir(path.join(dir, 'folder.jpg'), { recursive: true });
    expect(await readMedia('folder.jpg')).toBeNull();
  });

  it('refuses to write or read outside its directory', async () => {
    const store = localMediaStore(dir);
    await expect(store.put('../escape.jpg', 'x')).rejects.toThrow(InvalidMediaKeyError);
    await expect(store.read('../../etc/passwd')).rejects.toThrow(InvalidMediaKeyError);
    await expect(fs.stat(path.join(dir, '..', 'escape.jpg'))).rejects.toThrow();
  });

  it('knows whether a file exists', async () => {
    const store = localMediaStore(dir);
    expect(await store.exists('x/exists.png')).toBe(false);
    await store.put('x/exists.png', 'png');
    expect(await store.exists('x/exists.png')).toBe(true);
  });
});

describe('GET /media/[...path]', () => {
  beforeAll(async () => {
    await putMedia('logos/demo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await putMedia('reports/demo.pdf', '%PDF-1.4\n%%EOF\n');
    await putMedia('cars/served.jpg', Buffer.from([1, 2, 3, 4]));
    // A file beside the media directory that traversal would reach.
    await fs.writeFile(path.join(dir, '..', `outside-${path.basename(dir)}.jpg`), 'secret');
  });

  afterAll(async () => {
    await fs.rm(path.join(dir, '..', `outside-${path.basename(dir)}.jpg`), { force: true });
  });

  it('serves an existing file with an immutable cache', async () => {
    const response = await get(['cars', 'served.jpg']);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-length')).toBe('4');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3, 4]);
  });

  it('serves SVG under a policy that lets no script run', async () => {
    const response = await get(['logos', 'demo.svg']);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves PDF as application/pdf', async () => {
    const response = await get(['reports', 'demo.pdf']);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(await response.text()).toContain('%PDF-1.4');
  });

  it('answers 404 for a missing file', async () => {
    const response = await get(['cars', 'nope.jpg']);
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 404, never a 5xx, for hostile paths', async () => {
    const attempts: string[][] = [
      ['..', `outside-${path.basename(dir)}.jpg`],
      ['cars', '..', '..', `outside-${path.basename(dir)}.jpg`],
      [`../outside-${path.basename(dir)}.jpg`],
      ['%2e%2e', 'x.jpg'],
      ['cars', 'x.jpg\u0000'],
      ['cars\\..\\x.jpg'],
      ['', 'etc', 'passwd'],
      ['etc', 'passwd'],
      ['folder.jpg'],
      ['cars'],
      [],
      ['a'.repeat(5000) + '.jpg'],
      ['cars', 'served.jpg', ''],
    ];
    for (const segments of attempts) {
      const response = await get(segments);
      expect(response.status, JSON.stringify(segments)).toBe(404);
      expect(await response.text()).not.toContain('secret');
    }
  });

  it('copes with a context without the catch-all parameter', async () => {
    const response = await GET(new Request('http://dealer.example/media'), { params: Promise.resolve({}) });
    expect(response.status).toBe(404);
  });
});
