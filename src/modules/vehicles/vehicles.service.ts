import 'server-only';
import { getDb } from '@/db';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import { consumeLimits, DAY_MS, HOUR_MS, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import type { Tenant } from '../tenancy/tenancy.types';
import { valuationFromAutograb } from './adapters/autograb-http';
import { lookupNevdis } from './adapters/nevdis-http';
import { decodeVinOffline } from './adapters/vpic-offline';
import { estimateFromComparables, type Estimate } from './vehicles.estimate';
import { findComparables } from './vehicles.queries';
import type { EstimateAnswer, LookupAnswer } from './vehicles.types';
import { VEHICLE_MESSAGES, type EstimateRequest, type VehicleLookupInput } from './vehicles.validation';

/**
 * Vehicle lookups (POST /api/nevdis) and estimates (POST /api/simple-autograb-lookup): providers
 * where configured, the local defaults otherwise (VINs decoded offline, estimates from comparable
 * listings). Lookups cost money with a provider and CPU without one: both are limited per client
 * address and per website.
 */

export const VEHICLE_LIMITS = { lookupsPerIpPerHour: 30, lookupsPerWebsitePerDay: 2000, estimatesPerIpPerHour: 30 } as const;
const LIMIT_MESSAGE = (seconds: number) => `Too many vehicle lookups. Please try again in ${waitPhrase(seconds)}, or enter the details yourself.`;

function limits(kind: 'lookup' | 'estimate', tenant: Tenant, ip: string | null): RateLimit[] {
  const perIp = kind === 'lookup' ? VEHICLE_LIMITS.lookupsPerIpPerHour : VEHICLE_LIMITS.estimatesPerIpPerHour;
  const list: RateLimit[] = [{ key: `vehicle-${kind}-site:${tenant.id}`, max: VEHICLE_LIMITS.lookupsPerWebsitePerDay, durationMs: DAY_MS, message: LIMIT_MESSAGE }];
  if (ip) list.unshift({ key: `vehicle-${kind}-ip:${tenant.id}:${ip}`, max: perIp, durationMs: HOUR_MS, message: LIMIT_MESSAGE });
  return list;
}

export async function lookupVehicle(tenant: Tenant, input: VehicleLookupInput, ip: string | null): Promise<LookupAnswer> {
  await consumeLimits(await getDb(), limits('lookup', tenant, ip));
  const provider = env().nevdis;
  try {
    if (input.vin) {
      const vehicle = (await decodeVinOffline(input.vin)) ?? (provider ? await lookupNevdis(provider, { vin: input.vin }) : null);
      return vehicle ? { vehicle, message: null } : { vehicle: null, message: VEHICLE_MESSAGES.notFound };
    }
    if (!provider) return { vehicle: null, message: VEHICLE_MESSAGES.registrationOffline };
    const vehicle = await lookupNevdis(provider, { registration: input.rego!, state: input.state! });
    return vehicle ? { vehicle, message: null } : { vehicle: null, message: VEHICLE_MESSAGES.notFound };
  } catch (error) {
    logger.warn({ err: error }, 'vehicle lookup failed');
    return { vehicle: null, message: VEHICLE_MESSAGES.providerDown };
  }
}

function tradeInMargin(tenant: Tenant): number {
  return tenant.config.valuations.tradeInMarginPercent / 100;
}

/** The local estimate: comparable listings of the platform in this website's currency. */
export async function estimateFromListings(tenant: Tenant, vehicle: { make: string; model: string; year: number; km: number; state: string | null }, excludeCarId: number | null = null): Promise<Estimate> {
  const comparables = await findComparables(tenant, { make: vehicle.make, model: vehicle.model, year: vehicle.year, excludeCarId });
  return estimateFromComparables(vehicle, comparables, tradeInMargin(tenant));
}

export async function estimateVehicle(tenant: Tenant, input: EstimateRequest, ip: string | null): Promise<EstimateAnswer> {
  await consumeLimits(await getDb(), limits('estimate', tenant, ip));
  const vehicle = { make: input.make, model: input.model, year: input.year, km: input.km, state: input.state ?? null };
  const provider = env().autograb;
  if (provider) {
    try {
      return { ...(await valuationFromAutograb(provider, { ...vehicle, vin: input.vin })), source: 'autograb' };
    } catch (error) {
      logger.warn({ err: error }, 'Autograb valuation failed; estimating from listings');
    }
  }
  return { ...(await estimateFromListings(tenant, vehicle)), source: 'comparables' };
}

/**
 * Buyers trust the indicator, so an estimate stands in for market data only when it rests on
 * enough comparables that agree: at least MARKET_MIN_COMPARABLES, the middle half within
 * MARKET_MAX_SPREAD of the median.
 */
export const MARKET_MIN_COMPARABLES = 5;
export const MARKET_MAX_SPREAD = 0.2;

function isConfident(estimate: Estimate): estimate is Extract<Estimate, { ok: true }> {
  return estimate.ok && estimate.comparables >= MARKET_MIN_COMPARABLES && (estimate.retail.high - estimate.retail.low) / estimate.retail.median <= MARKET_MAX_SPREAD;
}

/**
 * The market averages a car page compares its price with: the provider's (autograb_data) where the
 * car carries them, else, where the website lets the estimate fill in and the comparison is shown
 * at all, the estimate from comparable listings (the car itself left out). Null when neither.
 */
export async function marketAveragesFor<C extends MarketCar>(tenant: Tenant, car: C, eligible: boolean): Promise<C> {
  if (car.marketAveragePrice != null || car.stateMarketAveragePrice != null) return car;
  if (!eligible || !tenant.config.valuations.estimateMarketIndicator) return car;
  const estimate = await estimateFromListings(tenant, { make: car.make, model: car.model, year: car.year, km: car.km, state: car.location?.state || null }, car.id);
  if (!isConfident(estimate)) return car;
  return { ...car, marketAveragePrice: estimate.retail.median, stateMarketAveragePrice: estimate.state?.median ?? null };
}

type MarketCar = {
  id: number;
  make: string;
  model: string;
  year: number;
  km: number;
  location: { state: string } | null;
  marketAveragePrice: number | null;
  stateMarketAveragePrice: number | null;
};
