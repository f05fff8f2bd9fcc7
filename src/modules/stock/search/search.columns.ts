import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { cars } from '../stock.schema';
import type { TermFacet } from './search.types';

/**
 * The cars column each term facet counts by, for the SQL statement and the stock index alike.
 * Location and dealership facets count by id and are named afterwards (several ids may share a
 * name); make_model counts by (make, model).
 */
export type BaseColumn = Exclude<TermFacet, 'make_model'>;

export const TERM_COLUMN: Record<BaseColumn, SQL> = {
  location_name: sql`${cars.locationId}`,
  car_type: sql`${cars.carType}`,
  make: sql`${cars.make}`,
  model: sql`${cars.model}`,
  colour: sql`${cars.colour}`,
  simple_body: sql`${cars.simpleBody}`,
  simple_transmission: sql`${cars.simpleTransmission}`,
  simple_drive: sql`${cars.simpleDrive}`,
  simple_fuel: sql`${cars.simpleFuel}`,
  dealership_name: sql`${cars.dealershipId}`,
  status: sql`${cars.status}`,
  badge: sql`${cars.badge}`,
  city: sql`${cars.city}`,
  state: sql`${cars.state}`,
  item_type: sql`${cars.itemType}`,
  tag: sql`${cars.tag}`,
  certified: sql`${cars.certified}`,
};
