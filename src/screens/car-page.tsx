import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, permanentRedirect } from 'next/navigation';
import type { VEHICLE_PATHS } from '@/modules/tenancy/tenancy.config';
import { absoluteSiteUrl, carPath, carTypeSearchPath, searchPath } from '@/modules/tenancy/tenancy.paths';
import { requireHost, requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { formatMoney, formatOdometer, spell } from '@/lib/format';
import { safeJson } from '@/lib/http';
import { CAR_PAGE_MESSAGES, carActions, isPriceComparisonEligible, marketIndicator, maskPhone, vehicleContentEvent } from '@/modules/stock/car-page.rules';
import { marketAveragesFor } from '@/modules/vehicles/vehicles.service';
import { breadcrumbJsonLd, carJsonLd } from '@/modules/stock/car-page.structured-data';
import { SHOW_PHONE_PARAM } from '@/modules/stock/car-phone.http';
import { wasPhoneRevealed } from '@/modules/stock/car-phone.commands';
import { PRICE_HISTORY_MESSAGES, priceHistory } from '@/modules/stock/price-history';
import { skipPageCache } from '@/lib/request-context';
import { SaveCarButton } from '@/modules/identity/components/save-car-button';
import { SOCIAL_IMAGE, socialImageKey } from '@/modules/stock/car-social-image';
import { cachePageWhileVersionHolds } from '@/lib/page-cache';
import { getCarBySlug, getSoldCarBySlug, stockListingVersion, type SoldCar } from '@/modules/stock/stock.queries';
import { isValidCarSlug, conditionLabel, priceDisplay, tagBanner, vehicleNoun } from '@/modules/stock/stock.rules';
import type { CarDetail } from '@/modules/stock/stock.types';
import { CAR_ACTION_CLASSES, CallAction, CarActionList, type CarForms } from '@/screens/car-actions';
import { getLeadCarById, getLeadSite } from '@/modules/leads/server';
import { CarGallery } from '@/modules/stock/components/car-gallery';
import { PhoneReveal } from '@/modules/stock/components/phone-reveal';
import { PriceBlock } from '@/screens/price-block';
import { specificationRows } from '@/screens/car-specifications';
import { priceView } from '@/screens/price-view';
import { RepaymentsDisclaimer } from '@/modules/finance/components/finance-disclaimer';
import { offersInstantFinance } from '@/modules/tenancy/tenancy.config';
import { requestTime } from '@/modules/stock/components/request-time';
import { TagBanner } from '@/modules/stock/components/tag-banner';
import { getWidgetPlan } from '@/modules/widgets/widgets.queries';
import { chatWidgets } from '@/modules/widgets/widgets.plan';

export type VehicleSegment = (typeof VEHICLE_PATHS)[number];
export type CarPageParams = Promise<{ slug: string }>;
export type CarPageSearchParams = Promise<Record<string, string | string[] | undefined>>;


type Resolved = { kind: 'car'; tenant: Tenant; car: CarDetail } | { kind: 'sold'; tenant: Tenant; car: SoldCar };

/**
 * The car, or the right response instead: 404 for a malformed or unknown slug, another website's
 * car or one that is not listed; 308 to the website's own vehicle path (/cars, /motorcycles,
 * /campers) when the request came in on another; a sold page for a car sold before its display
 * window (decision 008). The page is served again from the page cache until the website's stock
 * or settings change (decision 016; it shows nothing visitor-specific).
 */
export async function resolveCar(params: CarPageParams, segment: VehicleSegment): Promise<Resolved> {
  const tenant = await requireTenant();
  const { slug } = await params;
  if (!isValidCarSlug(slug)) notFound();
  if (segment !== tenant.config.vehiclePath) permanentRedirect(carPath(tenant, slug));
  await cachePageWhileVersionHolds(() => stockListingVersion(tenant));
  const car = await getCarBySlug(tenant, slug);
  if (car) return { kind: 'car', tenant, car };
  const sold = await getSoldCarBySlug(tenant, slug);
  if (sold) return { kind: 'sold', tenant, car: sold };
  notFound();
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function metaDescription(tenant: Tenant, car: CarDetail): string {
  const { config } = tenant;
  const price = priceDisplay(car, config);
  const parts = [
    `${capitalise(conditionLabel(car.carType, config))} ${car.year} ${car.make} ${car.model}${car.badge ? ` ${car.badge}` : ''}`,
    car.km > 0 ? formatOdometer(config, car.km) : null,
    price.price ? [price.price, price.priceType].filter(Boolean).join(' ') : spell(config, price.text ?? ''),
  ].filter(Boolean);
  const where = car.location ? ` at ${car.location.name}${car.location.city ? `, ${car.location.city}` : ''}` : '';
  const summary = `${parts.join(', ')}${where}.`;
  const description = car.description.replace(/\s+/g, ' ').trim();
  const text = description ? `${summary} ${description}` : summary;
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}…` : text;
}

export async function carPageMetadata(params: CarPageParams, segment: VehicleSegment): Promise<Metadata> {
  const resolved = await resolveCar(params, segment);
  const { tenant, car } = resolved;
  const host = await requireHost();
  const canonical = absoluteSiteUrl(tenant, host, carPath(tenant, car.slug));
  if (resolved.kind === 'sold') {
    return {
      title: `${car.name} (sold)`,
      description: `This ${car.name} has been sold. See similar ${vehicleNoun(tenant.config)} at ${tenant.name}.`,
      robots: { index: false, follow: true },
      alternates: { canonical },
    };
  }
  const full = resolved.car;
  // The site layout's title template adds the dealer's name.
  const description = metaDescription(tenant, full);
  const image = full.images[0] ?? full.image;
  // A stored photo is cropped to the 1200×630 card; an outside address is passed on as it is.
  const socialImage = socialImageKey(image)
    ? [{ url: absoluteSiteUrl(tenant, host, `${carPath(tenant, car.slug)}/social-image`), ...SOCIAL_IMAGE, alt: full.name }]
    : image
      ? [{ url: absoluteSiteUrl(tenant, host, image.url), alt: full.name }]
      : undefined;
  return {
    title: full.name,
    description,
    alternates: { canonical },
    openGraph: {
      title: `${full.name} | ${tenant.name}`,
      description,
      url: canonical,
      siteName: tenant.name,
      type: 'website',
      images: socialImage,
    },
    twitter: { card: socialImage ? 'summary_large_image' : 'summary', title: `${full.name} | ${tenant.name}`, description },
  };
}

function Specifications({ tenant, car }: { tenant: Tenant; car: CarDetail }) {
  const shown = specificationRows(car, tenant.config).filter(([, value]) => value != null);
  return (
    <section aria-labelledby="car-specifications" className="mt-10">
      <h2 id="car-specifications" className="text-xl font-bold text-slate-900">
        Key specifications
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-x-8 sm:grid-cols-2">
        {shown.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 border-b border-slate-200 py-2.5">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

type Crumb = { name: string; path: string };

function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const last = crumbs.length - 1;
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-x-2">
        {crumbs.map((crumb, index) => (
          <li key={crumb.path} className={index === last ? 'min-w-0 truncate text-slate-900' : 'flex items-center gap-x-2'}>
            {index === last ? (
              <span aria-current="page">{crumb.name}</span>
            ) : (
              <>
                <Link href={crumb.path} prefetch={false} className="underline-offset-2 hover:underline">
                  {crumb.name}
                </Link>
                <span aria-hidden="true">/</span>
              </>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function JsonLd({ data }: { data: unknown }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: safeJson(data) }} />;
}

function mapsHref(car: CarDetail): string | null {
  const location = car.location;
  if (!location) return null;
  const query =
    location.lat != null && location.long != null
      ? `${location.lat},${location.long}`
      : [location.street, location.city, location.state, location.postcode].filter(Boolean).join(', ');
  return query ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}` : null;
}

function VehicleLocation({ tenant, car }: { tenant: Tenant; car: CarDetail }) {
  const location = car.location;
  if (!location) return null;
  const address = [location.street, [location.city, location.state, location.postcode].filter(Boolean).join(' ')].filter(Boolean);
  const maps = mapsHref(car);
  return (
    <section id="vehicle-map" aria-labelledby="car-location" className="mt-10 scroll-mt-24 rounded-site border border-slate-200 p-5">
      <h2 id="car-location" className="text-xl font-bold text-slate-900">
        {CAR_PAGE_MESSAGES.location}
      </h2>
      <p className="mt-2 font-semibold text-slate-900">{location.name}</p>
      <address className="not-italic text-slate-700">
        {address.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
      </address>
      <p className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
        {maps ? (
          <a href={maps} className="font-semibold text-brand-text underline underline-offset-2">
            Get directions
          </a>
        ) : null}
        <Link href={`/our-locations/${location.slug}`} prefetch={false} className="font-semibold text-brand-text underline underline-offset-2">
          {spell(tenant.config, 'About this location')}
        </Link>
      </p>
    </section>
  );
}

/** The car page (SPEC §2): gallery, name, price, market indicator, actions, specifications, description, location. */
export async function CarPage({
  params,
  searchParams,
  segment,
}: {
  params: CarPageParams;
  searchParams: CarPageSearchParams;
  segment: VehicleSegment;
}) {
  const resolved = await resolveCar(params, segment);
  if (resolved.kind === 'sold') return <SoldCarPage tenant={resolved.tenant} car={resolved.car} />;
  const { tenant, car } = resolved;
  const { config } = tenant;
  const host = await requireHost();
  const now = requestTime();
  const pageUrl = absoluteSiteUrl(tenant, host, carPath(tenant, car.slug));
  const condition = conditionLabel(car.carType, config);
  const subtitle = [car.badge, car.series].filter(Boolean).join(' ');
  const banner = tagBanner(car, config, now);
  const history = priceHistory(car, config);
  const market = marketIndicator(await marketAveragesFor(tenant, car, isPriceComparisonEligible(car, config)), config);
  const chat = chatWidgets(await getWidgetPlan(tenant));
  const actions = carActions(car, config, tenant.template, { year: new Date(now).getUTCFullYear(), pageUrl, chat });
  const forms = await carForms(tenant, car);
  const revealToken = (await searchParams)[SHOW_PHONE_PARAM];
  if (revealToken !== undefined) skipPageCache();
  const showPhone = revealToken !== undefined && (await wasPhoneRevealed(tenant, car.id, revealToken));

  const crumbs: Crumb[] = [
    { name: 'Home', path: '/' },
    { name: capitalise(`${condition} ${vehicleNoun(config)}`), path: carTypeSearchPath(car.carType) },
    { name: car.name, path: carPath(tenant, car.slug) },
  ];
  const images = car.images.length > 0 ? car.images : car.image ? [car.image] : [];
  const callAction = actions.find((action) => action.kind === 'call');
  const call = !callAction ? null : config.carPage.maskPhone ? (
    <PhoneReveal
      masked={maskPhone(car.phone)}
      revealed={showPhone ? car.phone : null}
      carId={car.id}
      dealershipId={car.dealershipId}
      websiteId={tenant.id}
      className={CAR_ACTION_CLASSES.quiet}
    />
  ) : (
    <CallAction action={callAction} phone={car.phone} />
  );

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
      <JsonLd
        data={carJsonLd(car, config, tenant, { page: pageUrl, images: images.slice(0, 10).map((image) => absoluteSiteUrl(tenant, host, image.url)) })}
      />
      <JsonLd data={breadcrumbJsonLd(crumbs.map((crumb) => ({ name: crumb.name, url: absoluteSiteUrl(tenant, host, crumb.path) })))} />
      <script
        type="application/json"
        id="vehicle-content-event"
        dangerouslySetInnerHTML={{ __html: safeJson(vehicleContentEvent(car, config)) }}
      />
      <Breadcrumbs crumbs={crumbs} />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-12 lg:grid-rows-[auto_1fr] lg:gap-x-10">
        <header className="lg:col-span-4 lg:col-start-9 lg:row-start-1">
          <p className="text-sm font-semibold uppercase tracking-wide text-slate-600">
            {condition}
            {car.status === 'sold' ? ' · Sold' : car.status === 'coming_soon' ? ' · Coming soon' : ''}
          </p>
          <div className="mt-1 flex items-start justify-between gap-3">
            <h1 className="text-2xl font-bold leading-tight text-slate-900 sm:text-3xl">{car.name}</h1>
            {config.garage.enabled ? <SaveCarButton carId={car.id} carName={car.name} offerSignIn={config.phoneSignIn.enabled} className="relative shrink-0" /> : null}
          </div>
          {subtitle ? <p className="mt-1 text-lg text-slate-700">{subtitle}</p> : null}
          <p className="mt-2 text-slate-700">
            {[String(car.year), car.km > 0 ? formatOdometer(config, car.km) : null, car.simpleTransmission, car.simpleFuel && spell(config, car.simpleFuel)]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <PriceBlock view={priceView(car, config)} size="page" className="mt-4" />
          {market ? (
            <p className="mt-3 inline-flex flex-wrap items-center gap-x-2 rounded-site bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="market-indicator">
              <span className="font-bold">{CAR_PAGE_MESSAGES.belowMarket}</span>
              <span>
                {formatMoney(config, market.below)} below the {market.scope === 'state' && car.location?.state ? `${car.location.state} ` : ''}
                market average of {formatMoney(config, market.average)}
              </span>
            </p>
          ) : null}
          {history ? (
            <details className="mt-3 text-sm text-slate-700" data-testid="price-history">
              <summary className="cursor-pointer py-1 font-semibold text-slate-900">{PRICE_HISTORY_MESSAGES.heading}</summary>
              <ul className="mt-2 space-y-1">
                {history.map((line, index) => (
                  <li key={index}>
                    {line.date}: {PRICE_HISTORY_MESSAGES[line.direction]} <span className="font-semibold text-slate-900">{line.price}</span> (was {line.was})
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {car.location ? (
            <p className="mt-3 text-slate-700">
              At {car.location.name}
              {car.location.city ? `, ${car.location.city}` : ''}{' '}
              <a href="#vehicle-map" className="font-semibold text-brand-text underline underline-offset-2">
                View location
              </a>
            </p>
          ) : null}
        </header>

        <section aria-label="Photos" className="min-w-0 lg:col-span-8 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <CarGallery
            id="car-gallery"
            images={images}
            name={car.name}
            make={car.make}
            quality={config.carPage.imageQuality}
            banner={banner ? <TagBanner banner={banner} className="absolute left-3 top-3 text-sm" /> : null}
          />
        </section>

        <div className="lg:col-span-4 lg:col-start-9 lg:row-start-2">
          <CarActionList actions={actions} call={call} forms={forms} />
        </div>
      </div>

      <Specifications tenant={tenant} car={car} />

      {car.description.trim() ? (
        <section aria-labelledby="car-description" className="mt-10 max-w-3xl">
          <h2 id="car-description" className="text-xl font-bold text-slate-900">
            Description
          </h2>
          <p className="mt-4 whitespace-pre-line leading-relaxed text-slate-800">{car.description.trim()}</p>
        </section>
      ) : null}

      {car.features.length > 0 ? (
        <section aria-labelledby="car-features" className="mt-10">
          <h2 id="car-features" className="text-xl font-bold text-slate-900">
            Features
          </h2>
          <ul className="mt-4 grid list-disc grid-cols-1 gap-x-8 gap-y-1 pl-5 text-slate-800 sm:grid-cols-2 lg:grid-cols-3">
            {car.features.map((feature, index) => (
              <li key={`${index}-${feature}`}>{feature}</li>
            ))}
          </ul>
        </section>
      ) : null}

      <VehicleLocation tenant={tenant} car={car} />
      <RepaymentsDisclaimer config={config} className="mt-10 max-w-4xl" />
    </div>
  );
}

/** A car sold before its display window: says so and links to similar stock (decision 008). */
function SoldCarPage({ tenant, car }: { tenant: Tenant; car: SoldCar }) {
  const similar = `${searchPath(tenant)}?make=${encodeURIComponent(car.make)}`;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-16 text-center sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-wide text-slate-600">{tenant.config.specifications.soldTagName}</p>
      <h1 className="mt-2 text-3xl font-bold text-slate-900">{CAR_PAGE_MESSAGES.sold}</h1>
      <p className="mt-4 text-lg text-slate-700">The {car.name} has found a new home.</p>
      <ul className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <li>
          <Link href={similar} prefetch={false} className={CAR_ACTION_CLASSES.primary}>
            See other {car.make} {vehicleNoun(tenant.config)}
          </Link>
        </li>
        <li>
          <Link href={searchPath(tenant)} prefetch={false} className={CAR_ACTION_CLASSES.secondary}>
            View all {vehicleNoun(tenant.config)}
          </Link>
        </li>
      </ul>
    </div>
  );
}

/** The lead forms' settings and the car as they need it; null when the car takes no leads (not listed). */
async function carForms(tenant: Tenant, detail: CarDetail): Promise<CarForms | null> {
  const [site, car] = await Promise.all([getLeadSite(tenant), getLeadCarById(tenant, detail.id)]);
  if (!car) return null;
  // The instant finance popup where the website offers it; elsewhere Get Finance is the finance page.
  const finance = offersInstantFinance(tenant.config)
    ? { id: detail.id, name: detail.name, price: detail.price, vin: detail.vin, nvic: detail.nvic, year: detail.year, carType: detail.carType, dealershipSlug: detail.dealershipSlug }
    : null;
  return { site, car, submitLabel: tenant.config.leads.enquirySubmitLabel, finance };
}
