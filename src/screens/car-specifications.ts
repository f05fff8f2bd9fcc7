import { formatOdometer, spell } from '@/lib/format';
import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { conditionLabel } from '@/modules/stock/stock.rules';
import type { CarDetail } from '@/modules/stock/stock.types';

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A car's key specifications as the car page and the compare page show them: label (in the website's words) and value, or null when not stated. */
export function specificationRows(car: CarDetail, config: WebsiteConfig): [string, string | null][] {
  const rows: [string, string | number | null | undefined][] = [
    ['Condition', capitalise(conditionLabel(car.carType, config))],
    ['Year', car.year],
    ['Odometer', formatOdometer(config, car.km)],
    ['Body', car.simpleBody],
    ['Fuel', car.simpleFuel && spell(config, car.simpleFuel)],
    ['Transmission', car.simpleTransmission],
    ['Drive', car.simpleDrive],
    ['Colour', car.colour],
    ['Seats', car.seats],
    ['Doors', car.doors],
    ['Engine', car.engine],
    ['Stock number', car.stocknum],
    ['VIN', car.vin],
  ];
  return rows.map(([label, value]) => [spell(config, label), value == null || value === '' ? null : String(value)]);
}
