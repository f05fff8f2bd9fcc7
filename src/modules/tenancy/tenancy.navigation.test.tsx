import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { parseWebsiteConfig } from './tenancy.config';
import { buildNavEntries, carTypeQuickLinks } from './components/navigation-model';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';
import { HelpLinks } from './components/home-sections';
import type { NavigationItem, Tenant } from './tenancy.types';

function item(id: number, name: string, url: string, dropdownItems: NavigationItem[] = []): NavigationItem {
  return { id, name, url, dropdownItems };
}

function tenant(overrides: Partial<Tenant> = {}, config: object = {}): Tenant {
  return {
    id: 1,
    slug: 'harbour-city-motors',
    name: 'Harbour City Motors',
    template: 'default',
    phone: '(02) 9555 0100',
    logoUrl: '/media/logos/harbour.svg',
    url: 'https://www.harbourcity.example',
    city: 'Sydney',
    state: 'NSW',
    overrideCity: null,
    dealershipGroup: null,
    manufacturer: null,
    config: parseWebsiteConfig(config),
    ...overrides,
  };
}

const header = [
  item(1, 'Stock', '', [
    item(2, 'New Cars', '/search/new-cars'),
    item(3, 'Used Cars', '/search/used-cars/'),
    item(4, '', '/search/demo-cars'),
  ]),
  item(5, 'Finance', '/finance'),
  item(6, 'About', '/pages/about-us'),
  item(7, 'Facebook', 'https://facebook.com/harbourcity'),
  item(8, 'Broken', 'javascript:alert(1)'),
  item(9, 'Empty group', '', [item(10, 'Nothing', '')]),
];

describe('navigation entries', () => {
  it('resolves every link by the link rules and drops empty or unsafe entries', () => {
    const entries = buildNavEntries(tenant(), header);
    expect(entries.map((e) => e.label)).toEqual(['Stock', 'Finance', 'About', 'Facebook']);
    expect(entries[0].link).toBeNull();
    expect(entries[0].children.map((c) => c.link?.href)).toEqual(['/search/new-cars', '/search/used-cars']);
    expect(entries[2].link).toEqual({ kind: 'internal', href: '/about-us' });
    expect(entries[3].link?.kind).toBe('external');
  });

  it('derives quick links by car type from the dealer’s own stock links', () => {
    expect(carTypeQuickLinks(buildNavEntries(tenant(), header))).toEqual([
      { carType: 'new', label: 'New Cars', href: '/search/new-cars' },
      { carType: 'used', label: 'Used Cars', href: '/search/used-cars' },
    ]);
    expect(carTypeQuickLinks(buildNavEntries(tenant(), [item(1, 'Trucks', '/search/new-used-and-demo-trucks')]))).toEqual(
      [],
    );
  });

  it('prefers a menu’s own items to its heading, and offers nothing where there is no choice of type', () => {
    const usedYard = [item(1, 'Stock', '/search/used-cars', [item(2, 'Used Cars', '/search/used-cars'), item(3, 'All cars', '/all')])];
    expect(carTypeQuickLinks(buildNavEntries(tenant(), usedYard))).toEqual([]);
    const twoTypes = [item(1, 'Stock', '/search/used-cars', [item(2, 'Pre-owned', '/search/used-cars'), item(3, 'Demo', '/search/demo-cars')])];
    expect(carTypeQuickLinks(buildNavEntries(tenant(), twoTypes)).map((l) => l.label)).toEqual(['Pre-owned', 'Demo']);
  });
});

describe('header and footer markup', () => {
  it('renders a labelled main navigation with every dropdown link, the logo with its size, and a tel: link', () => {
    const html = renderToStaticMarkup(<SiteHeader tenant={tenant()} entries={buildNavEntries(tenant(), header)} />);
    expect(html).toMatch(/<header[^>]*>/);
    expect(html).toContain('<nav aria-label="Main">');
    expect(html).toContain('href="/search/used-cars"');
    expect(html).toContain('href="/about-us"');
    expect(html).toMatch(/<a[^>]*href="https:\/\/facebook.com\/harbourcity"[^>]*target="_blank"[^>]*rel="noopener noreferrer"/);
    expect(html).toContain('href="tel:0295550100"');
    expect(html).toMatch(/<img[^>]*alt="Harbour City Motors home"[^>]*width="260"[^>]*height="56"/);
    expect(html).not.toContain('javascript:');
  });

  it('gives the override template a contact bar and a centred logo', () => {
    const plain = renderToStaticMarkup(<SiteHeader tenant={tenant()} entries={[]} />);
    const override = renderToStaticMarkup(
      <SiteHeader tenant={tenant({ template: 'override', overrideCity: 'Labrador', state: 'QLD' })} entries={[]} />,
    );
    expect(override).toContain('Labrador, QLD');
    expect(override).toContain('object-center');
    expect(plain).not.toContain('Labrador');
    expect(plain).not.toContain('object-center');
  });

  it('uses US spelling on en-US websites', () => {
    const us = renderToStaticMarkup(<HelpLinks tenant={tenant({}, { locale: 'en-US' })} />);
    expect(us).toContain('Send us an inquiry');
    expect(us).not.toMatch(/enquir/i);
    expect(renderToStaticMarkup(<HelpLinks tenant={tenant()} />)).toContain('Send us an enquiry');
    const footer = renderToStaticMarkup(
      <SiteFooter tenant={tenant({}, { locale: 'en-US' })} entries={buildNavEntries(tenant(), [item(1, 'Privacy', '/privacy-policy')])} year={2026} />,
    );
    expect(footer).toContain('<footer');
    expect(footer).toContain('© 2026 Harbour City Motors');
  });

  it('renders footer groups as titled columns inside a labelled navigation', () => {
    const footer = [
      item(20, 'Company', '', [item(21, 'About us', '/pages/about-us'), item(22, 'Careers', '/careers')]),
      item(23, 'Privacy policy', '/pages/privacy-policy'),
      item(24, 'Find us', 'https://maps.google.com/?q=Harbour+City+Motors'),
    ];
    const html = renderToStaticMarkup(<SiteFooter tenant={tenant()} entries={buildNavEntries(tenant(), footer)} year={2026} />);
    expect(html).toContain('aria-label="Footer"');
    expect(html).toMatch(/<h2[^>]*>Company<\/h2>/);
    expect(html).toContain('href="/about-us"');
    expect(html).toContain('href="/privacy-policy"');
    expect(html).toMatch(/<a href="https:\/\/maps.google.com\/\?q=Harbour\+City\+Motors" class="[^"]*">Find us<\/a>/);
  });
});
