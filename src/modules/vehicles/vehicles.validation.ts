import { z } from 'zod';
import { AUSTRALIAN_STATES } from '@/lib/postcode';
import { VEHICLE_MESSAGES } from './vehicles.messages';
import { checkVin } from './vin';

/** Request bodies of POST /api/nevdis and POST /api/simple-autograb-lookup (client-safe). */

export { VEHICLE_MESSAGES } from './vehicles.messages';

const vin = z
  .string()
  .max(40)
  .transform((value, context) => {
    const checked = checkVin(value);
    if (!checked.ok) {
      context.addIssue({ code: 'custom', message: checked.message });
      return z.NEVER;
    }
    return checked.vin;
  });

const rego = z
  .string()
  .max(20)
  .transform((value) => value.replace(/[\s-]+/g, '').toUpperCase())
  .refine((value) => /^[A-Z0-9]{1,9}$/.test(value), VEHICLE_MESSAGES.rego);

/** {rego, state} or {vin}. */
export const vehicleLookupSchema = z
  .strictObject({
    rego: rego.optional(),
    state: z.enum(AUSTRALIAN_STATES).optional(),
    vin: vin.optional(),
  })
  .superRefine((value, context) => {
    if (value.vin && (value.rego || value.state)) context.addIssue({ code: 'custom', message: VEHICLE_MESSAGES.lookupWhat, path: ['vin'] });
    else if (!value.vin && !(value.rego && value.state)) context.addIssue({ code: 'custom', message: VEHICLE_MESSAGES.lookupWhat, path: [value.rego ? 'state' : 'rego'] });
  });
export type VehicleLookupInput = z.output<typeof vehicleLookupSchema>;

const name = z.string().trim().min(1).max(60).regex(/^[\p{L}\p{N} .&'/-]+$/u, 'must be letters, digits and spaces');

/** The vehicle to estimate: make, model, year and kilometres (state optional). */
export const estimateRequestSchema = z.strictObject({
  make: name,
  model: name,
  year: z.coerce.number().int().min(1950).max(2100),
  km: z.coerce.number().int().min(0).max(2_000_000),
  state: z.enum(AUSTRALIAN_STATES).optional(),
  vin: vin.optional(),
});
export type EstimateRequest = z.output<typeof estimateRequestSchema>;
