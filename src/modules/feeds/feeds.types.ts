import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import type { CarStatus, CarType, ItemType } from '@/modules/stock/server';

/** The feeds a website publishes, by the file name they answer on under /feeds/. */
export const FEED_FILES = {
  'meta-vehicles.csv': 'meta',
  'google-vehicles.xml': 'google',
} as const;
export type FeedFile = keyof typeof FEED_FILES;
export type FeedKind = (typeof FEED_FILES)[FeedFile];

/** What a feed row needs of one listed car (never a raw row: see feeds.queries.ts). */
export type FeedCar = {
  id: number;
  slug: string;
  name: string;
  make: string;
  model: string;
  badge: string | null;
  series: string | null;
  year: number;
  /** Kilometres, as stored; written in the website's unit. */
  km: number;
  /** Whole units of the website's currency. */
  price: number;
  carType: CarType;
  status: CarStatus;
  itemType: ItemType;
  certified: boolean;
  vin: string | null;
  colour: string | null;
  simpleFuel: string | null;
  simpleBody: string | null;
  simpleDrive: string | null;
  simpleTransmission: string | null;
  description: string;
  stocknum: string;
  createdAt: Date;
  dealershipId: number;
  locationId: number | null;
  /** Photo URLs as stored (relative or absolute), the primary image first, at most FEED_MAX_IMAGES. */
  images: string[];
};

/** Where a car is: its location, else its dealership's first location, else the website's. */
export type FeedDealer = {
  dealerId: string;
  dealerName: string;
  phone: string;
  locationSlug: string;
  street: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  lat: number | null;
  long: number | null;
};

/** Everything a feed writer needs besides the cars. */
export type FeedContext = {
  origin: URL;
  siteName: string;
  /** The absolute URL of a car's page on the website's canonical origin. */
  carUrl: (slug: string) => string;
  config: Pick<WebsiteConfig, 'currency' | 'distanceUnit' | 'locale' | 'feeds'>;
  dealerFor: (car: Pick<FeedCar, 'locationId' | 'dealershipId'>) => FeedDealer | null;
};

export const FEED_MAX_IMAGES = 10;
