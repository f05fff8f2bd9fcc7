/**
 * Photos under /media/ go through the image optimiser (next.config.ts localPatterns); any other
 * address (an import from a feed) is shown as it is rather than breaking the page.
 */
export function isOptimizable(url: string): boolean {
  return url.startsWith('/media/') && !url.includes('..');
}

/** Photos sit in a fixed 3:2 box (the usual car photo shape). Grid card widths: 1 column below 576 px, 2 to 992 px, 3 above, inside a 1280 px column. */
export const CAR_CARD_SIZES = '(min-width: 1280px) 400px, (min-width: 992px) 31vw, (min-width: 576px) 47vw, 92vw';
