import type { Estimate } from './vehicles.estimate';

/** A vehicle as far as a lookup knows it (POST /api/nevdis); null where unknown. */
export type VehicleIdentity = {
  vin: string | null;
  make: string | null;
  model: string | null;
  badge: string | null;
  year: number | null;
  body: string | null;
  fuel: string | null;
  transmission: string | null;
  colour: string | null;
};

export type LookupAnswer = { vehicle: VehicleIdentity | null; message: string | null };

/** POST /api/simple-autograb-lookup answer: the estimate, and where it came from. */
export type EstimateAnswer = Estimate & { source: 'comparables' | 'autograb' };
