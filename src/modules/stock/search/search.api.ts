import 'server-only';
import { carCoreJson } from '../stock.api';
import type { CarSummary } from '../stock.types';
import type { SearchResponse } from './search.types';

/** A hit in the JSON API, with the field names of SPEC §3 Car. */
export function hitJson(car: CarSummary) {
  return {
    ...carCoreJson(car),
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
