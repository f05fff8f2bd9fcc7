/**
 * Photos under /media/ go through the image optimiser (next.config.ts localPatterns); any other
 * address (an import from a feed) is shown as it is rather than breaking the page.
 */
export function isOptimizable(url: string): boolean {
  return url.startsWith('/media/') && !url.includes('..');
}

/** A card photo as the card's view carries it: the stored address and the website's quality. */
export type CardPhoto = { url: string; quality: number };

/**
 * A card photo (a fixed 3:2 box) is never wider than 400 CSS pixels: the grid has 1 column below
 * 576 px, 2 to 992 px and 3 above, inside a 1280 px column. The optimiser's sizes for 400 px at 1x
 * and 2x (next.config.ts images: the smallest configured width at least 400 and 800), the URLs
 * next/image's getImageProps gives (car-image.test.ts holds them to it).
 */
const CARD_PHOTO_WIDTHS = { x1: 640, x2: 828 };

/**
 * src and a 1x/2x srcset for a card photo on a plain <img>. Built in the card (a client component)
 * from the address, so the RSC payload of a search page carries one short path per card instead of
 * three optimiser URLs, and next/image's client code stays out of the bundle.
 */
export function cardPhotoSources({ url, quality }: CardPhoto): { src: string; srcSet: string | undefined } {
  if (!isOptimizable(url)) return { src: url, srcSet: undefined };
  const at = (width: number) => `/_next/image?url=${encodeURIComponent(url)}&w=${width}&q=${quality}`;
  return { src: at(CARD_PHOTO_WIDTHS.x2), srcSet: `${at(CARD_PHOTO_WIDTHS.x1)} 1x, ${at(CARD_PHOTO_WIDTHS.x2)} 2x` };
}
