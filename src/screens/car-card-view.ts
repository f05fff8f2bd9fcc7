import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { carPath } from '@/modules/tenancy/tenancy.paths';
import { formatOdometer } from '@/lib/format';
import { conditionLabel, tagBanner, type TagBanner } from '@/modules/stock/stock.rules';
import type { CarSummary } from '@/modules/stock/stock.types';
import type { CardPhoto } from '@/modules/stock/components/car-image';
import { priceView, type PriceView } from '@/screens/price-view';

/**
 * Everything a car card shows, worked out on the server. CarCard is a client component taking only
 * this, so the page's RSC payload carries these few strings instead of the card's markup again.
 */
export type CarCardView = {
  id: number;
  href: string;
  name: string;
  make: string;
  photo: CardPhoto | null;
  priority: boolean;
  banner: TagBanner | null;
  location: string | null;
  condition: string;
  variant: string | null;
  facts: string;
  price: PriceView;
  /** The save button, where the website has the garage. */
  save: { offerSignIn: boolean } | null;
  headingLevel: 2 | 3;
};

export function carCardView(car: CarSummary, config: WebsiteConfig, now: number, { priority = false, headingLevel = 3 }: { priority?: boolean; headingLevel?: 2 | 3 } = {}): CarCardView {
  return {
    id: car.id,
    href: carPath({ config }, car.slug),
    name: car.name,
    make: car.make,
    photo: car.image ? { url: car.image.url, quality: config.carPage.imageQuality } : null,
    priority,
    banner: tagBanner(car, config, now),
    location: car.location?.name ?? null,
    condition: conditionLabel(car.carType, config),
    variant: [car.badge, car.series].filter(Boolean).join(' ') || null,
    facts: [String(car.year), car.km > 0 ? formatOdometer(config, car.km) : null, car.simpleTransmission].filter(Boolean).join(' · '),
    price: priceView(car, config),
    save: config.garage.enabled ? { offerSignIn: config.phoneSignIn.enabled } : null,
    headingLevel,
  };
}
