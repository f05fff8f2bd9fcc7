import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { odometerValue } from '@/lib/format';
import { MIN_SHOWN_PRICE } from './stock.rules';
import type { CarDetail } from './stock.types';

/**
 * schema.org data of a car page (SPEC issue 4): the vehicle with its Offer (price, currency,
 * availability, the dealer as AutoDealer with address and phone), and the breadcrumb trail.
 * Pure; URLs arrive absolute.
 */

const CONDITION = {
  new: 'https://schema.org/NewCondition',
  used: 'https://schema.org/UsedCondition',
  demo: 'https://schema.org/UsedCondition',
} as const;

const AVAILABILITY = {
  in_stock: 'https://schema.org/InStock',
  coming_soon: 'https://schema.org/PreOrder',
  sold: 'https://schema.org/SoldOut',
} as const;

type Crumb = { name: string; url: string };

function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v != null && v !== '')) as Partial<T>;
}

export function carJsonLd(
  car: CarDetail,
  config: Pick<WebsiteConfig, 'currency' | 'distanceUnit' | 'locale'>,
  site: { name: string; phone: string },
  urls: { page: string; images: string[] },
) {
  const location = car.location;
  const seller = compact({
    '@type': 'AutoDealer',
    name: car.dealershipName || site.name,
    telephone: car.phone || site.phone,
    address: location
      ? compact({
          '@type': 'PostalAddress',
          streetAddress: location.street,
          addressLocality: location.city,
          addressRegion: location.state,
          postalCode: location.postcode,
          addressCountry: location.country,
        })
      : undefined,
  });
  const offer = compact({
    '@type': 'Offer',
    url: urls.page,
    price: car.price > MIN_SHOWN_PRICE ? car.price : undefined,
    priceCurrency: config.currency,
    availability: AVAILABILITY[car.status],
    itemCondition: CONDITION[car.carType],
    seller,
  });
  return compact({
    '@context': 'https://schema.org',
    '@type': car.itemType === 'car' ? 'Car' : 'Vehicle',
    name: car.name,
    description: car.description.trim().slice(0, 5000) || undefined,
    url: urls.page,
    image: urls.images.length > 0 ? urls.images : undefined,
    sku: car.stocknum,
    brand: { '@type': 'Brand', name: car.make },
    model: car.model,
    vehicleModelDate: String(car.year),
    vehicleIdentificationNumber: car.vin,
    itemCondition: CONDITION[car.carType],
    mileageFromOdometer: {
      '@type': 'QuantitativeValue',
      value: odometerValue(config, car.km),
      unitCode: config.distanceUnit === 'mi' ? 'SMI' : 'KMT',
    },
    color: car.colour,
    bodyType: car.simpleBody,
    fuelType: car.simpleFuel,
    vehicleTransmission: car.simpleTransmission,
    driveWheelConfiguration: car.simpleDrive,
    numberOfDoors: car.doors,
    seatingCapacity: car.seats,
    offers: offer,
  });
}

export function breadcrumbJsonLd(crumbs: Crumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: crumb.url,
    })),
  };
}

