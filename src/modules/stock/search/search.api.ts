import 'server-only';
import type { CarSummary } from '../stock.types';
import type { SearchResponse } from './search.types';

/** A hit in the JSON API, with the field names of SPEC §3 Car. */
export function hitJson(car: CarSummary) {
  return {
    id: car.id,
    slug: car.slug,
    name: car.name,
    make: car.make,
    model: car.model,
    badge: car.badge,
    series: car.series,
    year: car.year,
    km: car.km,
    price: car.price,
    price_type: car.priceType,
    before_price: car.beforePrice,
    subscription_price: car.subscriptionPrice,
    car_type: car.carType,
    status: car.status,
    item_type: car.itemType,
    certified: car.certified,
    reserved: car.reserved,
    sold: car.status === 'sold',
    sold_date_timestamp: car.soldDateTimestamp,
    preorder: car.preorder,
    show_on_dealer_website: car.showOnDealerWebsite,
    photos_count: car.photosCount,
    tag: car.tag,
    simple_fuel: car.simpleFuel,
    simple_body: car.simpleBody,
    simple_transmission: car.simpleTransmission,
    city: car.city,
    state: car.state,
    created_at_timestamp: car.createdAtTimestamp,
    primary_image_url: car.image?.url ?? null,
    location: car.location ? { name: car.location.name, slug: car.location.slug } : null,
  };
}

export function searchResponseJson(response: SearchResponse) {
  return { ...response, hits: response.hits.map(hitJson) };
}
