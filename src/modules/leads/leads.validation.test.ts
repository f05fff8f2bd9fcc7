import { describe, expect, it } from 'vitest';
import { PHONE_MESSAGES } from '@/lib/phone';
import { parseWebsiteConfig } from '@/modules/tenancy/tenancy.config';
import { normaliseCategory, successCategorySlug } from './leads.rules';
import {
  codeSchema,
  emailSchema,
  enquiryFormOptionsFor,
  enquiryFormSchema,
  fieldErrors,
  LEAD_MESSAGES,
  leadName,
  leadRequestSchema,
  nameSchema,
  phoneRuleFor,
  postcodeSchema,
  preferredDateSchema,
  stateSchema,
  userDetailsSchema,
} from './leads.validation';

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
