import type { Metadata } from 'next';
import Image from 'next/image';
import Link from 'next/link';
import { notFound, permanentRedirect } from 'next/navigation';
import type { VEHICLE_PATHS } from '@/modules/tenancy/tenancy.config';
import { carPath, carTypeSearchPath } from '@/modules/tenancy/tenancy.paths';
import { hostFromParams, requireTenant } from '@/modules/tenancy/tenancy.request';
import type { Tenant } from '@/modules/tenancy/tenancy.types';
import { formatOdometer, spell } from '@/lib/format';
import { getCarBySlug } from '../stock.queries';
import { conditionLabel, isValidCarSlug, priceDisplay, tagBanner, vehicleNoun } from '../stock.rules';
import type { CarDetail, CarImage } from '../stock.types';
import { isOptimizable } from './car-image';
import { PriceBlock } from './price-block';
import { requestTime } from './request-time';
import { absoluteSiteUrl } from '@/modules/tenancy/tenancy.paths';
import { TagBanner } from './tag-banner';

export type VehicleSegment = (typeof VEHICLE_PATHS)[number];
export type CarPageParams = Promise<{ host: string; slug: string }>;

const GALLERY_SIZES = '(min-width: 1280px) 800px, (min-width: 992px) 64vw, 100vw';
const THUMB_SIZES = '(min-width: 992px) 160px, (min-width: 576px) 25vw, 33vw';
const DEFAULT_WIDTH = 1200;
const DEFAULT_HEIGHT = 800;

/**
 * The car, or the right response instead: 404 for a malformed or unknown slug, another website's
 * car or one that is not listed; 308 to the website's own vehicle path (/cars, /motorcycles,
 * /campers) when the request came in on another.
 */
async function resolveCar(params: CarPageParams, segment: VehicleSegment): Promise<{ tenant: Tenant; car: CarDetail }> {
  const tenant = await requireTenant(params);
  const { slug } = await params;
  if (!isValidCarSlug(slug)) notFound();
  if (segment !== tenant.config.vehiclePath) permanentRedirect(carPath(tenant, slug));
  const car = await getCarBySlug(tenant, slug);
  if (!car) notFound();
  return { tenant, car };
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
  const { tenant, car } = await resolveCar(params, segment);
  const host = await hostFromParams(params);
  const canonical = absoluteSiteUrl(tenant, host, carPath(tenant, car.slug));
  const image = car.images[0] ?? car.image;
  // The site layout's title template adds the dealer's name.
  const title = car.name;
  const description = metaDescription(tenant, car);
  return {
    title,
    description,
    alternates: { canonical },
    openGraph: {
      title: `${car.name} | ${tenant.name}`,
      description,
      url: canonical,
      type: 'website',
      images: image ? [{ url: absoluteSiteUrl(tenant, host, image.url) }] : undefined,
    },
  };
}

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

const actionClass =
  'inline-flex min-h-11 w-full items-center justify-center rounded-site px-5 text-base font-semibold transition-colors';

function Specifications({ tenant, car }: { tenant: Tenant; car: CarDetail }) {
  const { config } = tenant;
  const rows: [string, string | number | null | undefined][] = [
    ['Condition', capitalise(conditionLabel(car.carType, config))],
    ['Year', car.year],
    ['Odometer', formatOdometer(config, car.km)],
    ['Body', car.simpleBody],
    ['Fuel', car.simpleFuel],
    ['Transmission', car.simpleTransmission],
    ['Drive', car.simpleDrive],
    ['Colour', car.colour],
    ['Seats', car.seats],
    ['Doors', car.doors],
    ['Engine', car.engine],
    ['Stock number', car.stocknum],
    ['VIN', car.vin],
  ];
  const shown = rows.filter(([, value]) => value != null && value !== '');
  return (
    <section aria-labelledby="car-specifications" className="mt-10">
      <h2 id="car-specifications" className="text-xl font-bold text-slate-900">
        Key specifications
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-x-8 sm:grid-cols-2">
        {shown.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 border-b border-slate-200 py-2.5">
            <dt className="text-slate-600">{spell(config, label)}</dt>
            <dd className="text-right font-medium break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Gallery({ tenant, car }: { tenant: Tenant; car: CarDetail }) {
  const images: CarImage[] = car.images.length > 0 ? car.images : car.image ? [car.image] : [];
  const banner = tagBanner(car, tenant.config, requestTime());
  const [first, ...rest] = images;
  const quality = tenant.config.carPage.imageQuality;
  return (
    <section aria-label="Photos" className="lg:col-span-8 lg:col-start-1 lg:row-span-2 lg:row-start-1">
      <div className="relative overflow-hidden rounded-site bg-slate-100">
        {first ? (
          <a href={first.url} className="block">
            <Image
              src={first.url}
              alt={first.alt || car.name}
              width={first.width ?? DEFAULT_WIDTH}
              height={first.height ?? DEFAULT_HEIGHT}
              sizes={GALLERY_SIZES}
              quality={quality}
              unoptimized={!isOptimizable(first.url)}
              preload
              fetchPriority="high"
              className="aspect-[3/2] h-auto w-full object-cover"
            />
          </a>
        ) : (
          <div className="flex aspect-[3/2] w-full flex-col items-center justify-center gap-1 text-slate-500">
            <span className="text-4xl font-bold uppercase tracking-wider">{car.make}</span>
            <span>Photos coming soon</span>
          </div>
        )}
        {banner ? <TagBanner banner={banner} className="absolute left-3 top-3 text-sm" /> : null}
      </div>
      {rest.length > 0 ? (
        <>
          <p className="mt-3 text-sm text-slate-600">
            {images.length} photos. Select a photo to open it full size.
          </p>
          <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-5">
            {rest.map((image, index) => (
              <li key={`${image.url}-${index}`}>
                <a href={image.url} className="block overflow-hidden rounded-site bg-slate-100">
                  <Image
                    src={image.thumbnailUrl ?? image.url}
                    alt={`${image.alt || car.name} (photo ${index + 2} of ${images.length})`}
                    width={image.width ?? DEFAULT_WIDTH}
                    height={image.height ?? DEFAULT_HEIGHT}
                    sizes={THUMB_SIZES}
                    quality={quality}
                    unoptimized={!isOptimizable(image.thumbnailUrl ?? image.url)}
                    loading="lazy"
                    className="aspect-[3/2] h-auto w-full object-cover transition-opacity hover:opacity-85"
                  />
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** A basic car page: name, price, tag, photos, key specifications, description, location, actions. */
export async function CarPage({ params, segment }: { params: CarPageParams; segment: VehicleSegment }) {
  const { tenant, car } = await resolveCar(params, segment);
  const { config } = tenant;
  const condition = conditionLabel(car.carType, config);
  const subtitle = [car.badge, car.series].filter(Boolean).join(' ');
  const stockPath = carTypeSearchPath(car.carType);
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
      <nav aria-label="Breadcrumb" className="mb-4 text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-x-2">
          <li>
            <Link href="/" prefetch={false} className="underline-offset-2 hover:underline">
              Home
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link href={stockPath} prefetch={false} className="underline-offset-2 hover:underline">
              {capitalise(`${condition} ${vehicleNoun(config)}`)}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li aria-current="page" className="truncate text-slate-900">
            {car.name}
          </li>
        </ol>
      </nav>

      <div className="grid gap-6 lg:grid-cols-12 lg:grid-rows-[auto_1fr] lg:gap-x-10">
        <header className="lg:col-span-4 lg:col-start-9 lg:row-start-1">
          <p className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            {condition}
            {car.status === 'sold' ? ' · Sold' : car.status === 'coming_soon' ? ' · Coming soon' : ''}
          </p>
          <h1 className="mt-1 text-2xl font-bold leading-tight text-slate-900 sm:text-3xl">{car.name}</h1>
          {subtitle ? <p className="mt-1 text-lg text-slate-700">{subtitle}</p> : null}
          <p className="mt-2 text-slate-700">
            {[String(car.year), car.km > 0 ? formatOdometer(config, car.km) : null, car.simpleTransmission, car.simpleFuel]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <PriceBlock car={car} config={config} size="page" className="mt-4" />
        </header>

        <Gallery tenant={tenant} car={car} />

        <div className="flex flex-col gap-6 lg:col-span-4 lg:col-start-9 lg:row-start-2">
          <ul className="flex flex-col gap-3" aria-label="Actions">
            <li>
              <Link
                href={`/contact?car_id=${car.id}`}
                prefetch={false}
                className={`${actionClass} bg-brand text-brand-foreground hover:brightness-110`}
              >
                {spell(config, 'Enquire Now')}
              </Link>
            </li>
            <li>
              <Link
                href={`/finance?car_id=${car.slug}`}
                prefetch={false}
                className={`${actionClass} border-2 border-slate-900 text-slate-900 hover:bg-slate-900 hover:text-white`}
              >
                Get Finance
              </Link>
            </li>
            {car.phone ? (
              <li>
                <a
                  href={telHref(car.phone)}
                  className={`${actionClass} border-2 border-slate-300 text-slate-900 hover:border-slate-900`}
                >
                  Call {car.phone}
                </a>
              </li>
            ) : null}
          </ul>

          {car.location ? (
            <section aria-labelledby="car-location" className="rounded-site border border-slate-200 p-4">
              <h2 id="car-location" className="text-base font-bold text-slate-900">
                Location
              </h2>
              <p className="mt-1 text-slate-700">{car.location.name}</p>
              {car.location.city || car.location.state ? (
                <p className="text-slate-600">{[car.location.city, car.location.state].filter(Boolean).join(' ')}</p>
              ) : null}
            </section>
          ) : null}
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
    </div>
  );
}
