import type { navigationItems, searchPages } from '@/modules/tenancy/tenancy.schema';
import { placeUrl, type SiteSeed } from './sites';
import { slugify, type CarRow } from './stock';

export type NavigationRow = typeof navigationItems.$inferInsert & { id: number };
export type SearchPageRow = typeof searchPages.$inferInsert;

type Item = { name: string; url: string; children?: Item[] };

/** '(02) 5550 4100' → '+61255504100'; '09 555 0140' → '+6495550140'; '(512) 555-0142' → '+15125550142'. */
export function e164(phone: string, country: SiteSeed['country']): string {
  const digits = phone.replace(/\D/g, '');
  if (country === 'US') return `+1${digits.replace(/^1(?=\d{10}$)/, '')}`;
  return `+${country === 'NZ' ? '64' : '61'}${digits.replace(/^0/, '')}`;
}

function carTypesIn(stock: readonly CarRow[]): Set<string> {
  return new Set(stock.map((c) => c.carType));
}

function vehicleNoun(site: SiteSeed): string {
  const word = site.vehicleWord;
  return word === 'caravans and campervans' ? 'RVs' : word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Header and footer menus. Some sites link content as /pages/… and some do not, so the link
 * rules (strip /pages for privacy, terms, about-us…, and for every /pages/ link when the site
 * does not use a pages path) have real links to work on.
 */
export function navigationFor(site: SiteSeed, stock: readonly CarRow[]): NavigationRow[] {
  const types = carTypesIn(stock);
  const search = site.config.search ?? {};
  const defaultSlug = search.defaultSlug ?? 'new-used-and-demo-cars';
  const noun = vehicleNoun(site);
  const preOwned = site.config.usedConditionLabel === 'pre-owned';
  const pagesStyle = site.id % 2 === 0 || site.config.usePagesPath === true;
  const page = (slug: string) => (pagesStyle ? `/pages/${slug}` : `/${slug}`);

  const stockItems: Item[] = [];
  if (types.has('new')) stockItems.push({ name: `New ${noun}`, url: '/search/new-cars' });
  if (types.has('used')) {
    stockItems.push(
      preOwned && search.allStockPath
        ? { name: `Pre-owned ${noun}`, url: search.allStockPath }
        : { name: `Used ${noun}`, url: '/search/used-cars' },
    );
  }
  if (types.has('demo')) stockItems.push({ name: `Demo ${noun}`, url: '/search/demo-cars' });
  stockItems.push({ name: `All ${noun.toLowerCase()}`, url: !preOwned && search.allStockPath ? search.allStockPath : `/search/${defaultSlug}` });

  const hasService = site.locations.some((l) => l.locationType.includes('service'));
  const sellUrl = site.extraPages.includes('selling-your-car-with-titan') ? '/selling-your-car-with-titan' : '/trade-in';
  const header: Item[] = [
    { name: 'Stock', url: `/search/${defaultSlug}`, children: stockItems },
    { name: 'Finance', url: '/finance' },
    { name: site.spelling === 'us' ? 'Sell or trade' : 'Sell your car', url: sellUrl },
    ...(hasService || site.vehicleWord === 'trucks' ? [{ name: 'Service', url: '/service' }] : []),
    {
      name: 'About',
      url: page('about-us'),
      children: [
        { name: 'About us', url: page('about-us') },
        { name: 'FAQ', url: '/pages/faq' },
        { name: 'Careers', url: '/careers' },
        { name: 'Blog', url: '/blog' },
      ],
    },
    { name: 'Contact', url: '/contact' },
  ];

  const primary = site.locations.find((l) => l.primary) ?? site.locations[0];
  const visible = site.locations.filter((l) => l.visible);
  const footer: Item[] = [
    ...(visible.length > 1
      ? [{ name: 'Our locations', url: '/contact', children: visible.map((l) => ({ name: l.name, url: `/our-locations/${l.slug}` })) }]
      : []),
    { name: 'Privacy policy', url: '/pages/privacy-policy' },
    { name: site.spelling === 'us' ? 'Terms of use' : 'Terms and conditions', url: site.id % 3 === 0 ? '/terms-and-conditions/' : '/pages/terms-and-conditions' },
    { name: 'Mechanical warranty', url: '/pages/mechanical-warranty' },
    { name: `Call ${site.phone}`, url: `tel:${e164(site.phone, site.country)}` },
    { name: 'Email us', url: `mailto:${site.email}` },
    { name: 'Find us', url: placeUrl(primary) },
    ...(site.externalLink ? [{ name: site.externalLink.name, url: site.externalLink.url }] : []),
  ];

  const rows: NavigationRow[] = [];
  let next = site.id * 1000 + 1;
  const add = (menu: 'header' | 'footer', items: Item[], parentId: number | null) => {
    items.forEach((item, position) => {
      const id = next++;
      rows.push({ id, websiteId: site.id, menu, parentId, position, name: item.name, url: item.url });
      if (item.children) add(menu, item.children, id);
    });
  };
  add('header', header, null);
  add('footer', footer, null);
  return rows;
}

function topModels(stock: readonly CarRow[], carType: string, count: number): Array<{ make: string; model: string }> {
  const tally = new Map<string, { make: string; model: string; n: number }>();
  for (const car of stock) {
    if (car.carType !== carType || car.status === 'sold') continue;
    const key = `${car.make}|${car.model}`;
    const entry = tally.get(key) ?? { make: car.make, model: car.model, n: 0 };
    entry.n++;
    tally.set(key, entry);
  }
  return [...tally.values()]
    .sort((a, b) => b.n - a.n || a.make.localeCompare(b.make) || a.model.localeCompare(b.model))
    .slice(0, count);
}

const display = (make: string) => (make === 'ŠKODA' ? 'Škoda' : make);

/** Search landing pages: the default slug, one per car type, the all-stock path and a few make/model pages. */
export function searchPagesFor(site: SiteSeed, stock: readonly CarRow[]): SearchPageRow[] {
  const types = carTypesIn(stock);
  const search = site.config.search ?? {};
  const defaultSlug = search.defaultSlug ?? 'new-used-and-demo-cars';
  const town = site.overrideCity ?? site.city;
  const noun = site.vehicleWord;
  const usedWord = site.config.usedConditionLabel === 'pre-owned' ? 'pre-owned' : 'used';
  const template = site.template;
  const pages: SearchPageRow[] = [];
  const add = (slug: string, title: string, heading: string, description: string, filters: Record<string, string[]>) => {
    if (pages.some((p) => p.slug === slug)) return;
    pages.push({ websiteId: site.id, slug, template, title: `${title} | ${site.name}`, heading, description, filters });
  };

  const typeWords = { new: 'New', used: usedWord.charAt(0).toUpperCase() + usedWord.slice(1), demo: 'Demo' } as const;
  const allTypes = (['new', 'used', 'demo'] as const).filter((t) => types.has(t));
  const headingAll = `${allTypes.map((t) => typeWords[t]).join(', ').replace(/, ([^,]*)$/, ' and $1')} ${noun}`;
  add(
    defaultSlug,
    `${headingAll} for sale in ${town}`,
    headingAll,
    `Browse every ${noun.replace(/s\b/g, '')} in stock at ${site.name}, ${town} ${site.state}.`,
    allTypes.length === 1 ? { car_type: [...allTypes] } : {},
  );
  for (const type of allTypes) {
    add(
      `${type}-cars`,
      `${typeWords[type]} ${noun} for sale in ${town}`,
      `${typeWords[type]} ${noun}`,
      `${typeWords[type]} ${noun} at ${site.name}. Finance, trade-ins and ${site.spelling === 'us' ? 'delivery across Texas' : 'delivery available'}.`,
      { car_type: [type] },
    );
  }
  if (search.allStockPath) {
    const slug = search.allStockPath.replace(/^\/+/, '');
    const used = site.config.usedConditionLabel === 'pre-owned';
    add(
      slug,
      used ? `Pre-owned ${noun} in ${town}` : `All ${noun} in ${town}`,
      used ? `Pre-owned ${noun}` : `${headingAll} in ${site.city}`,
      used
        ? `Quality pre-owned ${noun} at ${site.name}, many with the balance of factory warranty.`
        : `Every ${noun.replace(/s\b/g, '')} we have in ${site.city}, updated daily.`,
      used ? { car_type: ['used'] } : {},
    );
  }
  const landingType = types.has('used') ? 'used' : 'new';
  for (const { make, model } of topModels(stock, landingType, 2)) {
    add(
      `${landingType}-cars/${slugify(make)}/${slugify(model)}`,
      `${typeWords[landingType]} ${display(make)} ${model} for sale in ${town}`,
      `${typeWords[landingType]} ${display(make)} ${model}`,
      `${typeWords[landingType]} ${display(make)} ${model} in stock at ${site.name}.`,
      { car_type: [landingType], make: [make], model: [model] },
    );
  }
  const [topMake] = topModels(stock, landingType, 1);
  if (topMake) {
    add(
      `${landingType}-cars/${slugify(topMake.make)}`,
      `${typeWords[landingType]} ${display(topMake.make)} for sale in ${town}`,
      `${typeWords[landingType]} ${display(topMake.make)}`,
      `Every ${landingType === 'used' ? usedWord : 'new'} ${display(topMake.make)} at ${site.name}.`,
      { car_type: [landingType], make: [topMake.make] },
    );
  }
  return pages;
}
