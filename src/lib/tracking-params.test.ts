import { describe, expect, it } from 'vitest';
import { withoutTrackingParams } from './tracking-params';

describe('withoutTrackingParams', () => {
  it.each([
    ['/search/used-cars', '/search/used-cars'],
    ['/search/used-cars?make=Toyota', '/search/used-cars?make=Toyota'],
    ['/search/used-cars?gclid=abc', '/search/used-cars'],
    ['/search/used-cars?utm_source=google&make=Toyota&UTM_Medium=cpc&price%5Bmax%5D=30000', '/search/used-cars?make=Toyota&price%5Bmax%5D=30000'],
    ['/cars/hilux?ref=home&fbclid=1&msclkid=2&gbraid=3&wbraid=4&dclid=5&source=x', '/cars/hilux'],
    ['/search/used-cars?make=A&make=B&gclid=1', '/search/used-cars?make=A&make=B'],
    ['/search/used-cars?price[max]=30000', '/search/used-cars?price%5Bmax%5D=30000'],
    ['/search/used-cars?', '/search/used-cars'],
    // Parameters that look like tracking ones but are not.
    ['/search/used-cars?utm=1&referrer=2&sources=3', '/search/used-cars?utm=1&referrer=2&sources=3'],
  ])('%s → %s', (url, expected) => {
    expect(withoutTrackingParams(url)).toBe(expected);
  });
});
