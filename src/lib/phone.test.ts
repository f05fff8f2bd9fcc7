import { describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString as parseWithMax } from 'libphonenumber-js/max';
import { installedMaxMetadata, phoneMetadataFor } from '../../scripts/build-phone-metadata';
import {
  enquiryPhone,
  mobilePhoneRule,
  formatPhoneForSubmit,
  normalizePhone,
  parsePhone,
  PHONE_MESSAGES,
  phoneError,
  toAustralianE164,
  toUsE164,
  type PhoneCountry,
  type PhoneRule,
} from './phone';
import { PHONE_COUNTRIES } from './phone-countries';
import committedMetadata from './phone-metadata.json';

const AU: PhoneRule = { country: 'AU', mobileOnly: false, format: 'local', testNumber: null };
const AU_MOBILE: PhoneRule = { ...AU, mobileOnly: true };
const AU_E164: PhoneRule = { ...AU, format: 'e164' };
const NZ: PhoneRule = { ...AU, country: 'NZ' };
const US: PhoneRule = { ...AU, country: 'US' };
const US_E164: PhoneRule = { ...US, format: 'e164' };

describe('normalizePhone', () => {
  it.each([
    ['0411 222 333', '0411222333'],
    ['(02) 9999-1234', '0299991234'],
    ['+61 411 222 333', '0411222333'],
    ['+61 (0) 411 222 333', '0411222333'],
    ['0061411222333', '0411222333'],
    ['61411222333', '0411222333'],
  ])('AU %s → %s', (raw, expected) => expect(normalizePhone(raw, 'AU')).toBe(expected));

  it.each([
    ['+64 21 123 4567', '0211234567'],
    ['021 123 4567', '0211234567'],
  ])('NZ %s → %s', (raw, expected) => expect(normalizePhone(raw, 'NZ')).toBe(expected));

  it.each([
    ['+1 (202) 555-0123', '2025550123'],
    ['1 202 555 0123', '2025550123'],
    ['(202) 555-0123', '2025550123'],
  ])('US %s → %s', (raw, expected) => expect(normalizePhone(raw, 'US')).toBe(expected));
});

describe('phoneError', () => {
  it.each(['0411 222 333', '(02) 9999 1234', '+61 411 222 333', '61411222333', '0491570156', '03 9123 4567'])('accepts Australian %s', (raw) =>
    expect(phoneError(raw, AU)).toBeNull(),
  );

  it.each(['', '12345', '0411 222 33', '0411 222 3333', 'abcdefghij', '+64 21 123 4567', '0011 222 333', '0411<script>'])(
    'refuses %j as not Australian',
    (raw) => expect(phoneError(raw, AU)).toBe(PHONE_MESSAGES.australian),
  );

  it('mobile-only refuses a valid landline with its own message and accepts a mobile', () => {
    expect(phoneError('(02) 9999 1234', AU_MOBILE)).toBe(PHONE_MESSAGES.australianMobile);
    expect(phoneError('0411 222 333', AU_MOBILE)).toBeNull();
    expect(phoneError('12', AU_MOBILE)).toBe(PHONE_MESSAGES.australian);
  });

  // Issue 31 item 5: the finance popup's 'Your Details' takes mobiles only on every website's country.
  it('mobile-only on NZ and US websites: a landline gets the country’s mobile message', () => {
    expect(phoneError('(02) 9999 1234', AU_MOBILE)).toBe('Must be an Australian mobile number.');
    expect(phoneError('09 300 1234', { ...NZ, mobileOnly: true })).toBe('Must be a New Zealand mobile number.');
    expect(phoneError('021 123 4567', { ...NZ, mobileOnly: true })).toBeNull();
    // US numbers are fixed line or mobile alike: accepted.
    expect(phoneError('(202) 555-0123', { ...US, mobileOnly: true })).toBeNull();
  });

  it('NZ: valid numbers pass; others are not New Zealand numbers; 15+ characters are too many', () => {
    expect(phoneError('021 123 4567', NZ)).toBeNull();
    expect(phoneError('09 300 1234', NZ)).toBeNull();
    expect(phoneError('+64 21 1234567', NZ)).toBeNull(); // 14 characters
    expect(phoneError('0411 222 333', NZ)).toBe(PHONE_MESSAGES.newZealand);
    expect(phoneError('12345678901234', NZ)).toBe(PHONE_MESSAGES.newZealand); // 14 characters: the ordinary message
    expect(phoneError('021 123 4567 89', NZ)).toBe(PHONE_MESSAGES.newZealandTooLong); // 15 characters
  });

  it('mobile only in each country: the spec message for AU landlines, its NZ and US equivalents (issue 31)', () => {
    expect(phoneError('02 9999 1234', mobilePhoneRule(AU))).toBe('Must be an Australian mobile number.');
    expect(phoneError('09 300 1234', mobilePhoneRule(NZ))).toBe('Must be a New Zealand mobile number.');
    expect(phoneError('021 123 4567', mobilePhoneRule(NZ))).toBeNull();
    // US numbering does not tell mobiles from landlines: a valid number may take an SMS.
    expect(phoneError('(202) 555-0123', mobilePhoneRule(US))).toBeNull();
    expect(mobilePhoneRule({ ...AU, format: 'e164', testNumber: '0400 000 000' })).toEqual({ ...AU, mobileOnly: true });
  });

  it('US: a real number passes, an impossible one does not', () => {
    expect(phoneError('(202) 555-0123', US)).toBeNull();
    expect(phoneError('+1 202 555 0123', US)).toBeNull();
    expect(phoneError('(123) 456-7890', US)).toBe(PHONE_MESSAGES.us);
    expect(phoneError('0411 222 333', US)).toBe(PHONE_MESSAGES.us);
  });

  it('E.164 AU: 04… is accepted and becomes +614…; a landline or short number gets the E.164 message', () => {
    expect(toAustralianE164('0411 222 333')).toBe('+61411222333');
    expect(phoneError('0411 222 333', AU_E164)).toBeNull();
    expect(phoneError('+61 411 222 333', AU_E164)).toBeNull();
    expect(phoneError('02 9999 1234', AU_E164)).toBe(PHONE_MESSAGES.australianE164);
    expect(phoneError('0411 222 33', AU_E164)).toBe(PHONE_MESSAGES.australianE164);
    expect(formatPhoneForSubmit('0411 222 333', AU_E164)).toBe('+61411222333');
  });

  it('E.164 US: 10 digits get +1, 11 digits starting 1 get +, anything else gets the E.164 message', () => {
    expect(toUsE164('(123) 456-7890')).toBe('+11234567890');
    expect(toUsE164('1 123 456 7890')).toBe('+11234567890');
    expect(phoneError('(123) 456-7890', US_E164)).toBeNull();
    expect(phoneError('123 456 789', US_E164)).toBe(PHONE_MESSAGES.usE164);
    expect(phoneError('2 123 456 7890', US_E164)).toBe(PHONE_MESSAGES.usE164);
    expect(formatPhoneForSubmit('(123) 456-7890', US_E164)).toBe('+11234567890');
  });

  it('the configured test number is always accepted, in any spacing, and only that one', () => {
    const rule = { ...AU_MOBILE, testNumber: '0000 000 000' };
    expect(phoneError('0000000000', rule)).toBeNull();
    expect(phoneError('(00) 0000 0000', rule)).toBeNull();
    expect(phoneError('0000000001', rule)).toBe(PHONE_MESSAGES.australian);
  });
});

describe('enquiryPhone and formatPhoneForSubmit', () => {
  it('leading 61 becomes 0 before an enquiry is submitted', () => {
    expect(enquiryPhone('61411222333')).toBe('0411222333');
    expect(enquiryPhone('+61411222333')).toBe('0411222333');
    expect(enquiryPhone('0411222333')).toBe('0411222333');
  });
  it('local rule submits the national number without spaces or brackets', () => {
    expect(formatPhoneForSubmit('+61 (411) 222-333', AU)).toBe('0411222333');
    expect(formatPhoneForSubmit('+64 21 123 4567', NZ)).toBe('0211234567');
  });
});

describe('phone metadata (AU, NZ and US only)', () => {
  it('is what scripts/build-phone-metadata.ts makes from the installed libphonenumber-js (run npm run phone-metadata:build after an upgrade)', () => {
    expect(committedMetadata).toEqual(phoneMetadataFor(installedMaxMetadata(), PHONE_COUNTRIES));
  });

  // Numbers around each country's real ranges (mobiles, landlines, shared-code territories such as
  // Cocos Islands on +61 8 9162 and Canada on +1) and random digits: the subset must classify each
  // exactly as the whole 'max' metadata does.
  function corpus(country: PhoneCountry): string[] {
    const prefixes = {
      AU: ['04', '02', '03', '07', '08', '0891', '089162', '089164', '1300', '1800', '13', '05', '0'],
      NZ: ['02', '021', '022', '027', '03', '04', '06', '07', '09', '0800', '0508', '0'],
      US: ['212', '415', '416', '604', '242', '876', '800', '900', '555', '1', '0'],
    }[country];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const numbers: string[] = [];
    for (const prefix of prefixes) {
      for (let i = 0; i < 150; i++) {
        const length = 6 + Math.floor(random() * 7);
        let digits = prefix;
        while (digits.length < length) digits += Math.floor(random() * 10);
        numbers.push(digits);
      }
    }
    return numbers;
  }

  it.each(PHONE_COUNTRIES)('classifies %s numbers as the whole metadata does', (country) => {
    const describeWith = (parsed: ReturnType<typeof parsePhone>) =>
      parsed ? `${parsed.country} ${parsed.isValid()} ${parsed.getType()} ${parsed.number}` : 'none';
    const differences = corpus(country)
      .map((national) => ({ national, subset: describeWith(parsePhone(national, country)), whole: describeWith(parseWithMax(national, country)) }))
      .filter(({ subset, whole }) => {
        // Where the whole metadata places a number in another country, the rules refuse it; the
        // subset must refuse it too (not valid in this country).
        if (!whole.startsWith(country) && whole !== 'none') return subset.includes(' true ') && subset.startsWith(country);
        return subset !== whole;
      });
    expect(differences).toEqual([]);
  });
});

// Issue 36: what the mutation run left unchecked. Plain names: Stryker matches tests by name, and
// the it.each names above carry brackets.
describe('phone rules, case by case', () => {
  it('normalises to the national form: country prefixes only where they are one', () => {
    expect(normalizePhone('+61 411 222 333')).toBe('0411222333'); // AU by default
    // Too short to be 61 and a national number: left as typed.
    expect(normalizePhone('6141234', 'AU')).toBe('6141234');
    expect(normalizePhone('61412345', 'AU')).toBe('61412345');
    // An Australian 13/1300 number starts with 1: not a US country code.
    expect(normalizePhone('1300 123 456', 'AU')).toBe('1300123456');
    // US: only 11 digits starting with 1 lose the 1.
    expect(normalizePhone('1202555012', 'US')).toBe('1202555012');
    expect(normalizePhone('22025550123', 'US')).toBe('22025550123');
    expect(normalizePhone('2025550123', 'US')).toBe('2025550123');
    // Nor does a leading 1 elsewhere: 1 211 234 5678 is not the NZ mobile 021 123 45678.
    expect(normalizePhone('12112345678', 'NZ')).toBe('12112345678');
    expect(phoneError('1 211 234 5678', NZ)).toBe(PHONE_MESSAGES.newZealand);
  });

  it('turns a leading 61 into 0 before an enquiry is sent, spaces after it dropped (SPEC §5)', () => {
    expect(enquiryPhone(' 61411222333 ')).toBe('0411222333');
    expect(enquiryPhone('+61 411222333')).toBe('0411222333');
    expect(enquiryPhone('61 411222333')).toBe('0411222333');
  });

  it('writes E.164 forms as SPEC §5 says, leaving anything else as typed', () => {
    expect(toAustralianE164('61411222333')).toBe('+61411222333');
    expect(toAustralianE164('0411 222 333')).toBe('+61411222333');
    expect(toAustralianE164('411222614')).toBe('411222614');
    expect(toUsE164('+1 202 555 0123')).toBe('+12025550123');
    expect(toUsE164('120255501234')).toBe('120255501234');
    expect(toUsE164('12345')).toBe('12345');
    expect(toUsE164('+2025550123')).toBe('+2025550123');
    expect(toUsE164('20255501234')).toBe('20255501234');
  });

  it('refuses E.164 numbers with anything before or after them', () => {
    expect(phoneError('++1 202 555 0123', US_E164)).toBe(PHONE_MESSAGES.usE164);
    expect(phoneError('+1 202 555 012345', US_E164)).toBe(PHONE_MESSAGES.usE164);
    expect(phoneError('++61 411 222 333', AU_E164)).toBe(PHONE_MESSAGES.australianE164);
    expect(phoneError('+61 411 222 3334', AU_E164)).toBe(PHONE_MESSAGES.australianE164);
    // E.164 is an AU and US rule: a NZ website keeps its own check.
    expect(phoneError('021 123 4567', { ...NZ, format: 'e164' })).toBeNull();
  });

  it('counts a NZ number’s characters without the spaces around it, and refuses letters around the digits', () => {
    expect(phoneError('  021 123 4567   ', NZ)).toBeNull();
    expect(phoneError('x021 123 4567', NZ)).toBe(PHONE_MESSAGES.newZealand);
    expect(phoneError('021 123 4567x', NZ)).toBe(PHONE_MESSAGES.newZealand);
  });

  it('submits the national form unless the rule is E.164 for AU or US', () => {
    expect(formatPhoneForSubmit('(202) 555-0123', US)).toBe('2025550123');
    expect(formatPhoneForSubmit('(202) 555-0123', US_E164)).toBe('+12025550123');
    expect(formatPhoneForSubmit('+64 21 123 4567', { ...NZ, format: 'e164' })).toBe('0211234567');
  });
});
