/* eslint-disable @next/next/no-img-element -- every <img> here takes its srcset from next/image's getImageProps (same optimiser, sizes and quality); plain elements keep the photos out of hydration. */
import { getImageProps } from 'next/image';
import type { ReactNode } from 'react';
import { preload } from 'react-dom';
import type { CarImage } from '../stock.types';
import { isOptimizable } from './car-image';
import { GalleryEnhancer } from './gallery-enhancer';

const MAIN_SIZES = '(min-width: 1280px) 800px, (min-width: 992px) 64vw, 100vw';
const THUMB_WIDTH = 128;
const FULL_SIZES = '100vw';
const DEFAULT_WIDTH = 1200;
const DEFAULT_HEIGHT = 800;

type Props = {
  /** Element id of the gallery; the enhancer finds it by this. */
  id: string;
  images: CarImage[];
  name: string;
  /** Shown on the placeholder when there are no photos. */
  make: string;
  quality: 60 | 75;
  /** The tag banner, laid over the main photo. */
  banner?: ReactNode;
};

function imageProps(image: CarImage, sizes: string, quality: number) {
  const { props } = getImageProps({
    src: image.url,
    alt: image.alt,
    width: image.width ?? DEFAULT_WIDTH,
    height: image.height ?? DEFAULT_HEIGHT,
    sizes,
    quality,
    unoptimized: !isOptimizable(image.url),
  });
  return props;
}

/** A thumbnail at a fixed width: a 1x/2x srcset instead of every device width. */
function thumbProps(image: CarImage, quality: number) {
  const url = image.thumbnailUrl ?? image.url;
  const { props } = getImageProps({
    src: url,
    alt: '',
    width: THUMB_WIDTH,
    height: Math.round((THUMB_WIDTH * 2) / 3),
    quality,
    unoptimized: !isOptimizable(url),
  });
  return props;
}

function Arrow({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} aria-hidden="true" focusable="false">
      <path d={direction === 'left' ? 'M15 18l-6-6 6-6' : 'M9 18l6-6-6-6'} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

const navButton =
  'absolute top-1/2 z-10 flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white';

/**
 * The car's photos, rendered on the server: the first eager with high priority and preloaded (it
 * is the page's largest paint), the thumbnails lazy. Without JavaScript every photo is a link to
 * its full-size file. GalleryEnhancer adds arrow keys, swipes, the arrow buttons, thumbnail
 * switching and the full-screen view, without hydrating the photos.
 */
export function CarGallery({ id, images, name, make, quality, banner }: Props) {
  const [first] = images;
  if (!first) {
    return (
      <div className="relative flex aspect-[3/2] w-full flex-col items-center justify-center gap-1 rounded-site bg-slate-100 text-slate-600">
        <span className="text-4xl font-bold uppercase tracking-wider">{make}</span>
        <span>Photos coming soon</span>
        {banner}
      </div>
    );
  }
  const count = images.length;
  const position = (i: number) => `photo ${i + 1} of ${count}`;
  const alt = (image: CarImage, i: number) => `${image.alt || name} (${position(i)})`;
  const main = imageProps(first, MAIN_SIZES, quality);
  const full = imageProps(first, FULL_SIZES, quality);
  // The largest paint: fetched from the document head, before the stylesheet is parsed.
  preload(main.src, { as: 'image', imageSrcSet: main.srcSet, imageSizes: main.sizes, fetchPriority: 'high' });
  return (
    <div id={id} data-gallery>
      <div className="relative overflow-hidden rounded-site bg-slate-100" data-gallery-stage>
        <a href={first.url} className="block" data-gallery-open aria-haspopup="dialog">
          <img
            {...main}
            alt={alt(first, 0)}
            loading="eager"
            fetchPriority="high"
            // Painted with the text around it, not in a later frame of its own: it is the largest paint.
            decoding="sync"
            className="aspect-[3/2] h-auto w-full object-cover"
            data-gallery-main
          />
        </a>
        {banner}
        {count > 1 ? (
          <>
            <button type="button" hidden className={`${navButton} left-2`} data-gallery-prev aria-label="Previous photo">
              <Arrow direction="left" />
            </button>
            <button type="button" hidden className={`${navButton} right-2`} data-gallery-next aria-label="Next photo">
              <Arrow direction="right" />
            </button>
            <p className="absolute bottom-2 right-2 rounded bg-slate-900/80 px-2 py-0.5 text-sm text-white" aria-live="polite" data-gallery-counter>
              1 / {count}
            </p>
          </>
        ) : null}
      </div>

      {count > 1 ? (
        <ul className="mt-2 flex gap-2 overflow-x-auto pb-1" aria-label="All photos">
          {images.map((image, i) => {
            const thumb = thumbProps(image, quality);
            // One candidate list serves the main photo and the full-screen view: responsive
            // srcsets list every device width, only `sizes` differs.
            const large = imageProps(image, MAIN_SIZES, quality);
            return (
              <li key={`${image.url}-${i}`} className="w-24 shrink-0 sm:w-28 lg:w-32">
                <a
                  href={image.url}
                  aria-label={`Show ${position(i)}`}
                  aria-current={i === 0 ? 'true' : undefined}
                  className="block overflow-hidden rounded-site border-2 border-transparent aria-[current=true]:border-slate-900"
                  data-gallery-thumb
                  data-src={large.src}
                  data-srcset={large.srcSet}
                  data-alt={alt(image, i)}
                >
                  <img {...thumb} alt="" loading="lazy" decoding="async" fetchPriority="low" className="aspect-[3/2] h-auto w-full object-cover" />
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}

      <dialog
        aria-label={`${name}: photos`}
        className="m-0 h-full max-h-none w-full max-w-none bg-slate-950 p-0 text-white backdrop:bg-slate-950"
        data-gallery-dialog
      >
        <div className="relative flex h-full w-full items-center justify-center">
          <img {...full} alt={alt(first, 0)} loading="lazy" decoding="async" className="max-h-full w-auto max-w-full object-contain" data-gallery-full />
          <button
            type="button"
            className="absolute right-3 top-3 z-10 rounded-full bg-white px-4 py-2 font-semibold text-slate-900"
            data-gallery-close
          >
            Close
          </button>
          {count > 1 ? (
            <>
              <button type="button" className={`${navButton} left-3`} data-gallery-prev aria-label="Previous photo">
                <Arrow direction="left" />
              </button>
              <button type="button" className={`${navButton} right-3`} data-gallery-next aria-label="Next photo">
                <Arrow direction="right" />
              </button>
              <p className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded bg-slate-900/80 px-2 py-0.5 text-sm" data-gallery-counter>
                1 / {count}
              </p>
            </>
          ) : null}
        </div>
      </dialog>
      <GalleryEnhancer id={id} />
    </div>
  );
}
