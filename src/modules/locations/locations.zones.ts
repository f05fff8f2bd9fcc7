import { isValidTimeZone } from '@/lib/time-zone';

/**
 * The time zone a location keeps its hours in, from its country and state. A state spanning more
 * than one zone lists its main zone first; a location's stored zone is kept when it is one of its
 * state's zones (Broken Hill keeps Adelaide time in NSW, El Paso Mountain time in Texas).
 * Client-safe.
 */

const AU_ZONES: Record<string, string[]> = {
  NSW: ['Australia/Sydney', 'Australia/Broken_Hill'],
  // Canberra keeps Sydney's clock (Australia/Canberra is an alias of Australia/Sydney).
  ACT: ['Australia/Sydney'],
  VIC: ['Australia/Melbourne'],
  QLD: ['Australia/Brisbane', 'Australia/Lindeman'],
  SA: ['Australia/Adelaide'],
  NT: ['Australia/Darwin'],
  WA: ['Australia/Perth', 'Australia/Eucla'],
  TAS: ['Australia/Hobart'],
};

const NZ_ZONES = ['Pacific/Auckland', 'Pacific/Chatham'];

const EASTERN = 'America/New_York';
const CENTRAL = 'America/Chicago';
const MOUNTAIN = 'America/Denver';
const PACIFIC = 'America/Los_Angeles';

const US_ZONES: Record<string, string[]> = {
  AL: [CENTRAL], AK: ['America/Anchorage', 'America/Juneau', 'America/Nome', 'America/Adak'], AZ: ['America/Phoenix', MOUNTAIN],
  AR: [CENTRAL], CA: [PACIFIC], CO: [MOUNTAIN], CT: [EASTERN], DE: [EASTERN], DC: [EASTERN],
  FL: [EASTERN, CENTRAL], GA: [EASTERN], HI: ['Pacific/Honolulu'], ID: ['America/Boise', PACIFIC],
  IL: [CENTRAL], IN: ['America/Indiana/Indianapolis', CENTRAL], IA: [CENTRAL], KS: [CENTRAL, MOUNTAIN],
  KY: ['America/Kentucky/Louisville', EASTERN, CENTRAL], LA: [CENTRAL], ME: [EASTERN], MD: [EASTERN], MA: [EASTERN],
  MI: ['America/Detroit', 'America/Menominee'], MN: [CENTRAL], MS: [CENTRAL], MO: [CENTRAL], MT: [MOUNTAIN],
  NE: [CENTRAL, MOUNTAIN], NV: [PACIFIC], NH: [EASTERN], NJ: [EASTERN], NM: [MOUNTAIN], NY: [EASTERN],
  NC: [EASTERN], ND: [CENTRAL, MOUNTAIN], OH: [EASTERN], OK: [CENTRAL], OR: [PACIFIC, 'America/Boise'],
  PA: [EASTERN], RI: [EASTERN], SC: [EASTERN], SD: [CENTRAL, MOUNTAIN], TN: [CENTRAL, EASTERN],
  TX: [CENTRAL, MOUNTAIN], UT: [MOUNTAIN], VT: [EASTERN], VA: [EASTERN], WA: [PACIFIC], WV: [EASTERN],
  WI: [CENTRAL], WY: [MOUNTAIN], PR: ['America/Puerto_Rico'],
};

/** The zones a state's clocks keep, main zone first; empty when the state is unknown. */
export function zonesForState(country: string, state: string): string[] {
  const key = state.trim().toUpperCase();
  if (country === 'NZ') return NZ_ZONES;
  if (country === 'AU') return AU_ZONES[key] ?? [];
  if (country === 'US') return US_ZONES[key] ?? [];
  return [];
}

/**
 * The zone of a location: its stored zone when that is one of its state's zones, else the state's
 * main zone; for an unknown state the stored zone when valid, else `fallback` (the website's).
 */
export function locationTimeZone(location: { country: string; state: string; timeZone?: string | null }, fallback = 'Australia/Sydney'): string {
  const zones = zonesForState(location.country, location.state);
  const stored = location.timeZone ?? '';
  if (zones.length > 0) return zones.includes(stored) ? stored : zones[0];
  return stored && isValidTimeZone(stored) ? stored : fallback;
}
