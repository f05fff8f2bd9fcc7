'use client';
/* eslint-disable @next/next/no-img-element -- the photo's srcset is the optimiser's URLs for 1x and 2x (car-image.ts, held to next/image by its test); a plain element keeps next/image's client code out. */
import { StaticMarkup } from '@/components/ui/static-markup';
import { SaveCarButton } from '@/modules/identity/components/save-car-button';
import type { CarCardView } from '@/screens/car-card-view';
import { cardPhotoSources } from '@/modules/stock/components/car-image';
import { PriceBlock } from '@/screens/price-block';
import { TagBanner } from '@/modules/stock/components/tag-banner';

/**
 * One car in a grid: photo or placeholder, tag banner, location, name, year/odometer, price. One
 * link, a plain <a>: the car page is a full page load, usually from the page cache. What the link
 * holds is not hydrated (StaticMarkup). Styles are the car-card classes of globals.css; the content is
 * carCardView's.
 */
export function CarCard({ view }: { view: CarCardView }) {
  const Heading = view.headingLevel === 2 ? 'h2' : 'h3';
  const photo = view.photo ? cardPhotoSources(view.photo) : null;
  return (
    <article className="car-card">
      <StaticMarkup as="a" href={view.href} className="car-card-link">
        <div className="car-card-photo">
          {photo ? (
            <img
              src={photo.src}
              srcSet={photo.srcSet}
              alt=""
              loading={view.priority ? 'eager' : 'lazy'}
              fetchPriority={view.priority ? 'high' : undefined}
              decoding="async"
            />
          ) : (
            <div className="car-card-placeholder">
              <span>{view.make}</span>
              <span>Photos coming soon</span>
            </div>
          )}
          {view.banner ? (
            <TagBanner banner={view.banner} className={view.save ? 'car-card-banner beside-save' : 'car-card-banner'} />
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
      </StaticMarkup>
      {/* Outside the link: a button may not sit inside one. */}
      {view.save ? <SaveCarButton carId={view.id} carName={view.name} offerSignIn={view.save.offerSignIn} className="absolute right-3 top-3" /> : null}
    </article>
  );
}
