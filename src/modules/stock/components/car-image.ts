import { getImageProps } from 'next/image';

/**
 * Photos under /media/ go through the image optimiser (next.config.ts localPatterns); any other
 * address (an import from a feed) is shown as it is rather than breaking the page.
 */
export function isOptimizable(url: string): boolean {
  return url.startsWith('/media/') && !url.includes('..');
}

/**
 * A card photo (a fixed 3:2 box) is never much wider than this many CSS pixels: the grid has 1
 * column below 576 px, 2 to 992 px and 3 above, inside a 1280 px column.
 */
const CARD_PHOTO_WIDTH = 400;

/**
 * src and a 1x/2x srcset for a card photo: two optimiser URLs instead of one per device width, on a
 * plain <img> (24 cards a page, each repeated in the RSC payload, so its markup counts).
 */
export function cardPhotoSources(url: string, quality: number): { src: string; srcSet: string | undefined } {
  const { props } = getImageProps({
    src: url,
    alt: '',
    width: CARD_PHOTO_WIDTH,
    height: (CARD_PHOTO_WIDTH * 2) / 3,
    quality,
    unoptimized: !isOptimizable(url),
  });
  return { src: props.src, srcSet: props.srcSet };
}
