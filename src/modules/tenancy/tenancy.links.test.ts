import { describe, expect, it } from 'vitest';
import {
  canonicalContentPath,
  isUnprefixedPageSlug,
  linkAttributes,
  resolveLink,
  telHref,
  type LinkTenant,
} from './tenancy.links';

const pagesSite: LinkTenant = { config: { usePagesPath: true }, url: 'https://www.harbourcity.example' };
const plainSite: LinkTenant = { config: { usePagesPath: false }, url: 'harbourcity.example' };

describe('SPEC §2 link rules: the /pages prefix', () => {
  it.each([
    ['/pages/privacy-policy', '/privacy-policy'],
    ['/pages/terms', '/terms'],
    ['/pages/terms-and-conditions', '/terms-and-conditions'],
    ['/pages/about-us', '/about-us'],
    ['/pages/parts-and-accessories', '/parts-and-accessories'],
    ['/pages/vehicle-parts-and-accessories', '/vehicle-parts-and-accessories'],
  ])('strips it from %s on a website that uses a pages path', (url, expected) => {
    expect(resolveLink(pagesSite, url)).toEqual({ kind: 'internal', href: expected });
  });

  it('keeps it for other pages on a website that uses a pages path', () => {
    expect(resolveLink(pagesSite, '/pages/faq')).toEqual({ kind: 'internal', href: '/pages/faq' });
    expect(resolveLink(pagesSite, '/pages/mechanical-warranty')).toEqual({
      kind: 'internal',
      href: '/pages/mechanical-warranty',
    });
    // A word that merely contains a key is not a match.
    expect(resolveLink(pagesSite, '/pages/determs')).toEqual({ kind: 'internal', href: '/pages/determs' });
  });

  it('strips it from every /pages/ link when the website does not use a pages path', () => {
    expect(resolveLink(plainSite, '/pages/faq')).toEqual({ kind: 'internal', href: '/faq' });
    expect(resolveLink(plainSite, '/pages/mechanical-warranty')).toEqual({ kind: 'internal', href: '/mechanical-warranty' });
    expect(resolveLink(plainSite, '/pages/about-us')).toEqual({ kind: 'internal', href: '/about-us' });
  });

  it('keeps the query string and hash, drops a trailing slash, and leaves other paths alone', () => {
    expect(resolveLink(plainSite, '/pages/faq/?q=1#finance')).toEqual({ kind: 'internal', href: '/faq?q=1#finance' });
    expect(resolveLink(pagesSite, '/terms-and-conditions/')).toEqual({ kind: 'internal', href: '/terms-and-conditions' });
    expect(resolveLink(pagesSite, '/search/used-cars')).toEqual({ kind: 'internal', href: '/search/used-cars' });
    expect(resolveLink(pagesSite, '/')).toEqual({ kind: 'internal', href: '/' });
    expect(resolveLink(pagesSite, '/pages')).toEqual({ kind: 'internal', href: '/pages' });
  });

  it('treats links to the dealer’s own domain as internal paths, with the same rules', () => {
    expect(resolveLink(pagesSite, 'https://www.harbourcity.example/pages/about-us')).toEqual({
      kind: 'internal',
      href: '/about-us',
    });
    expect(resolveLink(plainSite, 'https://www.harbourcity.example/pages/faq?x=1')).toEqual({
      kind: 'internal',
      href: '/faq?x=1',
    });
    expect(resolveLink(pagesSite, 'about-us')).toEqual({ kind: 'internal', href: '/about-us' });
  });
});

describe('SPEC §2 link rules: plain anchors and new tabs', () => {
  it.each(['tel:0295550100', 'tel:+61 2 9555 0100', 'mailto:sales@harbourcity.example', 'sms:0412345678'])(
    '%s is a plain anchor',
    (url) => {
      const link = resolveLink(pagesSite, url);
      expect(link).toEqual({ kind: 'plain', href: url });
      expect(linkAttributes(link!)).toEqual({ href: url });
    },
  );

  it.each([
    'https://maps.google.com/?q=1+Harbour+St',
    'https://maps.google.com.au/maps?q=Sydney',
    'https://www.google.com/maps/place/Harbour+City',
    'https://www.google.com.au/maps?q=Sydney',
    'https://maps.apple.com/?address=Sydney',
    'https://goo.gl/maps/abc123',
    'https://maps.app.goo.gl/abc123',
  ])('maps link %s is a plain anchor', (url) => {
    const link = resolveLink(pagesSite, url)!;
    expect(link.kind).toBe('plain');
    expect(linkAttributes(link)).not.toHaveProperty('target');
  });

  it('a Google link that is not maps, and other sites, open in a new tab with noopener noreferrer', () => {
    for (const url of ['https://www.google.com/search?q=cars', 'https://www.facebook.com/harbourcity', 'http://example.org']) {
      const link = resolveLink(pagesSite, url)!;
      expect(link.kind).toBe('external');
      expect(linkAttributes(link)).toEqual({ href: link.href, target: '_blank', rel: 'noopener noreferrer' });
    }
  });

  it('a host typed without a scheme, and protocol-relative links, are external https links', () => {
    expect(resolveLink(pagesSite, 'www.instagram.com/harbourcity')).toEqual({
      kind: 'external',
      href: 'https://www.instagram.com/harbourcity',
    });
    expect(resolveLink(pagesSite, '//cdn.example.org/brochure.pdf')).toEqual({
      kind: 'external',
      href: 'https://cdn.example.org/brochure.pdf',
    });
  });

  it('an anchor on the page is a plain link', () => {
    expect(resolveLink(pagesSite, '#vehicle-map')).toEqual({ kind: 'plain', href: '#vehicle-map' });
  });

  it('refuses empty and script links', () => {
    expect(resolveLink(pagesSite, '')).toBeNull();
    expect(resolveLink(pagesSite, '   ')).toBeNull();
    expect(resolveLink(pagesSite, null)).toBeNull();
    expect(resolveLink(pagesSite, 'javascript:alert(1)')).toBeNull();
    expect(resolveLink(pagesSite, ' JavaScript:alert(1)')).toBeNull();
    expect(resolveLink(pagesSite, 'data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(resolveLink(pagesSite, 'vbscript:msgbox(1)')).toBeNull();
    // Tabs and newlines inside, and control characters around, do not hide the scheme.
    expect(resolveLink(pagesSite, 'java\tscript:alert(1)')).toBeNull();
    expect(resolveLink(pagesSite, 'java\nscr\ript:alert(1)')).toBeNull();
    expect(resolveLink(pagesSite, '\u0001\u0010javascript:alert(1)')).toBeNull();
  });
});

describe('canonical content paths', () => {
  it('uses /pages/{slug} on a pages-path website except for the unprefixed pages', () => {
    expect(canonicalContentPath(pagesSite.config, { slug: 'faq', kind: 'faq' })).toBe('/pages/faq');
    expect(canonicalContentPath(pagesSite.config, { slug: 'mechanical-warranty' })).toBe('/pages/mechanical-warranty');
    for (const slug of ['privacy-policy', 'terms-and-conditions', 'about-us', 'parts-and-accessories']) {
      expect(canonicalContentPath(pagesSite.config, { slug })).toBe(`/${slug}`);
    }
  });

  it('uses /{slug} for every page on a website without a pages path, and /blog/{slug} for posts', () => {
    expect(canonicalContentPath(plainSite.config, { slug: 'faq', kind: 'faq' })).toBe('/faq');
    expect(canonicalContentPath(plainSite.config, { slug: 'about-us' })).toBe('/about-us');
    expect(canonicalContentPath(pagesSite.config, { slug: 'new-showroom', kind: 'blog' })).toBe('/blog/new-showroom');
  });

  it('matches unprefixed keys as whole words', () => {
    expect(isUnprefixedPageSlug('terms')).toBe(true);
    expect(isUnprefixedPageSlug('finance-terms')).toBe(true);
    expect(isUnprefixedPageSlug('about-us-and-our-team')).toBe(true);
    expect(isUnprefixedPageSlug('aboutus')).toBe(false);
    expect(isUnprefixedPageSlug('faq')).toBe(false);
  });
});

describe('telHref', () => {
  it('keeps digits and a leading plus', () => {
    expect(telHref('(02) 9555 0100')).toBe('tel:0295550100');
    expect(telHref('+61 2 9555 0100')).toBe('tel:+61295550100');
    expect(telHref('1-800 555 0199')).toBe('tel:18005550199');
    expect(telHref('')).toBeNull();
    expect(telHref('call us')).toBeNull();
  });
});
