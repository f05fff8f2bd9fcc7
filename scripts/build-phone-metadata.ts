/**
 * Builds src/lib/phone-metadata.json: libphonenumber-js's 'max' metadata for the countries the
 * platform serves (AU, NZ, US) only. The whole 'max' metadata is about 50 KB of compressed
 * JavaScript in every page with a phone field; these three countries are about 1 KB.
 *
 *   npm run phone-metadata:build      (again after upgrading libphonenumber-js)
 *
 * A unit test (src/lib/phone.test.ts) fails when the file differs from what this script would
 * write from the installed package.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MetadataJson } from 'libphonenumber-js/core';
import { PHONE_COUNTRIES } from '../src/lib/phone-countries';

/** The metadata with only `countries`; a calling code shared with other countries (+1) keeps only ours. */
export function phoneMetadataFor(full: MetadataJson, countries: readonly string[]): MetadataJson {
  const callingCodes: Record<string, string[]> = {};
  for (const [code, members] of Object.entries(full.country_calling_codes)) {
    const kept = members.filter((country) => countries.includes(country));
    if (kept.length > 0) callingCodes[code] = kept;
  }
  const kept = Object.fromEntries(Object.entries(full.countries).filter(([country]) => countries.includes(country)));
  return { ...full, country_calling_codes: callingCodes, countries: kept, nonGeographic: {} } as MetadataJson;
}

export function installedMaxMetadata(): MetadataJson {
  return JSON.parse(readFileSync(path.join(process.cwd(), 'node_modules', 'libphonenumber-js', 'metadata.max.json'), 'utf8'));
}

function main() {
  const target = path.join(process.cwd(), 'src', 'lib', 'phone-metadata.json');
  const body = `${JSON.stringify(phoneMetadataFor(installedMaxMetadata(), PHONE_COUNTRIES))}\n`;
  writeFileSync(target, body);
  console.log(`wrote ${path.relative(process.cwd(), target)} (${body.length} bytes) for ${PHONE_COUNTRIES.join(', ')}`);
}

if (process.argv[1] && import.meta.url === `file://${path.resolve(process.argv[1])}`) main();
