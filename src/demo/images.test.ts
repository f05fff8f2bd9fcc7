import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { localMediaStore } from '@/lib/media';
import { escapeXml, logoSvg, renderPhotos, renderVehiclePhoto, shade, vehiclePhotoSvg } from './images';
import { simplePdf } from './pdf';
import { photoKey, type PhotoSpec } from './stock';

function spec(overrides: Partial<PhotoSpec> = {}): PhotoSpec {
  const base = { itemType: 'car' as const, silhouette: 'ute' as const, make: 'Toyota', model: 'HiLux', colour: 'Red', colourHex: '#b3202b', angle: 'Side', ...overrides };
  return { key: photoKey(base), ...base };
}

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'seed-images-'));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

describe('placeholder vehicle photos', () => {
  it('shows the make, model, colour and view, escaped', () => {
    const svg = vehiclePhotoSvg(spec({ make: 'A&B <Motors>', model: `19'6" Family`, angle: 'Front three-quarter' }));
    expect(svg).toContain('A&amp;B &lt;Motors&gt; 19&#39;6&quot; Family');
    expect(svg).toContain('>Red<');
    expect(svg).toContain('>Front three-quarter<');
    expect(svg).not.toContain('<Motors>');
  });

  it('paints the vehicle in its colour', () => {
    expect(vehiclePhotoSvg(spec({ colourHex: '#123456' }))).toContain('fill="#123456"');
  });

  it('renders a 960×640 JPEG for every kind of vehicle and view', async () => {
    const kinds = [
      ['car', 'sedan'],
      ['car', 'hatch'],
      ['car', 'suv'],
      ['car', 'van'],
      ['truck', 'truck'],
      ['truck', 'prime-mover'],
      ['motorcycle', 'motorcycle'],
      ['caravan', 'caravan'],
      ['campervan', 'campervan'],
    ] as const;
    const angles = ['Side', 'Front', 'Rear three-quarter', 'Interior', 'Wheel', 'Engine bay', 'Bed', 'Other side'];
    for (const [itemType, silhouette] of kinds) {
      for (const angle of angles) {
        const jpeg = await renderVehiclePhoto(spec({ itemType, silhouette, angle }));
        const meta = await sharp(jpeg).metadata();
        expect([meta.format, meta.width, meta.height], `${silhouette} ${angle}`).toEqual(['jpeg', 960, 640]);
      }
    }
  });

  it('actually draws the vehicle in its colour (not a blank backdrop)', async () => {
    const jpeg = await renderVehiclePhoto(spec({ colourHex: '#b3202b', angle: 'Side' }));
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    let reddish = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      if (data[i] > 140 && data[i + 1] < 70 && data[i + 2] < 80) reddish++;
    }
    expect(reddish / (info.width * info.height)).toBeGreaterThan(0.03);
  });

  it('renders only what is missing, and writes it under its content address', async () => {
    const store = localMediaStore(tmp);
    const specs = [spec({ angle: 'Side' }), spec({ angle: 'Rear' })];
    expect(await renderPhotos(store, specs, { concurrency: 2 })).toEqual({ written: 2, skipped: 0 });
    expect(await renderPhotos(store, [...specs, spec({ angle: 'Front' })], { concurrency: 2 })).toEqual({ written: 1, skipped: 2 });
    const file = await store.read(specs[0].key);
    expect(file?.contentType).toBe('image/jpeg');
    expect(file!.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});

describe('logos', () => {
  it('is a wordmark with the dealer name in its colours, and renders', async () => {
    const svg = logoSvg('Southern Cross Škoda', { primary: '#0e3a2f', primaryForeground: '#ffffff', accent: '#78faae', fontStack: 'sans', radius: 0 });
    expect(svg).toContain('>Southern Cross Škoda</text>');
    expect(svg).toContain('fill="#0e3a2f"');
    expect(svg).toContain('>SC</text>');
    expect(svg).not.toMatch(/<script|href=/i);
    const meta = await sharp(Buffer.from(svg)).metadata();
    expect(meta.format).toBe('svg');
    expect(meta.width).toBeGreaterThan(300);
  });
});

describe('helpers', () => {
  it('escapes XML and shades colours', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
    expect(shade('#808080', -1)).toBe('#000000');
    expect(shade('#808080', 1)).toBe('#ffffff');
    expect(shade('#808080', 0)).toBe('#808080');
  });
});

describe('history report PDF', () => {
  const pdf = simplePdf('Report (demo)', [{ text: 'Southern Cross Škoda', bold: true, size: 18 }, { text: 'Line with (parens) and \\ backslash' }]);
  const text = pdf.toString('latin1');

  it('has a header, a trailer and an xref whose offsets point at each object', () => {
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const entries = text.slice(startxref).split('\n').slice(3).filter((l) => / \d{5} n $/.test(l));
    expect(entries.length).toBe(7);
    entries.forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
  });

  it('declares the exact content stream length and escapes text', () => {
    const match = /<< \/Length (\d+) >>\nstream\n/.exec(text)!;
    const start = match.index + match[0].length;
    const length = Number(match[1]);
    expect(text.slice(start + length, start + length + '\nendstream'.length)).toBe('\nendstream');
    expect(text).toContain('(Southern Cross Skoda) Tj');
    expect(text).toContain('(Line with \\(parens\\) and \\\\ backslash) Tj');
  });
});
