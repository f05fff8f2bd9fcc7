import type { contentPages } from '@/modules/content/content.schema';
import type { SiteSeed } from './sites';

export type ContentPageRow = typeof contentPages.$inferInsert;

type Page = Omit<ContentPageRow, 'websiteId' | 'id'>;

/** Fixed publication dates: content does not move with the seed date. */
const published = (date: string) => new Date(`${date}T09:00:00Z`);

function list(items: string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function context(site: SiteSeed) {
  const us = site.spelling === 'us';
  const makes = [...new Set(site.dealerships.flatMap((d) => d.franchiseMakes))].map((m) => (m === 'ŠKODA' ? 'Škoda' : m));
  const visible = site.locations.filter((l) => l.visible);
  const town = site.overrideCity ?? site.city;
  return {
    us,
    nz: site.country === 'NZ',
    au: site.country === 'AU',
    makes,
    town,
    locations: visible,
    locationList: joinWords(visible.map((l) => `${l.city} (${l.street})`)),
    used: site.config.usedConditionLabel === 'pre-owned' || us ? 'pre-owned' : 'used',
    centre: us ? 'center' : 'centre',
    colour: us ? 'color' : 'colour',
    licence: us ? 'license' : 'licence',
    tyres: us ? 'tires' : 'tyres',
    organise: us ? 'organize' : 'organise',
    favourite: us ? 'favorite' : 'favourite',
    what: site.vehicleWord,
  };
}

function aboutUs(site: SiteSeed): Page {
  const c = context(site);
  const franchise = c.makes.length > 0 ? ` As the local ${joinWords(c.makes)} dealer, we sell new and demo ${c.what} with full factory backing, alongside a hand-picked range of ${c.used} stock.` : '';
  const body = `## Welcome to ${site.name}

${site.name} is a family-run ${c.what} business based in ${c.town}, ${site.state}.${franchise} Our team has been helping ${c.nz ? 'Kiwis' : c.us ? 'Texans' : 'locals'} find the right ${c.what.split(' ')[0].replace(/s$/, '')} for years, and most of our customers come back to us or send their friends.

## Where to find us

You can visit us at ${c.locationList}. Opening hours for each site are on our [contact page](/contact).

## Why buy from us

${list([
  `Every ${c.used} vehicle is inspected by our own technicians before it goes on sale.`,
  `Upfront pricing: the price you see online is the price you pay${c.us ? ', plus tax, title and license' : ''}.`,
  `Finance, insurance and trade-ins handled in one visit.`,
  c.au ? 'Roadworthy or safety certificate and a clear PPSR check on every used vehicle we sell.' : c.nz ? 'Every vehicle sold with a current WOF and a Consumer Information Notice.' : 'A free vehicle history report with every car we sell.',
])}

Call us on ${site.phone} or [send us a message](/contact). We look forward to meeting you.`;
  return {
    slug: 'about-us',
    kind: 'page',
    title: `About ${site.name}`,
    metaDescription: `${site.name} sells new and ${c.used} ${c.what} in ${c.town}, ${site.state}. Meet the team and find out why locals buy from us.`,
    body,
    publishedAt: published('2024-03-01'),
    updatedAt: published('2026-01-15'),
  };
}

function faq(site: SiteSeed): Page {
  const c = context(site);
  const qa: Array<[string, string]> = [
    [
      `Can I trade in my current vehicle?`,
      `Yes. Bring it in to any of our locations or use our online [trade-in form](/trade-in) for an obligation-free valuation. We accept ${c.what} of any age and condition.`,
    ],
    [
      `Do you offer finance?`,
      `We work with a panel of lenders and can arrange finance for personal and business buyers. [Apply online](/finance) in about five minutes; a pre-approval does not affect your credit score.`,
    ],
    [
      `Can I reserve a vehicle online?`,
      site.config.checkout?.enabled
        ? `On most vehicles, yes. Look for the Reserve button on the vehicle page and pay a refundable deposit by card. We will hold the vehicle for you while we ${c.organise} the paperwork.`
        : `Call us or send an enquiry and we will hold the vehicle for you for 24 hours while you arrange a visit.`,
    ],
    [
      `Do you deliver?`,
      c.us
        ? `We deliver anywhere in Texas, and can arrange shipping to other states on request.`
        : c.nz
          ? `We deliver throughout the North Island and can arrange inter-island shipping for South Island buyers.`
          : `We deliver across ${site.state} and can arrange interstate transport at cost.`,
    ],
    [
      `What warranty comes with a ${c.used} vehicle?`,
      `Every eligible ${c.used} vehicle comes with our ${site.name} mechanical warranty. See [mechanical warranty](/pages/mechanical-warranty) for what is covered.`,
    ],
    [
      `Can I book a test drive on the weekend?`,
      `Saturday test drives are our busiest, so please [book ahead](/book-test-drive/). Sunday hours vary by location; see the [contact page](/contact).`,
    ],
  ];
  if (site.vehicleWord === 'trucks') {
    qa.push([`Do I need a special ${c.licence} to drive a light truck?`, `Trucks up to 4.5 tonnes GVM can be driven on a car ${c.licence}. Anything heavier needs a light rigid (LR) ${c.licence} or higher; our team can tell you which class each truck needs.`]);
  }
  if (site.vehicleWord === 'motorcycles') {
    qa.push([`Which bikes can learners ride?`, `Look for the LAMS category in our search: those bikes are approved under the Learner Approved Motorcycle Scheme for learner and provisional riders.`]);
  }
  if (site.vehicleWord.includes('caravan')) {
    qa.push([`Will my car tow this caravan?`, `Check your vehicle's towing capacity and tow-ball download against the caravan's ATM and ball weight. Our team will check the match for you before you buy.`]);
  }
  return {
    slug: 'faq',
    kind: 'faq',
    title: 'Frequently asked questions',
    metaDescription: `Answers to common questions about buying, financing and trading in ${c.what} at ${site.name}.`,
    body: qa.map(([q, a]) => `### ${q}\n\n${a}`).join('\n\n'),
    publishedAt: published('2024-03-01'),
    updatedAt: published('2026-02-20'),
  };
}

function mechanicalWarranty(site: SiteSeed): Page {
  const c = context(site);
  const body = `## ${site.name} mechanical warranty

Peace of mind comes standard. Eligible ${c.used} vehicles sold by ${site.name} include a 12-month mechanical warranty at no extra cost.

### What is covered

${list(['Engine: internal lubricated parts', 'Transmission and transfer case', 'Differentials and drive shafts', 'Cooling system: radiator and water pump', 'Electrical: starter motor and alternator'])}

### What is not covered

${list([`Wear-and-tear items such as brakes, ${c.tyres}, clutches, wipers and globes`, 'Damage from accidents, misuse or lack of servicing', 'Vehicles used for commercial hire'])}

### Making a claim

Contact our service department on ${site.phone} before any repair work begins. Claims are limited to the market value of the vehicle. This warranty is in addition to your rights under ${c.au ? 'the Australian Consumer Law' : c.nz ? 'the Consumer Guarantees Act 1993' : 'applicable Texas and federal law'}.`;
  return {
    slug: 'mechanical-warranty',
    kind: 'page',
    title: 'Mechanical warranty',
    metaDescription: `What the ${site.name} 12-month mechanical warranty covers and how to make a claim.`,
    body,
    publishedAt: published('2024-03-01'),
    updatedAt: published('2025-11-03'),
  };
}

function terms(site: SiteSeed): Page {
  const c = context(site);
  const body = `## Terms and conditions

These terms apply to your use of the ${site.name} website and to vehicles advertised on it.

### Prices

Prices are in ${site.config.currency ?? 'AUD'} and include ${c.au ? 'GST' : c.nz ? 'GST' : 'dealer fees but not tax, title and license'}. "Drive Away" prices include registration, stamp duty and dealer delivery${c.au ? ' for private buyers' : ''}. While we take care to keep prices accurate, errors can happen and the price on your signed contract applies.

### Vehicle information

Specifications, features and photos are a guide only. Please confirm anything important to you with our team before purchase. Photos may be representative.

### Online reservations and deposits

Where online reservation is offered, deposits are refundable until a contract of sale is signed, and are credited to the purchase price.

### Finance

Finance is subject to the lender's approval, terms and fees. Repayment estimates are indicative only.

### Contact

${site.name}, ${c.locations[0]?.street}, ${c.locations[0]?.city} ${c.locations[0]?.state} ${c.locations[0]?.postcode}. Phone ${site.phone}.`;
  return {
    slug: 'terms-and-conditions',
    kind: 'page',
    title: 'Terms and conditions',
    metaDescription: `Terms of use of the ${site.name} website, prices, reservations and finance.`,
    body,
    publishedAt: published('2024-03-01'),
    updatedAt: published('2025-07-01'),
  };
}

function privacy(site: SiteSeed): Page {
  const c = context(site);
  const law = c.au
    ? 'the Privacy Act 1988 (Cth) and the Australian Privacy Principles'
    : c.nz
      ? 'the Privacy Act 2020 and its Information Privacy Principles'
      : 'applicable US federal and Texas privacy laws';
  const body = `## Privacy policy

${site.name} respects your privacy and handles personal information in line with ${law}.

### What we collect

When you send an enquiry, book a test drive or apply for finance we collect your name, contact details and the details of the vehicle you are interested in. If you sign in, we keep your ${c.favourite} vehicles.

### How we use it

${list([
  'To answer your enquiry and arrange test drives, finance and trade-ins',
  'To keep you informed about your vehicle, if you ask us to',
  'To improve our website, using analytics that do not identify you',
])}

### Who we share it with

Only the finance partners, service providers and manufacturers needed to deliver what you asked for. We never sell your information.

### Access and correction

Contact us at ${site.email} to see or correct the information we hold about you.`;
  return {
    slug: 'privacy-policy',
    kind: 'page',
    title: 'Privacy policy',
    metaDescription: `How ${site.name} collects, uses and protects your personal information.`,
    body,
    publishedAt: published('2024-03-01'),
    updatedAt: published('2025-07-01'),
  };
}

function careers(site: SiteSeed): Page[] {
  const c = context(site);
  const main = c.locations[0];
  const intro: Page = {
    slug: 'careers',
    kind: 'page',
    title: `Careers at ${site.name}`,
    metaDescription: `Work with ${site.name} in ${c.town}. See our current positions.`,
    body: `## Join our team

We are always looking for friendly, motivated people who love ${c.what}. We offer ongoing training, a supportive team and genuine career paths${c.makes.length ? ` with ${joinWords(c.makes)}` : ''}.

Send your resume to ${site.email} or apply for one of the positions below.`,
    publishedAt: published('2024-03-01'),
    updatedAt: published('2026-03-01'),
  };
  const sales: Page = {
    slug: 'sales-consultant',
    kind: 'career',
    title: `Sales Consultant – ${main.city}`,
    metaDescription: `Full-time sales consultant role at ${site.name} ${main.city}.`,
    body: `### About the role

Help customers find the right vehicle, from the first enquiry to delivery day. Full-time, five days a week including alternate weekends.

### About you

${list([`A current driver ${c.licence}`, 'Great communication skills and a customer-first attitude', 'Automotive sales experience is a plus but not essential'])}

### What we offer

${list(['Base salary plus uncapped commission', 'Demonstrator vehicle', 'Ongoing product and sales training'])}`,
    publishedAt: published('2026-08-04'),
    updatedAt: published('2026-08-04'),
  };
  const technician: Page = {
    slug: c.us ? 'automotive-technician' : 'qualified-technician',
    kind: 'career',
    title: c.us ? 'Automotive Technician' : site.vehicleWord === 'trucks' ? 'Qualified Heavy Vehicle Technician' : 'Qualified Technician',
    metaDescription: `Technician role in our ${c.centre} at ${site.name}.`,
    body: `### About the role

Diagnose, service and repair customer and stock vehicles in our modern workshop. Monday to Friday, no weekends.

### About you

${list([c.us ? 'ASE certification (or working towards it)' : site.vehicleWord === 'trucks' ? 'Heavy vehicle trade certificate' : 'Light vehicle trade certificate', 'Diagnostic experience with modern vehicles', 'Pride in doing the job right the first time'])}

### What we offer

${list(['Above-award pay and overtime', 'Manufacturer training', 'Tool allowance'])}`,
    publishedAt: published('2026-09-12'),
    updatedAt: published('2026-09-12'),
  };
  const pages = [intro, sales, technician];
  if (site.locations.some((l) => l.locationType.includes('service'))) {
    pages.push({
      slug: 'service-advisor',
      kind: 'career',
      title: 'Service Advisor',
      metaDescription: `Service advisor role at ${site.name}.`,
      body: `### About the role

Be the friendly face of our service department: book services, explain work to customers and keep jobs moving through the workshop.

### About you

${list(['Customer service experience', 'Organised and calm under pressure', 'Automotive knowledge is helpful'])}`,
      publishedAt: published('2026-10-20'),
      updatedAt: published('2026-10-20'),
    });
  }
  return pages;
}

function blogPosts(site: SiteSeed): Page[] {
  const c = context(site);
  const topics: Array<[string, string, string]> =
    site.vehicleWord === 'trucks'
      ? [
          ['choosing-the-right-truck-body', 'Tray, tipper or pantech: choosing the right truck body', `The body you put on a truck matters as much as the cab-chassis. Here is how our ${c.town} customers decide.`],
          ['light-truck-licence-guide', 'Which licence do you need for a light truck?', 'Car licence, LR or MR: a plain-English guide to truck licence classes in Queensland.'],
          ['keeping-your-fleet-on-the-road', 'Five ways to keep your fleet on the road', 'Servicing intervals, tyre checks and the small habits that stop expensive breakdowns.'],
        ]
      : site.vehicleWord === 'motorcycles'
        ? [
            ['best-lams-bikes', 'The best LAMS bikes for new riders', 'Our team picks the learner-approved bikes they would buy themselves.'],
            ['riding-the-hunter-valley', 'Three great rides from Newcastle', 'Weekend loops through the Hunter Valley and up the coast.'],
            ['winter-motorcycle-care', 'Looking after your bike through winter', 'Batteries, chains and tyres: what to check when the weather turns.'],
          ]
        : site.vehicleWord.includes('caravan')
          ? [
              ['first-big-lap-checklist', 'Your first big lap: the checklist', 'What to pack, what to check and what to book before you head around Australia.'],
              ['towing-weights-explained', 'Towing weights explained', 'ATM, GTM, tare and ball weight: what the numbers mean and how to match a van to your car.'],
              ['off-road-vs-semi-off-road', 'Off-road or semi off-road?', 'How to choose a van for the tracks you will actually drive.'],
            ]
          : [
              ['buying-a-used-car-checklist', c.us ? 'Your pre-owned car buying checklist' : 'Your used car buying checklist', `Everything to check before you buy, from the service history to the ${c.tyres}.`],
              ['hybrid-or-electric', 'Hybrid or electric: which suits you?', `Running costs, charging and range for ${c.nz ? 'New Zealand' : c.us ? 'Texas' : 'Australian'} drivers.`],
              ['trade-in-tips', 'How to get the best trade-in value', `Simple steps that add hundreds of dollars to your trade-in at ${site.name}.`],
            ];
  const dates = ['2026-03-18', '2026-06-09', '2026-09-23'];
  return topics.map(([slug, title, summary], i) => ({
    slug,
    kind: 'blog' as const,
    title,
    metaDescription: summary,
    body: `${summary}

## The short version

${list([
  `Talk to our team at ${c.locations[0].name}: they do this every day.`,
  `Set a budget first, including insurance and running costs.`,
  `Take your time: a good ${c.what.split(' ')[0].replace(/s$/, '')} is worth waiting for.`,
])}

## Need a hand?

Call ${site.phone} or [browse our stock](/search/${site.config.search?.defaultSlug ?? 'new-used-and-demo-cars'}). We are happy to help, with no pressure to buy.`,
    publishedAt: published(dates[i]),
    updatedAt: published(dates[i]),
  }));
}

function sellingWithTitan(site: SiteSeed): Page {
  return {
    slug: 'selling-your-car-with-titan',
    kind: 'page',
    title: 'Selling your car with Titan',
    metaDescription: `Sell your car to ${site.name} with the Titan instant offer: a firm price in minutes and payment the same day.`,
    body: `## Sell your car the easy way

Titan is ${site.name}'s instant-offer service. Tell us about your car online and get a firm offer, usually within the hour.

### How it works

1. Enter your rego, kilometres and a few photos on our [valuation page](/valuations).
2. We send you a firm offer, valid for 7 days.
3. Drop the car at ${site.locations[0].street}, ${site.locations[0].city}, or we collect it anywhere on the Gold Coast.
4. We pay out any finance and transfer the balance to you the same day.

### Why sell with Titan

- No advertising, no tyre-kickers, no strangers at your home
- We buy every make and model, running or not
- Your offer is honoured if the car matches its description`,
    publishedAt: published('2025-05-12'),
    updatedAt: published('2026-04-02'),
  };
}

/** Every content page of one website. */
export function contentFor(site: SiteSeed): ContentPageRow[] {
  const pages: Page[] = [aboutUs(site), faq(site), mechanicalWarranty(site), terms(site), privacy(site), ...careers(site), ...blogPosts(site)];
  if (site.extraPages.includes('selling-your-car-with-titan')) pages.push(sellingWithTitan(site));
  return pages.map((page) => ({ ...page, websiteId: site.id }));
}
