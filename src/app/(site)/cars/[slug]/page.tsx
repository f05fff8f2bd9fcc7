import type { Metadata } from 'next';
import { CarPage, carPageMetadata, type CarPageParams, type CarPageSearchParams } from '@/screens/car-page';

// One car page module for /cars, /motorcycles and /campers; a website answers on its own
// vehicle path and redirects the others there.
const segment = 'cars';

export async function generateMetadata({ params }: { params: CarPageParams }): Promise<Metadata> {
  return carPageMetadata(params, segment);
}

export default function Page({ params, searchParams }: { params: CarPageParams; searchParams: CarPageSearchParams }) {
  return <CarPage params={params} searchParams={searchParams} segment={segment} />;
}
