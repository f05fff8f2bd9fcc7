import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { normaliseCategory, successCategorySlug } from './flow';
import { codeSchema, enquiryFormOptionsFor, enquiryFormSchema, leadDisplayName, leadName, leadPayloadSchema, leadRequestSchema, messageSchema, miscellaneousRequestSchema, preferredDateSchema, requiredTextSchema, stateSchema, valuationSchema, emailSchema, nameSchema, postcodeSchema, userDetailsSchema } from './schemas';
import { LEAD_MESSAGES } from './messages';
import { phoneRuleFor } from '@/modules/tenancy/tenancy.country';
import { fieldErrors } from '@/lib/http';
import { DEFAULT_PHONE_RULE, PHONE_MESSAGES } from '@/lib/phone';

function messageOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? null);
}

describe('field rules', () => {
  it('required fields say "*This is a required field."', () => {
    for (const schema of [nameSchema, emailSchema, postcodeSchema]) {
      expect(messageOf(schema.safeParse(''))).toBe(LEAD_MESSAGES.required);
      expect(messageOf(schema.safeParse('   '))).toBe(LEAD_MESSAGES.required);
      expect(messageOf(schema.safeParse(undefined))).toBe(LEAD_MESSAGES.required);
    }
  });

  it.each(['jane@example.com', 'jane.citizen+cars@mail.example.com.au', "o'brien@example.co.nz"])('accepts email %s', (email) =>
    expect(emailSchema.safeParse(email).success).toBe(true),
  );
  it.each(['jane', 'jane@', 'jane@example', '@example.com', 'jane @example.com', 'jane@exa_mple.com', 'a@b..com', '<script>@x.com'])(
    'refuses email %s',
    (email) => expect(messageOf(emailSchema.safeParse(email))).toBe(LEAD_MESSAGES.email),
  );

  it.each(['Jane', 'Jane Citizen', 'José', 'Zoë Ng', '  Jane  '])('accepts name %j', (name) => expect(nameSchema.safeParse(name).success).toBe(true));
  it.each(['Jane2', 'J@ne', "O'Brien", 'Jane-Citizen', '<b>', 'DROP TABLE leads;'])('refuses name %j', (name) =>
    expect(messageOf(nameSchema.safeParse(name))).toBe(LEAD_MESSAGES.name),
  );
  it('a name of 100 characters passes, 101 does not', () => {
    expect(nameSchema.safeParse('a'.repeat(100)).success).toBe(true);
    expect(messageOf(nameSchema.safeParse('a'.repeat(101)))).toBe(LEAD_MESSAGES.tooLong(100));
  });

  it.each(['2000', '0800', '6000'])('accepts postcode %s', (postcode) => expect(postcodeSchema.safeParse(postcode).success).toBe(true));
  it.each(['200', '20000', 'abcd', '20 0', '２０００'])('refuses postcode %j', (postcode) =>
    expect(messageOf(postcodeSchema.safeParse(postcode))).toBe('Invalid postcode. Please enter a 4-digit number.'),
  );

  it('code: required, then exactly 6 digits', () => {
    expect(messageOf(codeSchema.safeParse(''))).toBe('This is a required field.');
    expect(messageOf(codeSchema.safeParse('12345'))).toBe('Code must be 6 digits.');
    expect(messageOf(codeSchema.safeParse('1234567'))).toBe('Code must be 6 digits.');
    expect(messageOf(codeSchema.safeParse('12a456'))).toBe('Code must be 6 digits.');
    expect(codeSchema.safeParse('123456').success).toBe(true);
  });

  it('states: the eight Australian states and territories', () => {
    for (const state of ['NSW', 'QLD', 'VIC', 'ACT', 'NT', 'SA', 'TAS', 'WA']) expect(stateSchema.safeParse(state).success).toBe(true);
    expect(stateSchema.safeParse('NZ').success).toBe(false);
    expect(messageOf(stateSchema.safeParse(''))).toBe(LEAD_MESSAGES.required);
  });

  it('test-drive date is optional; a given date must exist', () => {
    expect(preferredDateSchema.safeParse({}).success).toBe(true);
    expect(preferredDateSchema.safeParse({ day: '', month: '', year: '' }).success).toBe(true);
    expect(preferredDateSchema.safeParse({ day: '29', month: '2', year: '2028' }).success).toBe(true);
    expect(preferredDateSchema.safeParse({ day: '29', month: '2', year: '2027' }).success).toBe(false);
  });
});

describe('tenant phone rule', () => {
  it('comes from the locale and the leads configuration', () => {
    expect(phoneRuleFor(parseWebsiteConfig({}))).toEqual({ country: 'AU', mobileOnly: false, format: 'local', testNumber: '0400 000 000' });
    const nz = phoneRuleFor(parseWebsiteConfig({ locale: 'en-NZ' }));
    expect(nz.country).toBe('NZ');
    const strict = phoneRuleFor(parseWebsiteConfig({ leads: { mobileOnly: true, phoneFormat: 'e164', testPhoneNumber: null } }));
    expect(strict).toEqual({ country: 'AU', mobileOnly: true, format: 'e164', testNumber: null });
  });

  it('the user details schema applies it and gives the submitted form of the number', () => {
    const details = { name: 'Jane', email: 'jane@example.com', postcode: '2000' };
    const au = userDetailsSchema(phoneRuleFor(parseWebsiteConfig({ leads: { mobileOnly: true } })));
    expect(messageOf(au.safeParse({ ...details, phone: '02 9999 1234' }))).toBe(PHONE_MESSAGES.australianMobile);
    expect(au.parse({ ...details, phone: '+61 411 222 333' }).phone).toBe('0411222333');
    const us = userDetailsSchema(phoneRuleFor(parseWebsiteConfig({ locale: 'en-US', leads: { phoneFormat: 'e164' } })));
    expect(us.parse({ ...details, postcode: '75201', phone: '(123) 456-7890' }).phone).toBe('+11234567890');
  });

  it('the postcode follows the website country: AU and NZ 4 digits, US a ZIP or ZIP+4 kept as typed (issue 31)', () => {
    const details = { name: 'Jane', email: 'jane@example.com' };
    const schemaFor = (locale: 'en-AU' | 'en-NZ' | 'en-US', phone: string) => (postcode: string) =>
      userDetailsSchema(phoneRuleFor(parseWebsiteConfig({ locale, leads: { testPhoneNumber: null } }))).safeParse({ ...details, phone, postcode });
    const au = schemaFor('en-AU', '0411 222 333');
    const nz = schemaFor('en-NZ', '021 123 4567');
    const us = schemaFor('en-US', '(214) 555-0134');
    expect(au('2000').success).toBe(true);
    expect(messageOf(au('75201'))).toBe('Invalid postcode. Please enter a 4-digit number.');
    expect(nz('6011').success).toBe(true);
    expect(messageOf(nz('60111'))).toBe('Invalid postcode. Please enter a 4-digit number.');
    expect(us('75201').data?.postcode).toBe('75201');
    expect(us('75201-1234').data?.postcode).toBe('75201-1234');
    for (const bad of ['7520', '2000', '752011', '75201-12', '75201 1234']) {
      expect(messageOf(us(bad))).toBe('Invalid ZIP code. Please enter a 5-digit number.');
    }
  });
});

describe('enquiry form', () => {
  const valid = { name: 'Jane', last_name: '', email: 'jane@example.com', phone: '0411 222 333', postcode: '2000', message: 'Is it still available?' };

  it('accepts a filled form with optional fields left blank', () => {
    const schema = enquiryFormSchema(enquiryFormOptionsFor(parseWebsiteConfig({ leads: { showCategorySelect: false } })));
    const parsed = schema.parse({ ...valid, Rego: '', opt_in: false });
    expect(parsed.last_name).toBeUndefined();
    expect(parsed.Rego).toBeUndefined();
    // Services picked and the honeypot are taken as given (the honeypot is scored as spam later).
    expect(schema.parse({ ...valid, additional_services: ['Window tinting'], favourite_color: 'blue' })).toMatchObject({ additional_services: ['Window tinting'], favourite_color: 'blue' });
  });

  it('gives each wrong field its message, all at once', () => {
    const schema = enquiryFormSchema(enquiryFormOptionsFor(parseWebsiteConfig({})));
    const result = schema.safeParse({ name: 'J4ne', email: 'jane@', phone: '123', postcode: '20', message: '' });
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      name: LEAD_MESSAGES.name,
      email: LEAD_MESSAGES.email,
      phone: PHONE_MESSAGES.australian,
      postcode: LEAD_MESSAGES.postcode,
      message: LEAD_MESSAGES.required,
      category: LEAD_MESSAGES.required,
    });
  });

  it('message is optional when the site disables it; shown selects are required and must hold an option', () => {
    const config = parseWebsiteConfig({ leads: { messageRequired: false, showDealershipSelect: true } });
    const schema = enquiryFormSchema(enquiryFormOptionsFor(config, { locations: ['Sydney'], dealerships: ['harbour-city'] }));
    const base = { ...valid, message: '', category: 'General Enquiry', location: 'Sydney', dealership_slug: 'harbour-city' };
    expect(schema.safeParse(base).success).toBe(true);
    expect(messageOf(schema.safeParse({ ...base, location: '' }))).toBe(LEAD_MESSAGES.required);
    expect(messageOf(schema.safeParse({ ...base, dealership_slug: 'elsewhere' }))).toBe(LEAD_MESSAGES.option);
    expect(messageOf(schema.safeParse({ ...base, 'where-did-you-hear-about-us': 'Carrier pigeon' }))).toBe(LEAD_MESSAGES.option);
    expect(schema.safeParse({ ...base, 'where-did-you-hear-about-us': 'Google' }).success).toBe(true);
  });
});

describe('lead API payload', () => {
  const schema = leadRequestSchema();
  const lead = { name: 'Jane Citizen', email: 'jane@example.com', phone: '0411 222 333', category: 'General Enquiry' };

  it('accepts the lead payload with lead form defaults kept as extra fields', () => {
    const parsed = schema.parse({ lead: { ...lead, 'Vehicle Make': 'Mazda', stock_number: 'A123', opt_in: true, car_id: '12', visited_pages: ['/a'] } });
    expect(parsed.lead.car_id).toBe(12);
    expect(parsed.lead['Vehicle Make']).toBe('Mazda');
    expect(parsed.lead.phone).toBe('0411222333');
  });

  it('a complete lead needs category, a name and an email or phone; a partial save does not', () => {
    const result = schema.safeParse({ lead: {} });
    expect(fieldErrors(result.error!)).toEqual({ 'lead.category': LEAD_MESSAGES.required, 'lead.name': LEAD_MESSAGES.required, 'lead.email': LEAD_MESSAGES.required });
    expect(schema.safeParse({ lead: { lead_status: 'Incomplete', form_completed: false, step_number: 1 } }).success).toBe(true);
    expect(schema.safeParse({ lead: { ...lead, email: '' } }).success).toBe(true);
  });

  it('keeps the last 50 visited pages', () => {
    const pages = Array.from({ length: 70 }, (_, i) => `/page-${i}`);
    const parsed = schema.parse({ lead: { ...lead, visited_pages: pages } });
    expect(parsed.lead.visited_pages).toHaveLength(50);
    expect(parsed.lead.visited_pages?.[0]).toBe('/page-20');
  });

  it.each([
    [{ lead: 'x' }, 'lead'],
    [{ lead: { ...lead, car_id: -1 } }, 'lead.car_id'],
    [{ lead: { ...lead, car_id: 1e12 } }, 'lead.car_id'],
    [{ lead: { ...lead, email: { $gt: '' } } }, 'lead.email'],
    [{ lead: { ...lead, message: 'x'.repeat(5001) } }, 'lead.message'],
    [{ lead: { ...lead, 'bad<key>': 'x' } }, 'lead.bad<key>'],
    [{ lead: { ...lead, nested: { a: 1 } } }, 'lead.nested'],
    [{ lead: { ...lead, name: 'Jane\u0000' } }, 'lead.name'],
    [{ lead: { ...lead, lead_status: 'Done' } }, 'lead.lead_status'],
    [{}, 'lead'],
  ])('refuses %j at %s', (body, path) => {
    const result = schema.safeParse(body);
    expect(result.success).toBe(false);
    expect(Object.keys(fieldErrors(result.error!))).toContain(path);
  });

  it('name falls back to first_name when missing or "undefined undefined"', () => {
    expect(leadName({ name: 'undefined undefined', first_name: 'Jane' })).toBe('Jane');
    expect(leadName({ first_name: 'Jane' })).toBe('Jane');
    expect(leadName({ name: 'Jane Citizen', first_name: 'Jane' })).toBe('Jane Citizen');
    expect(schema.safeParse({ lead: { ...lead, name: 'undefined undefined', first_name: 'Jane' } }).success).toBe(true);
  });
});

describe('lead rules', () => {
  it('careers becomes General Enquiry / Career Enquiry with event 51; others keep their category, event 22', () => {
    expect(normaliseCategory('Careers Enquiry')).toEqual({ category: 'General Enquiry', subcategory: 'Career Enquiry', eventId: 51 });
    expect(normaliseCategory('Service Enquiry', 'Logbook')).toEqual({ category: 'Service Enquiry', subcategory: 'Logbook', eventId: 22 });
    expect(normaliseCategory('Test Drive Enquiry').eventId).toBe(14);
  });
  it('success category slug by car type', () => {
    expect(successCategorySlug('demo')).toBe('demo-vehicle-enquiry');
    expect(successCategorySlug('used')).toBe('used-vehicle-enquiry');
    expect(successCategorySlug('new')).toBe('new-vehicle-enquiry');
    expect(successCategorySlug(undefined)).toBe('new-vehicle-enquiry');
  });
});

// Issue 36: what the mutation run left unchecked. Schemas are built inside each test, so the
// per-test coverage sees them.
describe('lead API payload, field by field', () => {
  const lead = { name: 'Jane Citizen', email: 'jane@example.com', phone: '0411 222 333', category: 'General Enquiry' };
  const parse = (fields: Record<string, unknown>, mode: 'create' | 'update' = 'create') =>
    leadPayloadSchema(DEFAULT_PHONE_RULE, mode).safeParse(fields);
  const errorsOf = (fields: Record<string, unknown>, mode: 'create' | 'update' = 'create') => {
    const result = parse(fields, mode);
    return result.success ? {} : fieldErrors(result.error);
  };
  const valueOf = (fields: Record<string, unknown>) => {
    const result = parse({ ...lead, ...fields });
    if (!result.success) throw new Error(JSON.stringify(fieldErrors(result.error)));
    return result.data as Record<string, unknown>;
  };

  it('a complete lead with a shown select left blank is refused naming it; a partial save or a form without the select is not (SPEC §5)', () => {
    expect(errorsOf({ ...lead, category: '' })).toEqual({ category: '*This is a required field.' });
    expect(errorsOf({ ...lead, location_id: null })).toEqual({ location_id: '*This is a required field.' });
    // An empty location id would otherwise just be absent; blank spaces would be 'not a whole number'.
    expect(errorsOf({ ...lead, location_id: '' })).toEqual({ location_id: '*This is a required field.' });
    expect(errorsOf({ ...lead, location_id: '  ' })).toEqual({ location_id: '*This is a required field.' });
    expect(errorsOf({ ...lead, dealership_slug: '   ' })).toEqual({ dealership_slug: '*This is a required field.' });
    expect(errorsOf({ ...lead, location_id: null, dealership_slug: '', lead_status: 'Incomplete' })).toEqual({});
    expect(errorsOf({ ...lead, location_id: null, form_completed: false })).toEqual({});
    expect(errorsOf({ ...lead, location_id: 3, dealership_slug: 'harbour-city-mazda' })).toEqual({});
    expect(errorsOf(lead)).toEqual({});
  });

  it('a complete lead needs its category, a name and an email or a phone; a later step (update) sends only its own fields', () => {
    expect(errorsOf({ name: 'Jane', phone: '0411 222 333' })).toEqual({ category: '*This is a required field.' });
    expect(errorsOf({ category: 'General Enquiry', phone: '0411 222 333' })).toEqual({ name: '*This is a required field.' });
    expect(errorsOf({ category: 'General Enquiry', first_name: 'Jane', email: 'jane@example.com' })).toEqual({});
    expect(errorsOf({ category: 'General Enquiry', name: 'Jane' })).toEqual({ email: '*This is a required field.' });
    expect(errorsOf({ category: 'General Enquiry', name: 'Jane', phone: '0411 222 333' })).toEqual({});
    expect(errorsOf({ message: 'Later step' }, 'update')).toEqual({});
    // Either mark of a partial save is enough; a form that says it is complete is checked.
    expect(errorsOf({ message: 'Step 1', lead_status: 'Incomplete' })).toEqual({});
    expect(errorsOf({ message: 'Step 1', form_completed: false })).toEqual({});
    expect(errorsOf({ name: 'Jane', phone: '0411 222 333', form_completed: true })).toEqual({ category: '*This is a required field.' });
    expect(errorsOf({ message: 'Later step' }, 'create')).not.toEqual({});
  });

  it('keeps extra fields with plain names, refuses other names, and a lead of too many', () => {
    expect(valueOf({ 'Vehicle Make': 'Mazda', stock_number: 'A1', 'where-did-you-hear-about-us': 'Google' })).toMatchObject({ 'Vehicle Make': 'Mazda', stock_number: 'A1' });
    expect(errorsOf({ ...lead, 'a.b': 'x' })).toEqual({ 'a.b': 'is not an accepted field name' });
    const many = Object.fromEntries(Array.from({ length: 61 }, (_, i) => [`field_${i}`, 'x']));
    expect(errorsOf({ ...lead, ...many })).toEqual({ body: 'must have at most 60 extra fields' });
    // 60 extra fields, as the message says, besides the known ones.
    const sixty = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, 'x']));
    expect(errorsOf({ ...lead, ...sixty })).toEqual({});
    // Blank optional fields ('' or null) are absent; the honeypot is taken as text (scored as spam later).
    expect(valueOf({ last_name: null, postcode: '', favourite_color: 'blue' })).toMatchObject({ last_name: undefined, postcode: undefined, favourite_color: 'blue' });
  });

  it('drops what the form’s own code sends when it is not what it should be', () => {
    expect(valueOf({ step_number: 2, fill_ms: 4_000 })).toMatchObject({ step_number: 2, fill_ms: 4_000 });
    expect(valueOf({ step_number: 0, fill_ms: 0 })).toMatchObject({ step_number: 0, fill_ms: 0 });
    for (const bad of [-1, 1.5, '3', null]) {
      expect(valueOf({ step_number: bad, fill_ms: bad }), String(bad)).toMatchObject({ step_number: undefined, fill_ms: undefined });
    }
    expect(valueOf({ skipped_steps: [0, 2, -1, 1.5, 'x'] }).skipped_steps).toEqual([0, 2]);
    expect(valueOf({ skipped_steps: 'x' }).skipped_steps).toBeUndefined();
    expect(valueOf({ has_files: true }).has_files).toBe(true);
    expect(valueOf({ has_files: 'true' }).has_files).toBeUndefined();
    expect(valueOf({ url: 12 }).url).toBe('12');
    expect(valueOf({ url: Number.NaN }).url).toBeUndefined();
    expect(valueOf({ url: { a: 1 } }).url).toBeUndefined();
    expect(valueOf({ url: '' }).url).toBeUndefined();
  });

  it('keeps the visitor’s trail and tracking query as text only (SPEC §4)', () => {
    expect(valueOf({ visited_pages: ['/a', 5, null, '/b'] }).visited_pages).toEqual(['/a', '/b']);
    expect(valueOf({ visited_pages: '/a' }).visited_pages).toBeUndefined();
    expect(valueOf({ linked_query_params: { utm_source: 'google', n: 5, '': 'x' } }).linked_query_params).toEqual({ utm_source: 'google' });
    expect(valueOf({ linked_query_params: ['a'] }).linked_query_params).toBeUndefined();
    expect(valueOf({ linked_query_params: null }).linked_query_params).toBeUndefined();
  });

  // The bounds below are the code's own (no spec or decision gives them); each is tested at both sides.
  it('reads only the last 200 entries of the trail before keeping its last 50 pages', () => {
    const pages = Array.from({ length: 60 }, (_, i) => `/page-${i}`);
    expect(valueOf({ visited_pages: [...pages, ...Array(200).fill(0)] }).visited_pages).toEqual([]);
    expect(valueOf({ visited_pages: [...pages, ...Array(199).fill(0)] }).visited_pages).toEqual(['/page-59']);
  });

  it('keeps the first 50 tracking parameters and drops the rest', () => {
    const query = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`utm_${i}`, String(i)]));
    expect(valueOf({ linked_query_params: query(50) }).linked_query_params).toEqual(query(50));
    expect(valueOf({ linked_query_params: query(51) }).linked_query_params).toEqual(query(50));
  });

  it('takes a step number up to 50 and a fill time up to a day, and no more', () => {
    expect(valueOf({ step_number: 50, fill_ms: 86_400_000 })).toMatchObject({ step_number: 50, fill_ms: 86_400_000 });
    expect(valueOf({ step_number: 51, fill_ms: 86_400_001 })).toMatchObject({ step_number: undefined, fill_ms: undefined });
  });

  it('keeps skipped steps 0 to 50, at most 50 of them', () => {
    expect(valueOf({ skipped_steps: [50, 51] }).skipped_steps).toEqual([50]);
    const steps = Array.from({ length: 51 }, (_, i) => i);
    expect(valueOf({ skipped_steps: steps }).skipped_steps).toEqual(steps.slice(0, 50));
  });

  it('wraps the lead: a missing lead is required, another value must be an object', () => {
    const schema = leadRequestSchema({ ...DEFAULT_PHONE_RULE, testNumber: '0400 000 000' });
    expect(fieldErrors(schema.safeParse(null).error!)).toEqual({ body: '*This is a required field.' });
    expect(fieldErrors(schema.safeParse('x').error!)).toEqual({ body: 'must be an object' });
    // One schema per rule and mode: the test number of this rule is accepted by it only.
    expect(schema.safeParse({ lead: { ...lead, phone: '0400 000 000' } }).success).toBe(true);
    expect(leadRequestSchema({ ...DEFAULT_PHONE_RULE, testNumber: '0400 000 000' })).toBe(schema);
    expect(schema.parse({ lead }).lead).toMatchObject({ name: 'Jane Citizen', category: 'General Enquiry' });
    expect(leadRequestSchema({ ...DEFAULT_PHONE_RULE, testNumber: '0400 000 001' })).not.toBe(schema);
  });
});

describe('names, dates and options', () => {
  it('reads the name (SPEC §3) and shows it with the last name once', () => {
    expect(leadName({ name: '  Jane  ' })).toBe('Jane');
    expect(leadName({ name: '   ', first_name: ' Jo ' })).toBe('Jo');
    expect(leadName({})).toBe('');
    expect(leadDisplayName({ name: 'Jo', last_name: 'Citizen' })).toBe('Jo Citizen');
    expect(leadDisplayName({ name: 'Jo Citizen', last_name: 'citizen' })).toBe('Jo Citizen');
    expect(leadDisplayName({ firstName: 'Jo', lastName: 'Van Dyke' })).toBe('Jo Van Dyke');
    expect(leadDisplayName({ name: 'Jo Van Dyke', last_name: 'Van Dyke' })).toBe('Jo Van Dyke');
    expect(leadDisplayName({ name: 'Jo Dyke', last_name: 'Van Dyke' })).toBe('Jo Dyke Van Dyke');
    expect(leadDisplayName({ last_name: 'Citizen' })).toBe('Citizen');
    expect(leadDisplayName({ name: 'Jo', last_name: '  ' })).toBe('Jo');
    expect(leadDisplayName({ name: 'Jo' })).toBe('Jo');
    // Words are compared whatever the spaces between them.
    expect(leadDisplayName({ name: 'Jo Van Dyke', last_name: 'Van  Dyke' })).toBe('Jo Van Dyke');
    expect(leadDisplayName({ name: 'Jo Van  Dyke', last_name: 'Van Dyke' })).toBe('Jo Van  Dyke');
  });

  it('a test-drive date must exist when all three parts are given', () => {
    expect(preferredDateSchema.safeParse({ day: '31', month: '4', year: '2027' }).error?.issues[0]).toMatchObject({ message: 'Please choose a real date.', path: ['day'] });
    expect(preferredDateSchema.safeParse({ day: '29', month: '2', year: '2027' }).success).toBe(false);
    expect(preferredDateSchema.safeParse({ day: '29', month: '2', year: '2028' }).success).toBe(true);
    expect(preferredDateSchema.safeParse({ day: '31', month: '4' }).success).toBe(true);
    expect(preferredDateSchema.safeParse({ day: '31', year: '2027' }).success).toBe(true);
    expect(preferredDateSchema.safeParse({ month: '4', year: '2027' }).success).toBe(true);
  });

  it('shows a location or dealership select only with options to choose from', () => {
    const config = parseWebsiteConfig({ leads: { showLocationSelect: true, showDealershipSelect: true } });
    expect(enquiryFormOptionsFor(config, { locations: ['Parramatta'], dealerships: ['harbour-city-mazda'] })).toMatchObject({ locations: ['Parramatta'], dealerships: ['harbour-city-mazda'] });
    expect(enquiryFormOptionsFor(config, { locations: [], dealerships: [] })).toMatchObject({ locations: null, dealerships: null });
    expect(enquiryFormOptionsFor(config)).toMatchObject({ locations: null, dealerships: null });
    const hidden = parseWebsiteConfig({ leads: { showLocationSelect: false, showDealershipSelect: false } });
    expect(enquiryFormOptionsFor(hidden, { locations: ['Parramatta'], dealerships: ['x'] })).toMatchObject({ locations: null, dealerships: null });
  });

  it('says a value that is not text is not text, and a missing one is required', () => {
    expect(messageOf(requiredTextSchema.safeParse('line one\nline two'))).toBe('Please remove unusual characters.');
    expect(messageOf(messageSchema.safeParse('line one\nline two'))).toBeNull();
    expect(Object.keys(fieldErrors(z.object({}).strict().safeParse({ a: 1, b: 2 }).error!))).toEqual(['a, b']);
    expect(messageOf(nameSchema.safeParse(5))).toBe('must be text');
    expect(messageOf(nameSchema.safeParse(undefined))).toBe('*This is a required field.');
    expect(messageOf(stateSchema.safeParse(''))).toBe('*This is a required field.');
    expect(messageOf(stateSchema.safeParse(undefined))).toBe('*This is a required field.');
    expect(messageOf(stateSchema.safeParse('XX'))).toBe('Please choose an Australian state or territory.');
  });
});

describe('valuations', () => {
  it('checks the known fields and keeps plain extra ones', () => {
    expect(valuationSchema.parse({ rego: 'ABC123', year: '2019', km: '45000', colour: 'Red' })).toEqual({ rego: 'ABC123', year: 2019, km: 45_000, colour: 'Red' });
    expect(fieldErrors(valuationSchema.safeParse({ year: 1899 }).error!)).toEqual({ year: 'must be 1900 or later' });
    expect(fieldErrors(valuationSchema.safeParse({ year: 2101 }).error!)).toEqual({ year: 'must be 2100 or earlier' });
    expect(fieldErrors(valuationSchema.safeParse({ km: -1 }).error!)).toEqual({ km: 'must not be negative' });
    expect(fieldErrors(valuationSchema.safeParse({ 'a.b': 'x' }).error!)).toEqual({ 'a.b': 'is not an accepted field name' });
    const many = Object.fromEntries(Array.from({ length: 61 }, (_, i) => [`field_${i}`, 'x']));
    expect(fieldErrors(valuationSchema.safeParse(many).error!)).toEqual({ body: 'must have at most 60 extra fields' });
    // 60 extra fields, as the message says, besides the known ones.
    const sixty = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, 'x']));
    expect(valuationSchema.safeParse({ rego: 'ABC123', year: 2019, ...sixty }).success).toBe(true);
  });

  it('names a saved block of valuation data by a lowercase column name', () => {
    expect(miscellaneousRequestSchema.parse({ column_name: 'trade_in', data: { a: 1 } })).toEqual({ column_name: 'trade_in', data: { a: 1 } });
    expect(fieldErrors(miscellaneousRequestSchema.safeParse({ data: {} }).error!)).toEqual({ column_name: '*This is a required field.' });
    for (const name of ['Trade', '1abc', 'a-b', `a${'b'.repeat(63)}`]) {
      expect(fieldErrors(miscellaneousRequestSchema.safeParse({ column_name: name, data: {} }).error!), name).toEqual({ column_name: 'must be lowercase letters, digits and underscores' });
    }
    expect(fieldErrors(miscellaneousRequestSchema.safeParse({ column_name: 'a', data: { 'a.b': 1 } }).error!)).toEqual({ 'data.a.b': 'is not an accepted field name' });
  });
});
