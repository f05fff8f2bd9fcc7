'use client';
/* eslint-disable @next/next/no-img-element -- the photo's srcset comes from next/image's getImageProps (car-image.ts); a plain element keeps the optimiser's client code out. */
import { SaveCarButton } from '@/modules/identity/components/save-car-button';
import type { CarCardView } from './car-card-view';
import { PriceBlock } from './price-block';
import { TagBanner } from './tag-banner';

/**
 * One car in a grid: photo or placeholder, tag banner, location, name, year/odometer, price. One
 * link, a plain <a>: the car page is a full page load, usually from the page cache. Styles are the
 * car-card classes of globals.css; the content is carCardView's.
 */
export function CarCard({ view }: { view: CarCardView }) {
  const Heading = view.headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="car-card">
      <a href={view.href} className="car-card-link">
        <div className="car-card-photo">
          {view.photo ? (
            <img
              src={view.photo.src}
              srcSet={view.photo.srcSet}
              alt=""
              loading={view.priority ? 'eager' : 'lazy'}
              fetchPriority={view.priority ? 'high' : undefined}
              decoding="async"
            />
          ) : (
            <div className="flex h-full w-full flex-col items-center justify-center gap-1 bg-linear-to-br from-slate-100 to-slate-200 text-slate-500">
              <span className="text-2xl font-bold uppercase tracking-wider">{view.make}</span>
              <span className="text-xs">Photos coming soon</span>
            </div>
          )}
          {view.banner ? (
            <TagBanner banner={view.banner} className={`absolute left-3 top-3 ${view.save ? 'max-w-[calc(100%-4.5rem)]' : 'max-w-[calc(100%-1.5rem)]'}`} />
          ) : null}
          {view.location ? (
            <span className="car-card-location">
              <span className="sr-only">Location: </span>
              {view.location}
            </span>
          ) : null}
        </div>
        <div className="car-card-body">
          <p className="car-card-condition">{view.condition}</p>
          <Heading className="car-card-name">{view.name}</Heading>
          {view.variant ? <p className="car-card-variant">{view.variant}</p> : null}
          <p>{view.facts}</p>
          <PriceBlock view={view.price} className="mt-auto pt-3" />
        </div>
      </a>
      {/* Outside the link: a button may not sit inside one. */}
      {view.save ? <SaveCarButton carId={view.id} carName={view.name} offerSignIn={view.save.offerSignIn} className="absolute right-3 top-3" /> : null}
    </article>
  );
}
