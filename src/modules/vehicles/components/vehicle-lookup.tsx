'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { Estimate } from '../vehicles.estimate';
import { lookupFoundMessage, VEHICLE_MESSAGES } from '../vehicles.messages';
import { fetchEstimate, lookupVehicle, VEHICLE_CLIENT_MESSAGES } from './vehicle-client';

/**
 * The vehicle step's helpers (issue 19), shown where they belong in the step: 'Look up my car'
 * after the rego, state and VIN fills make, model and year; 'Get an instant estimate' after the
 * car's details shows the retail and trade-in range where the website allows. Both are optional:
 * the visitor can always type.
 */

/** The fields a lookup reads; the step shows them first, then the lookup. */
export const LOOKUP_FIELDS: ReadonlySet<string> = new Set(['rego', 'state', 'vin']);

type LookupProps = { valueOf: (name: string) => string; fill: (patch: Record<string, string>) => void };
type EstimateProps = { valueOf: (name: string) => string; money: (amount: number) => string; onEstimate: (estimate: Estimate | null) => void };

type Status = { tone: 'info' | 'error'; text: string } | null;

export function VehicleLookup({ valueOf, fill }: LookupProps) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function onLookup() {
    const vin = valueOf('vin').trim();
    const rego = valueOf('rego').trim();
    const state = valueOf('state').trim();
    if (!vin && !(rego && state)) return setStatus({ tone: 'error', text: VEHICLE_CLIENT_MESSAGES.lookupWhat });
    setBusy(true);
    const answer = await lookupVehicle(vin ? { vin } : { rego, state });
    setBusy(false);
    if (!answer.ok) return setStatus({ tone: 'error', text: Object.values(answer.fields)[0] ?? answer.error });
    const { vehicle, message } = answer.value;
    if (!vehicle) return setStatus({ tone: 'info', text: message ?? VEHICLE_MESSAGES.notFound });
    const patch: Record<string, string> = {};
    if (vehicle.make) patch.make = vehicle.make;
    if (vehicle.model) patch.model = vehicle.model;
    if (vehicle.year) patch.year = String(vehicle.year);
    if (vehicle.vin && !vin) patch.vin = vehicle.vin;
    fill(patch);
    const found = [vehicle.year, vehicle.make, vehicle.model, vehicle.badge].filter(Boolean).join(' ');
    // What the form still lacks once filled: the lookup's answer, else what the visitor typed.
    const missing = (['make', 'model', 'year'] as const).filter((name) => !(patch[name] ?? valueOf(name)).trim());
    setStatus({ tone: 'info', text: lookupFoundMessage(found, missing) });
  }

  return (
    <div className="sm:col-span-2" data-testid="vehicle-lookup">
      <Button variant="outline" size="sm" onClick={onLookup} disabled={busy}>
        {busy ? 'Looking up…' : 'Look up my car'}
      </Button>
      <div aria-live="polite">{status ? <StatusLine status={status} /> : null}</div>
    </div>
  );
}

export function InstantEstimate({ valueOf, money, onEstimate }: EstimateProps) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [estimate, setEstimate] = useState<Estimate | null>(null);

  async function onEstimateClick() {
    const km = Number(valueOf('km').replace(/[\s,]/g, ''));
    const year = Number(valueOf('year'));
    const make = valueOf('make').trim();
    const model = valueOf('model').trim();
    if (!make || !model || !Number.isInteger(year) || !valueOf('km').trim() || !Number.isFinite(km)) {
      return setStatus({ tone: 'error', text: VEHICLE_CLIENT_MESSAGES.estimateNeeds });
    }
    setBusy(true);
    const state = valueOf('state').trim();
    const answer = await fetchEstimate({ make, model, year, km, ...(state ? { state } : {}) });
    setBusy(false);
    if (!answer.ok) return setStatus({ tone: 'error', text: Object.values(answer.fields)[0] ?? answer.error });
    setStatus(null);
    setEstimate(answer.value);
    onEstimate(answer.value);
  }

  return (
    <div className="mt-5 rounded-site border border-gray-200 bg-gray-50 p-4">
      <Button variant="outline" size="sm" onClick={onEstimateClick} disabled={busy}>
        {busy ? 'Estimating…' : 'Get an instant estimate'}
      </Button>
      <div aria-live="polite">
        {status ? <StatusLine status={status} /> : null}
        {estimate ? (
          estimate.ok ? (
            <div className="mt-3" data-testid="instant-estimate">
              <p className="font-semibold text-gray-900">
                Retail {money(estimate.retail.low)} – {money(estimate.retail.high)}
              </p>
              <p className="text-gray-900">
                Trade-in {money(estimate.tradeIn.low)} – {money(estimate.tradeIn.high)}
              </p>
              <p className="mt-1 text-sm text-gray-700">
                From {estimate.comparables} comparable cars listed or sold lately. An estimate, not an offer: the dealer confirms the figure after seeing the car.
              </p>
            </div>
          ) : (
            <p className="mt-2 text-sm text-gray-900" data-testid="instant-estimate">{VEHICLE_MESSAGES.notEnoughData}</p>
          )
        ) : null}
      </div>
    </div>
  );
}

function StatusLine({ status }: { status: NonNullable<Status> }) {
  return <p className={status.tone === 'error' ? 'mt-2 text-sm font-medium text-red-800' : 'mt-2 text-sm text-gray-900'}>{status.text}</p>;
}
