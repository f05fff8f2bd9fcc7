import Image from 'next/image';
import Link from 'next/link';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { carPath } from '@/modules/tenancy/tenancy.paths';
import { formatOdometer } from '@/lib/format';
import { conditionLabel, tagBanner } from '../stock.rules';
import type { CarSummary } from '../stock.types';
import { CAR_CARD_SIZES, isOptimizable } from './car-image';
import { PriceBlock } from './price-block';
import { TagBanner } from './tag-banner';
import { SaveCarButton } from '@/modules/identity/components/save-car-button';

export type CarCardProps = {
  car: CarSummary;
  config: WebsiteConfig;
  /** Epoch ms the tag banner is judged at (just arrived, recently sold). */
  now: number;
  /** Load the photo at once (cards in the first row of a page); otherwise lazily. */
  priority?: boolean;
  sizes?: string;
  headingLevel?: 2 | 3;
};

/** One car in a grid: photo or placeholder, tag banner, location, name, year/odometer, price. One link. */
export function CarCard({ car, config, now, priority = false, sizes = CAR_CARD_SIZES, headingLevel = 3 }: CarCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const banner = tagBanner(car, config, now);
  const condition = conditionLabel(car.carType, config);
  const facts = [String(car.year), car.km > 0 ? formatOdometer(config, car.km) : null, car.simpleTransmission].filter(Boolean);
  return (
    <article className="relative h-full overflow-hidden rounded-site border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md">
      <Link href={carPath({ config }, car.slug)} prefetch={false} className="group flex h-full flex-col">
        <div className="relative aspect-[3/2] overflow-hidden bg-slate-100">
          {car.image ? (
            <Image
              src={car.image.url}
              alt=""
              fill
              sizes={sizes}
              quality={config.carPage.imageQuality}
              unoptimized={!isOptimizable(car.image.url)}
              loading={priority ? 'eager' : 'lazy'}
              fetchPriority={priority ? 'high' : undefined}
              className="object-cover transition-transform duration-300 group-hover:scale-[1.02]"
            />
          ) : (
            <div className="flex h-full w-full flex-col items-center justify-center gap-1 bg-linear-to-br from-slate-100 to-slate-200 text-slate-500">
              <span className="text-2xl font-bold uppercase tracking-wider">{car.make}</span>
              <span className="text-xs">Photos coming soon</span>
            </div>
          )}
          {banner ? <TagBanner banner={banner} className={`absolute left-3 top-3 ${config.garage.enabled ? 'max-w-[calc(100%-4.5rem)]' : 'max-w-[calc(100%-1.5rem)]'}`} /> : null}
          {car.location ? (
            <span className="absolute bottom-3 left-3 max-w-[calc(100%-1.5rem)] truncate rounded-site bg-slate-900/80 px-2 py-1 text-xs font-medium text-white">
              <span className="sr-only">Location: </span>
              {car.location.name}
            </span>
          ) : null}
        </div>
        <div className="flex flex-1 flex-col gap-1 p-4">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{condition}</p>
          <Heading className="text-lg font-semibold leading-snug text-slate-900 group-hover:underline">{car.name}</Heading>
          {car.badge || car.series ? (
            <p className="truncate text-sm text-slate-600">{[car.badge, car.series].filter(Boolean).join(' ')}</p>
          ) : null}
          <p className="text-sm text-slate-700">{facts.join(' · ')}</p>
          <PriceBlock car={car} config={config} className="mt-auto pt-3" />
        </div>
      </Link>
      {/* Outside the link: a button may not sit inside one. */}
      {config.garage.enabled ? <SaveCarButton carId={car.id} carName={car.name} offerSignIn={config.phoneSignIn.enabled} className="absolute right-3 top-3" /> : null}
    </article>
  );
}
