import { describe, expect, it } from 'vitest';
import { advanceStep, alertTone, goBackStep, initialStepState, parseStoredDetails, successCategoryLabel, successLabel, successSlug, vehicleCategory, progressPercent, successPath } from './flow';

describe('success page address', () => {
  it('uses the car type for car forms (SPEC §2)', () => {
    expect(successSlug('demo', 'New Vehicle Enquiry')).toBe('demo-vehicle-enquiry');
    expect(successSlug('used', 'Used Vehicle Enquiry')).toBe('used-vehicle-enquiry');
    expect(successSlug('new', 'Test Drive Enquiry')).toBe('new-vehicle-enquiry');
    expect(successSlug('anything', 'X')).toBe('new-vehicle-enquiry');
  });

  it('uses the category without a car', () => {
    expect(successSlug(null, 'Service Enquiry')).toBe('service-enquiry');
    expect(successSlug(undefined, 'Trade-In Enquiry')).toBe('trade-in-enquiry');
    expect(successSlug(null, '***')).toBe('general-enquiry');
  });

  it('adds the extra key=value pairs, leaving empty ones out', () => {
    expect(successPath('used-vehicle-enquiry', { car_id: 12, empty: '', none: null })).toBe(
      '/success?category=used-vehicle-enquiry&car_id=12',
    );
    expect(successPath('a&b')).toBe('/success?category=a%26b');
  });

  it('reads a slug back as words, and anything else as enquiry', () => {
    expect(successCategoryLabel('used-vehicle-enquiry')).toBe('used vehicle enquiry');
    expect(successCategoryLabel('<script>')).toBe('enquiry');
    expect(successCategoryLabel('-a')).toBe('enquiry');
    expect(successCategoryLabel(undefined)).toBe('enquiry');
    expect(successCategoryLabel('a'.repeat(61))).toBe('enquiry');
    expect(successCategoryLabel('a'.repeat(60))).toBe('a'.repeat(60));
    // Issue 31: a test drive of a used car keeps the spec's slug but says it is a test drive.
    expect(successLabel('used-vehicle-enquiry', 'test-drive')).toBe('test drive booking');
    expect(successLabel('used-vehicle-enquiry', undefined)).toBe('used vehicle enquiry');
    expect(successLabel('used-vehicle-enquiry', 'toString')).toBe('used vehicle enquiry');
  });
});

describe('vehicle category', () => {
  it('is used for used stock and new otherwise', () => {
    expect(vehicleCategory('used')).toBe('Used Vehicle Enquiry');
    expect(vehicleCategory('demo')).toBe('New Vehicle Enquiry');
    expect(vehicleCategory('new')).toBe('New Vehicle Enquiry');
  });
});

describe('multi-step progress and navigation (SPEC §4)', () => {
  it('is step index / step count as a percentage, 100 when complete', () => {
    expect(progressPercent(0, 2)).toBe(0);
    expect(progressPercent(1, 2)).toBe(50);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(1, 2, true)).toBe(100);
    expect(progressPercent(5, 2)).toBe(100);
    expect(progressPercent(-1, 2)).toBe(0);
    expect(progressPercent(0, 0)).toBe(100);
  });

  it('moves forward only below the last step', () => {
    const second = advanceStep(initialStepState, 2);
    expect(second).toEqual({ current: 1, history: [0], skipped: [] });
    expect(advanceStep(second, 2)).toBe(second);
  });

  it('records a skipped step and goes back to the step skipped from', () => {
    const skipped = advanceStep(initialStepState, 3, true);
    expect(skipped).toEqual({ current: 1, history: [0], skipped: [0] });
    const third = advanceStep(skipped, 3);
    expect(third.current).toBe(2);
    expect(goBackStep(third).current).toBe(1);
    expect(goBackStep(goBackStep(third))).toEqual({ current: 0, history: [], skipped: [0] });
    expect(goBackStep(initialStepState)).toBe(initialStepState);
  });

  it('forgets a skip once the step is completed after going back', () => {
    const skipped = advanceStep(initialStepState, 3, true);
    const back = goBackStep(skipped);
    expect(advanceStep(back, 3).skipped).toEqual([]);
  });

  it("styles the alert as success on 'User Details' only", () => {
    expect(alertTone('User Details')).toBe('success');
    expect(alertTone('Your Vehicle')).toBe('destructive');
    expect(alertTone('user details')).toBe('destructive');
  });
});

describe('stored user details', () => {
  it('keeps only the known keys with string values', () => {
    expect(parseStoredDetails(JSON.stringify({ name: 'Ann', email: 'a@b.co', phone: 4, evil: 'x' }))).toEqual({
      name: 'Ann',
      email: 'a@b.co',
    });
  });

  it('ignores what is not a JSON object and over-long values', () => {
    expect(parseStoredDetails(null)).toEqual({});
    expect(parseStoredDetails('not json')).toEqual({});
    expect(parseStoredDetails('"text"')).toEqual({});
    expect(parseStoredDetails(JSON.stringify({ name: 'a'.repeat(201), postcode: '2000' }))).toEqual({ postcode: '2000' });
  });
});
