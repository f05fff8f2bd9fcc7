import { describe, expect, it } from 'vitest';
import { leadLimits, leadStepLimits } from './leads.limits';

/** Decision 024's lead limits, per website: POST 30 per IP an hour and 10 per phone a day; PUT 120 per IP an hour. */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('lead limits (decision 024)', () => {
  it('counts a submission against its address (30 an hour) and its phone (10 a day), address first', () => {
    const [ip, phone] = leadLimits(7, '203.0.113.5', '0411222333');
    expect(ip).toMatchObject({ key: 'lead-ip:7:203.0.113.5', max: 30, durationMs: HOUR });
    expect(ip.field).toBeUndefined();
    expect(phone).toMatchObject({ key: 'lead-phone:7:0411222333', max: 10, durationMs: DAY, field: 'lead.phone' });
    expect(ip.message(120)).toBe('We have received a lot of enquiries from your connection. Please try again in 2 minutes, or call us.');
    expect(phone.message(3 * 3600)).toBe('We have already received several enquiries with this phone number. Please try again in 3 hours, or call us.');
  });

  it('counts only what the submission has, and takes other numbers where given', () => {
    expect(leadLimits(7, null, null, { perIpPerHour: 5, perPhonePerDay: 2 })).toEqual([]);
    expect(leadLimits(7, null, '0411222333', { perIpPerHour: 5, perPhonePerDay: 2 }).map((l) => [l.key, l.max])).toEqual([['lead-phone:7:0411222333', 2]]);
    expect(leadLimits(7, '203.0.113.5', '', { perIpPerHour: 5, perPhonePerDay: 2 }).map((l) => [l.key, l.max])).toEqual([['lead-ip:7:203.0.113.5', 5]]);
  });

  it('counts later steps against the address: 120 an hour, with the address message', () => {
    const [step] = leadStepLimits(7, '203.0.113.5');
    expect(step).toMatchObject({ key: 'lead-step-ip:7:203.0.113.5', max: 120, durationMs: HOUR });
    expect(step.message(60)).toBe('We have received a lot of enquiries from your connection. Please try again in 1 minute, or call us.');
    expect(leadStepLimits(7, null)).toEqual([]);
  });
});
