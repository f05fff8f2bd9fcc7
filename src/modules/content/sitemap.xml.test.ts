import { describe, expect, it } from 'vitest';
import { validateSitemap } from '../../../tests/support/sitemap-schema';
import { collect, escapeXml, sitemapIndexXml, SITEMAP_NAMESPACE, urlsetChunks, w3cDateTime, xmlStream } from './sitemap.xml';

const origin = new URL('https://harbour-city-motors.example');
const head = `<?xml version="1.0" encoding="UTF-8"?>\n`;
const urlset = (inner: string) => `${head}<urlset xmlns="${SITEMAP_NAMESPACE}">${inner}</urlset>`;

describe('sitemap writer', () => {
  it('writes a urlset the validator accepts, with absolute, escaped locations and W3C dates', async () => {
    const xml = await collect(
      urlsetChunks(origin, [
        [{ path: '/' }, { path: '/search/used-cars/toyota/hilux' }],
        [],
        [{ path: "/cars/2024-toyota-hilux-sr5?ref=a&b='c'", lastModified: new Date('2026-03-01T09:00:00.123Z') }],
      ]),
    );
    const report = validateSitemap(xml);
    expect(report.errors).toEqual([]);
    expect(report.kind).toBe('urlset');
    expect(report.locs).toEqual([
      'https://harbour-city-motors.example/',
      'https://harbour-city-motors.example/search/used-cars/toyota/hilux',
      "https://harbour-city-motors.example/cars/2024-toyota-hilux-sr5?ref=a&b=%27c%27",
    ]);
    expect(report.lastmods).toEqual(['2026-03-01T09:00:00Z']);
    expect(xml).toContain('?ref=a&amp;b=%27c%27');
  });

  it('percent-encodes characters a path may carry (spaces, accents)', async () => {
    const xml = await collect(urlsetChunks(origin, [[{ path: '/search/used-cars/škoda/a b' }]]));
    expect(validateSitemap(xml).errors).toEqual([]);
    expect(validateSitemap(xml).locs).toEqual(['https://harbour-city-motors.example/search/used-cars/%C5%A1koda/a%20b']);
  });

  it('writes an empty urlset for a website with nothing to list, still valid', async () => {
    const report = validateSitemap(await collect(urlsetChunks(origin, [])));
    expect(report).toMatchObject({ kind: 'urlset', locs: [], errors: [] });
  });

  it('writes a sitemap index the validator accepts', () => {
    const xml = sitemapIndexXml(origin, [
      { path: '/sitemaps/pages-1.xml' },
      { path: '/sitemaps/cars-1.xml', lastModified: new Date('2026-11-20T01:02:03Z') },
    ]);
    const report = validateSitemap(xml);
    expect(report.errors).toEqual([]);
    expect(report.kind).toBe('sitemapindex');
    expect(report.locs).toEqual([
      'https://harbour-city-motors.example/sitemaps/pages-1.xml',
      'https://harbour-city-motors.example/sitemaps/cars-1.xml',
    ]);
  });

  it('escapes the five XML characters and formats dates to the second', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
    expect(w3cDateTime(new Date('2026-01-15T09:00:00.999Z'))).toBe('2026-01-15T09:00:00Z');
  });

  it('streams the chunks as UTF-8 bytes', async () => {
    const stream = xmlStream(urlsetChunks(origin, [[{ path: '/about-us' }]]));
    const text = await new Response(stream).text();
    expect(validateSitemap(text).locs).toEqual(['https://harbour-city-motors.example/about-us']);
  });
});

describe('sitemap validator (sitemaps.org 0.9)', () => {
  const loc = '<loc>https://example.com/</loc>';
  const cases: Array<[string, string, RegExp]> = [
    ['no declaration', `<urlset xmlns="${SITEMAP_NAMESPACE}"><url>${loc}</url></urlset>`, /declaration/],
    ['wrong namespace', `${head}<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url>${loc}</url></urlset>`, /namespace/],
    ['wrong root', `${head}<urls xmlns="${SITEMAP_NAMESPACE}"></urls>`, /root element/],
    ['url without loc', urlset('<url><lastmod>2026-01-01</lastmod></url>'), /no <loc>/],
    ['relative loc', urlset('<url><loc>/cars/x-y-z-123456</loc></url>'), /absolute URL/],
    ['non-http loc', urlset('<url><loc>javascript:alert(1)//x</loc></url>'), /http/],
    ['unescaped space', urlset('<url><loc>https://example.com/a b</loc></url>'), /URL-escaped/],
    ['unescaped ampersand', urlset('<url><loc>https://example.com/?a=1&b=2</loc></url>'), /unescaped "&"/],
    ['bad lastmod', urlset(`<url>${loc}<lastmod>2026-13-01</lastmod></url>`), /W3C Datetime/],
    ['lastmod with no zone', urlset(`<url>${loc}<lastmod>2026-01-01T10:00:00</lastmod></url>`), /W3C Datetime/],
    ['lastmod before loc', urlset(`<url><lastmod>2026-01-01</lastmod>${loc}</url>`), /out of order/],
    ['two locs', urlset(`<url>${loc}${loc}</url>`), /repeated/],
    ['bad changefreq', urlset(`<url>${loc}<changefreq>sometimes</changefreq></url>`), /changefreq/],
    ['bad priority', urlset(`<url>${loc}<priority>1.5</priority></url>`), /priority/],
    ['unknown element', urlset(`<url>${loc}<image>x</image></url>`), /unknown element/],
    ['sitemap in a urlset', urlset(`<sitemap>${loc}</sitemap>`), /<sitemap> inside <urlset>/],
    ['url in an index', `${head}<sitemapindex xmlns="${SITEMAP_NAMESPACE}"><url>${loc}</url></sitemapindex>`, /<url> inside/],
    ['changefreq in an index', `${head}<sitemapindex xmlns="${SITEMAP_NAMESPACE}"><sitemap>${loc}<changefreq>daily</changefreq></sitemap></sitemapindex>`, /unknown element/],
    ['not closed', `${head}<urlset xmlns="${SITEMAP_NAMESPACE}"><url>${loc}</url>`, /never closed/],
    ['mismatched close', urlset(`<url>${loc}</urls>`), /closes/],
    ['DOCTYPE', `${head}<!DOCTYPE urlset><urlset xmlns="${SITEMAP_NAMESPACE}"></urlset>`, /DOCTYPE/],
  ];
  for (const [label, xml, error] of cases) {
    it(`rejects ${label}`, () => {
      const { errors } = validateSitemap(xml);
      expect(errors.join('\n')).toMatch(error);
    });
  }

  it('accepts every W3C Datetime precision and the optional elements in order', () => {
    const dates = ['2026', '2026-11', '2026-11-21', '2026-11-21T10:30+11:00', '2026-11-21T10:30:05Z', '2026-11-21T10:30:05.25-05:00'];
    const xml = urlset(dates.map((d) => `<url>${loc}<lastmod>${d}</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>`).join(''));
    expect(validateSitemap(xml).errors).toEqual([]);
  });

  it('counts 50,000 entries as the most a file may hold', () => {
    const entry = `<url>${loc}</url>`;
    expect(validateSitemap(urlset(entry.repeat(50_000))).errors).toEqual([]);
    expect(validateSitemap(urlset(entry.repeat(50_001))).errors.join()).toMatch(/more than 50000/);
  });

  it('refuses a file over 50 MB', () => {
    const long = `<url><loc>https://example.com/${'a'.repeat(2000)}</loc></url>`;
    const xml = urlset(long.repeat(Math.ceil(52_428_800 / long.length) + 1));
    expect(validateSitemap(xml).errors.join()).toMatch(/larger than 52428800 bytes/);
  });
});
