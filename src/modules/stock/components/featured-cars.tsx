import type { Tenant } from '@/modules/tenancy/tenancy.types';

/** Placeholder until the stock components land: six featured in-stock used cars. */
export async function FeaturedCars(_props: { tenant: Tenant }) {
  return null;
}
