import type { WebsiteConfig } from '@/modules/tenancy/tenancy.config';
import type { CarSummary } from '@/modules/stock/stock.types';
import { CarCard } from '@/screens/car-card';
import { carCardView } from '@/screens/car-card-view';

type Props = {
  cars: CarSummary[];
  config: WebsiteConfig;
  now: number;
  /** How many leading cards load their photo at once (the first row); the rest are lazy. */
  priorityCount?: number;
  headingLevel?: 2 | 3;
  label?: string;
};

/** Cards in a responsive grid: 1 column on phones, 2 from 576 px, 3 from 992 px. */
export function CarGrid({ cars, config, now, priorityCount = 0, headingLevel = 3, label }: Props) {
  return (
    <ul aria-label={label} className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {cars.map((car, index) => (
        <li key={car.id}>
          <CarCard view={carCardView(car, config, now, { priority: index < priorityCount, headingLevel })} />
        </li>
      ))}
    </ul>
  );
}
