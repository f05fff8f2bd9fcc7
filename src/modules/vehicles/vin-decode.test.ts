import { describe, expect, it } from 'vitest';
import { decodeVinOffline } from './adapters/vpic-offline';
import { expectedCheckDigit } from './vin';

/** Real VIN patterns of each make, the serial made up and the check digit computed for it. */
const vin = (pattern: string) => pattern.slice(0, 8) + expectedCheckDigit(pattern) + pattern.slice(9);

describe('offline VIN decoding (vPIC data)', () => {
  it('decodes common Australian-market makes: Toyota, Mazda, Hyundai, Ford, Kia', async () => {
    const cases: [string, Record<string, unknown>][] = [
      [vin('4T1BF1FK0CU123456'), { make: 'Toyota', model: 'Camry', year: 2012, body: 'Sedan' }],
      [vin('JM1BL1SF0A1123456'), { make: 'Mazda', model: 'Mazda3', year: 2010 }],
      [vin('KMHDH4AE0DU123456'), { make: 'Hyundai', model: 'Elantra', year: 2013 }],
      [vin('1FTFW1ET0DFC12345'), { make: 'Ford', model: 'F-150', year: 2013, body: 'Pickup' }],
      [vin('5XXGM4A70DG123456'), { make: 'Kia', model: 'Optima', year: 2013 }],
    ];
    for (const [value, expected] of cases) expect(await decodeVinOffline(value), value).toMatchObject({ vin: value, ...expected });
  }, 60_000);

  it('knows the maker of Australian-delivered cars vPIC does not list, and guesses no year from a VIN without the check digit', async () => {
    expect(await decodeVinOffline('MR0FA3CD100123456')).toMatchObject({ make: 'Toyota', model: null, year: null });
    expect(await decodeVinOffline('6FPPXXMJ2PJG12345')).toMatchObject({ make: 'Ford', year: null });
    // A Korean VIN to the North American rule (its check digit adds up): 'K' read as 2019, not 1989.
    expect(await decodeVinOffline('KMHJ381A8KU123456')).toMatchObject({ make: 'Hyundai', year: 2019 });
  }, 60_000);

  it('knows nothing of a maker code nobody uses', async () => {
    expect(await decodeVinOffline('ZZZ11111111111111')).toBeNull();
  }, 60_000);
});
