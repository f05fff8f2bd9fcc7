import 'server-only';
import { getDb } from '@/db';
import { env } from '@/lib/env';
import { logger } from '@/lib/logger';
import { consumeLimits, DAY_MS, HOUR_MS, RateLimitedError, waitPhrase, type RateLimit } from '@/lib/rate-limit';
import type { Tenant } from '../tenancy/tenancy.types';
import { valuationFromAutograb } from './adapters/autograb-http';
import { lookupNevdis } from './adapters/nevdis-http';
import { decodeVinOffline } from './adapters/vpic-offline';
import { estimateFromComparables, type Estimate } from './vehicles.estimate';
import { findComparables } from './vehicles.queries';
import type { EstimateAnswer, LookupAnswer, VehicleIdentity } from './vehicles.types';
import { VEHICLE_MESSAGES, type EstimateRequest, type VehicleLookupInput } from './vehicles.validation';

/**
 * Vehicle lookups (POST /api/nevdis) and estimates (POST /api/simple-autograb-lookup): providers
 * where configured, the local defaults otherwise (VINs decoded offline, estimates from comparable
 * listings). Every lookup counts against the client address's hourly limit (the local work costs
 * CPU); only a call to a paid provider counts against the website's daily provider quota, so free
 * offline answers can never use it up, and once it is used up the local answer stands in.
 */

export const VEHICLE_LIMITS = { lookupsPerIpPerHour: 30, lookupsPerWebsitePerDay: 2000, estimatesPerIpPerHour: 30 } as const;
const LIMIT_MESSAGE = (seconds: number) => `Too many vehicle lookups. Please try again in ${waitPhrase(seconds)}, or enter the details yourself.`;

type Kind = 'lookup' | 'estimate';

function clientLimits(kind: Kind, tenant: Tenant, ip: string | null): RateLimit[] {
  const perIp = kind === 'lookup' ? VEHICLE_LIMITS.lookupsPerIpPerHour : VEHICLE_LIMITS.estimatesPerIpPerHour;
  return ip ? [{ key: `vehicle-${kind}-ip:${tenant.id}:${ip}`, max: perIp, durationMs: HOUR_MS, message: LIMIT_MESSAGE }] : [];
}

/** The website's daily quota of paid provider calls: whether one more may be made now (counted when it may). */
async function providerQuotaAllows(kind: Kind, tenant: Tenant): Promise<boolean> {
  try {
    await consumeLimits(await getDb(), [{ key: `vehicle-${kind}-site:${tenant.id}`, max: VEHICLE_LIMITS.lookupsPerWebsitePerDay, durationMs: DAY_MS, message: LIMIT_MESSAGE }]);
    return true;
  } catch (error) {
    if (error instanceof RateLimitedError) return false;
    throw error;
  }
}

const found = (vehicle: VehicleIdentity | null): LookupAnswer => (vehicle ? { vehicle, message: null } : { vehicle: null, message: VEHICLE_MESSAGES.notFound });

export async function lookupVehicle(tenant: Tenant, input: VehicleLookupInput, ip: string | null, provider = env().nevdis): Promise<LookupAnswer> {
  await consumeLimits(await getDb(), clientLimits('lookup', tenant, ip));
  try {
    const offline = input.vin ? await decodeVinOffline(input.vin) : null;
    if (offline || (input.vin && !provider)) return found(offline);
    if (!provider) return { vehicle: null, message: VEHICLE_MESSAGES.registrationOffline };
    // Past the website's provider quota: a VIN keeps its offline answer; a registration has none.
    if (!(await providerQuotaAllows('lookup', tenant))) return input.vin ? found(null) : { vehicle: null, message: VEHICLE_MESSAGES.registrationOffline };
    return found(await lookupNevdis(provider, input.vin ? { vin: input.vin } : { registration: input.rego!, state: input.state! }));
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
  await consumeLimits(await getDb(), clientLimits('estimate', tenant, ip));
  const vehicle = { make: input.make, model: input.model, year: input.year, km: input.km, state: input.state ?? null };
  const provider = env().autograb;
  if (provider && (await providerQuotaAllows('estimate', tenant))) {
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
