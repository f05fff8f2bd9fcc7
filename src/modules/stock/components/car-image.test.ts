import { getImgProps } from 'next/dist/shared/lib/get-img-props';
import { imageConfigDefault, prepareImageConfig } from 'next/dist/shared/lib/image-config';
import defaultLoader from 'next/dist/shared/lib/image-loader';
import { describe, expect, it } from 'vitest';
import nextConfig from '../../../../next.config';
import { cardPhotoSources } from './car-image';

/**
 * next/image's own answer for a 400 × 267 card photo with the project's image configuration: what
 * getImageProps does, given the configuration that Next's build would inline into it.
 */
function nextImageSources(url: string, quality: number) {
  const imgConf = prepareImageConfig({ ...imageConfigDefault, ...nextConfig.images });
  const { props } = getImgProps(
    { src: url, alt: '', width: 400, height: 267, quality, unoptimized: !url.startsWith('/media/') },
    { defaultLoader, imgConf },
  );
  return { src: props.src, srcSet: props.srcSet };
}

describe('cardPhotoSources', () => {
  it.each([
    ['/media/cars/ada94d4c7a257b651c34.jpg', 75],
    ['/media/cars/ada94d4c7a257b651c34.jpg', 60],
    ['/media/cars/a b&c=d?.webp', 75],
  ])('gives the optimiser URLs next/image gives for %s at quality %d', (url, quality) => {
    expect(cardPhotoSources({ url, quality })).toEqual(nextImageSources(url, quality));
  });

  it('shows an address outside the media store as it is', () => {
    expect(cardPhotoSources({ url: 'https://feed.example.com/car.jpg', quality: 75 })).toEqual({ src: 'https://feed.example.com/car.jpg', srcSet: undefined });
    expect(cardPhotoSources({ url: '/media/../etc/passwd', quality: 75 })).toEqual({ src: '/media/../etc/passwd', srcSet: undefined });
  });
});
