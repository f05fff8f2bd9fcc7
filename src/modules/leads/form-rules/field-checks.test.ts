import { describe, expect, it } from 'vitest';
import type { FieldDef, LeadSite } from './fields';
import { contactFields, valuationVehicleFields } from './fields';
import { fieldError, submitValue } from './field-checks';
import type { z } from 'zod';
import { choiceSchema, messageSchema, phoneSchema, requiredTextSchema, stateSchema, valuationSchema, emailSchema, nameSchema, postcodeSchema } from './schemas';

const site: LeadSite = {
  websiteSlug: 'harbour-city-motors',
  locale: 'en-AU',
  timeZone: 'Australia/Sydney',
  dealershipSlug: 'harbour-city-mazda',
  phoneRule: { country: 'AU', mobileOnly: false, format: 'local', testNumber: null },
  messageRequired: true,
  minimumFillSeconds: 3,
};
const field = (name: string) => contactFields().find((f) => f.name === name)!;

describe('form field checks (the API schemas, SPEC §5 messages)', () => {
  it('requires required fields', () => {
    expect(fieldError(field('email'), '', site)).toBe('*This is a required field.');
    expect(fieldError(field('email'), '   ', site)).toBe('*This is a required field.');
    expect(fieldError(field('last_name'), '', site)).toBeNull();
  });

  it('checks email, names and postcode with the exact messages', () => {
    expect(fieldError(field('email'), 'not-an-email', site)).toBe('invalid email address');
    expect(fieldError(field('email'), 'ann@example.com.au', site)).toBeNull();
    expect(fieldError(field('name'), 'Ann2', site)).toBe('Please use alphabetical characters only.');
    expect(fieldError(field('name'), 'Zoë Anne', site)).toBeNull();
    expect(fieldError(field('postcode'), '200', site)).toBe('Invalid postcode. Please enter a 4-digit number.');
    expect(fieldError(field('postcode'), '20000', site)).toBe('Invalid postcode. Please enter a 4-digit number.');
    expect(fieldError(field('postcode'), '2000', site)).toBeNull();
  });

  it('takes the postcode rule from the website country: label, input attributes and check (issue 31)', () => {
    const au = contactFields(site).find((f) => f.name === 'postcode')!;
    expect(au).toMatchObject({ label: 'Postcode', maxLength: 4, pattern: '\\d{4}' });
    const nzSite: LeadSite = { ...site, locale: 'en-NZ', phoneRule: { ...site.phoneRule, country: 'NZ' } };
    const nz = contactFields(nzSite).find((f) => f.name === 'postcode')!;
    expect(nz).toMatchObject({ label: 'Postcode', maxLength: 4 });
    expect(fieldError(nz, '6011', nzSite)).toBeNull();
    expect(fieldError(nz, '60111', nzSite)).toBe('Invalid postcode. Please enter a 4-digit number.');
    const usSite: LeadSite = { ...site, locale: 'en-US', phoneRule: { ...site.phoneRule, country: 'US' } };
    const us = contactFields(usSite).find((f) => f.name === 'postcode')!;
    expect(us).toMatchObject({ label: 'ZIP code', maxLength: 10 });
    expect(new RegExp(`^(?:${us.pattern})$`).test('75201-1234')).toBe(true);
    expect(fieldError(us, '75201', usSite)).toBeNull();
    expect(fieldError(us, '75201-1234', usSite)).toBeNull();
    expect(fieldError(us, '7520', usSite)).toBe('Invalid ZIP code. Please enter a 5-digit number.');
  });

  it('refuses a date before today in the website time zone (issue 31)', () => {
    const date: FieldDef = { name: 'preferred_date', label: 'Preferred date', kind: 'date' };
    const day = (offset: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: site.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + offset * 86_400_000));
    expect(fieldError(date, day(-1), site)).toBe('Please choose today or a later date.');
    expect(fieldError(date, day(0), site)).toBeNull();
    expect(fieldError(date, '2099-02-30', site)).toBe('Please choose a real date.');
    expect(fieldError(date, '', site)).toBeNull();
  });

  it('checks the phone by the site rule and sends it normalised', () => {
    expect(fieldError(field('phone'), '12', site)).toBe('Invalid phone number. Must be an Australian number.');
    expect(fieldError(field('phone'), '+61 411 222 333', site)).toBeNull();
    expect(submitValue(field('phone'), '+61 411 222 333', site)).toBe('0411222333');
    const mobileOnly = { ...site, phoneRule: { ...site.phoneRule, mobileOnly: true } };
    expect(fieldError(field('phone'), '02 9999 9999', mobileOnly)).toBe('Must be an Australian mobile number.');
  });

  it('accepts only the offered options of a select', () => {
    const select: FieldDef = { name: 'category', label: 'Type', kind: 'select', required: true, options: [{ value: 'A', label: 'A' }] };
    expect(fieldError(select, 'A', site)).toBeNull();
    expect(fieldError(select, 'B', site)).toBe('Please choose one of the options.');
    expect(fieldError(select, '', site)).toBe('*This is a required field.');
  });

  it('requires a ticked box only when the box is required', () => {
    const box: FieldDef = { name: 'opt_in', label: 'Opt in', kind: 'checkbox' };
    expect(fieldError(box, false, site)).toBeNull();
    expect(fieldError({ ...box, required: true }, false, site)).toBe('*This is a required field.');
    expect(submitValue(box, true, site)).toBe(true);
  });

  it('parses a year as an integer and leaves empty values out', () => {
    const year: FieldDef = { name: 'year', label: 'Year', kind: 'year' };
    expect(fieldError(year, '19', site)).toBe('Please enter a 4-digit year.');
    expect(fieldError(year, '2019', site)).toBeNull();
    expect(submitValue(year, ' 2019 ', site)).toBe(2019);
    expect(submitValue(field('email'), '  ', site)).toBeNull();
  });

  it('checks a rego and an odometer as the valuation API does', () => {
    const rego: FieldDef = { name: 'rego', label: 'Rego', kind: 'rego', required: true };
    const km: FieldDef = { name: 'km', label: 'Odometer', kind: 'km' };
    expect(fieldError(rego, 'ABC-123', site)).toBeNull();
    expect(fieldError(rego, 'ABC<1>', site)).toBe('must be letters and digits');
    expect(fieldError(rego, 'A'.repeat(21), site)).toBe('Please use at most 20 characters.');
    expect(fieldError(km, '85,000', site)).toBeNull();
    expect(submitValue(km, '85,000', site)).toBe(85000);
    expect(fieldError(km, '85k', site)).toBe('Please enter whole kilometres, digits only.');
    expect(fieldError(km, '-5', site)).toBe('Please enter whole kilometres, digits only.');
    expect(fieldError(km, '12345678', site)).toBe('Please enter whole kilometres, digits only.');
  });
});

describe('the trade-in vehicle step (issue 31: a VIN identifies the car)', () => {
  const fields = valuationVehicleFields(site);
  const byName = (name: string) => fields.find((f) => f.name === name)!;
  const errorsWith = (values: Record<string, string>) =>
    Object.fromEntries(
      ['rego', 'state', 'vin'].map((name) => [name, fieldError(byName(name), values[name], site, (other) => values[other])]),
    );

  it('asks for the rego and state when there is no VIN', () => {
    expect(errorsWith({})).toEqual({ rego: '*This is a required field.', state: '*This is a required field.', vin: null });
    expect(errorsWith({ rego: 'ABC123' })).toEqual({ rego: null, state: '*This is a required field.', vin: null });
  });

  it('needs neither when the VIN is there (typed, or filled by the lookup)', () => {
    expect(errorsWith({ vin: 'JTDBR32E720123456' })).toEqual({ rego: null, state: null, vin: null });
    expect(errorsWith({ vin: '   ' })).toEqual({ rego: '*This is a required field.', state: '*This is a required field.', vin: null });
  });
});

describe('the browser checks agree with the lead API schemas', () => {
  // The forms check fields without zod (checks.ts); the API parses with zod
  // (schemas.ts). For every kind of field, both must give the same first message.
  const options = [{ value: 'Sales', label: 'Sales' }, { value: 'Service', label: 'Service' }];
  const schemas: [FieldDef, z.ZodType][] = [
    [{ name: 'name', label: 'Name', kind: 'first_name', required: true }, nameSchema],
    [{ name: 'email', label: 'Email', kind: 'email', required: true }, emailSchema],
    [{ name: 'postcode', label: 'Postcode', kind: 'postcode', required: true }, postcodeSchema],
    [{ name: 'phone', label: 'Phone', kind: 'phone', required: true }, phoneSchema(site.phoneRule)],
    [{ name: 'state', label: 'State', kind: 'state', required: true }, stateSchema],
    [{ name: 'category', label: 'Category', kind: 'select', required: true, options }, choiceSchema(['Sales', 'Service'])],
    [{ name: 'message', label: 'Message', kind: 'textarea', required: true }, messageSchema],
    [{ name: 'rego', label: 'Rego', kind: 'rego', required: true }, valuationSchema.shape.rego],
    [{ name: 'vin', label: 'VIN', kind: 'vin', required: true }, valuationSchema.shape.vin],
    [{ name: 'km', label: 'Kilometres', kind: 'km', required: true }, valuationSchema.shape.km],
    [{ name: 'make', label: 'Make', kind: 'text', required: true }, requiredTextSchema],
  ];
  const inputs = [
    'Ann', 'Zoë Anne', 'Ann2', 'ann@example.com', 'ann@example', 'a@b.co', '2000', '200', '20000', 'abcd',
    '0411 222 333', '(02) 9999 1234', '12345', '+64 21 123 4567', 'NSW', 'QLD', 'nsw', 'Sales', 'Other',
    'ABC123', 'ABC-12 3', 'ABC_123', '1HGCM82633A004352', '1HGCM8263', 'IOQ45678901', '120000', '5000000', '5000001',
    'line one\nline two', 'tab\there', 'bell\u0007', '<script>alert(1)</script>', 'x'.repeat(21), 'x'.repeat(201), 'é'.repeat(101),
    `${'a'.repeat(250)}@example.com`, 'a'.repeat(5001),
  ];

  it.each(schemas.map(([field, schema]) => [field.kind, field, schema] as const))('%s', (_kind, field, schema) => {
    const disagreements = inputs
      .map((input) => {
        const api = schema.safeParse(input);
        const apiMessage = api.success ? null : (api.error.issues[0]?.message ?? null);
        return { input, form: fieldError(field, input, site), api: apiMessage };
      })
      // The form checks km as digits first (its own message); the API then takes the number.
      .filter(({ input, form, api }) => !(field.kind === 'km' && !/^\d{1,7}$/.test(input)) && form !== api);
    expect(disagreements).toEqual([]);
  });
});
