/**
 * What the stock UI receives (never raw rows). Client-safe: plain JSON values only, times as
 * epoch milliseconds (SPEC §3 created_at_timestamp, sold_date_timestamp).
 */

export type CarType = 'new' | 'used' | 'demo';
export type CarStatus = 'in_stock' | 'coming_soon' | 'sold';
export type ItemType = 'car' | 'truck' | 'motorcycle' | 'caravan' | 'campervan';

export type CarImage = {
  url: string;
  thumbnailUrl: string | null;
  /** Intrinsic size when known. */
  width: number | null;
  height: number | null;
  alt: string;
};

export type CarLocationSummary = {
  name: string;
  slug: string;
  city: string;
};

/** A car as shown on a card (search results, featured cars). */
export type CarSummary = {
  id: number;
  slug: string;
  name: string;
  make: string;
  model: string;
  badge: string | null;
  series: string | null;
  year: number;
  /** Kilometres; shown in the website's distance unit. */
  km: number;
  price: number;
  priceType: string;
  beforePrice: number | null;
  /** Weekly. */
  subscriptionPrice: number | null;
  carType: CarType;
  status: CarStatus;
  itemType: ItemType;
  certified: boolean;
  reserved: boolean;
  preorder: boolean;
  showOnDealerWebsite: boolean;
  photosCount: number;
  tag: string | null;
  simpleFuel: string | null;
  simpleBody: string | null;
  simpleTransmission: string | null;
  city: string | null;
  state: string | null;
  createdAtTimestamp: number;
  soldDateTimestamp: number | null;
  /** The primary image, or the first photo; null shows a placeholder. */
  image: CarImage | null;
  location: CarLocationSummary | null;
};

/** A car as shown on its own page. */
export type CarDetail = CarSummary & {
  stocknum: string;
  vin: string | null;
  colour: string | null;
  seats: number | null;
  doors: number | null;
  engine: string | null;
  simpleDrive: string | null;
  description: string;
  features: string[];
  images: CarImage[];
  dealershipId: number;
  dealershipSlug: string;
  dealershipName: string;
  /** Location phone, else the dealership's, else the website's; '' when none is known. */
  phone: string;
  /** The dealership's WhatsApp number, when it has one. */
  whatsappNumber: string | null;
  location: (CarLocationSummary & CarLocationAddress & { phone: string }) | null;
  nvic: string | null;
  /** null means not stated; only false blocks reservation (SPEC §5). */
  reservable: boolean | null;
  /** At least one payment processor of the car has a key (SPEC §3 has_checkout_payment_processor). */
  hasPaymentProcessor: boolean;
  /** The history report file (SPEC §3 file). */
  historyReportUrl: string | null;
  /** SPEC §3 autograb_data average_market_price and state_average_market_price. */
  marketAveragePrice: number | null;
  stateMarketAveragePrice: number | null;
  /** The car's price changes held (car_price_changes), newest first, at most PRICE_CHANGES_SHOWN. */
  priceChanges: PriceChange[];
};

/** One change of a car's price: when (epoch ms), from and to (whole currency units). */
export type PriceChange = { at: number; from: number; to: number };

export type CarLocationAddress = {
  street: string;
  state: string;
  postcode: string;
  country: 'AU' | 'NZ' | 'US';
  lat: number | null;
  long: number | null;
};
