import { describe, expect, it } from 'vitest';
import { INVALID_PHONE, MISSING_PHONE, normalizePhone } from './normalizePhone.js';

describe('normalizePhone', () => {
  it.each([
    ['+15550100199', '+15550100199'],
    ['  +15550100199  ', '+15550100199'],
    ['+1 555 010 0199', '+15550100199'],
    ['+1 (555) 010-0199', '+15550100199'],
    ['+1-555-010-0199', '+15550100199'],
    ['+1.555.010.0199', '+15550100199'],
    ['(+1) 555 0100199', '+15550100199'],
    ['001 555 010 0199', '+15550100199'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+44 (0)20 7946 0958', '+442079460958'],
    ['+44 (0) 20 7946 0958', '+442079460958'],
    ['0049 (0)30 901820', '+4930901820'],
    ['+49\u00a030\u00a0901820', '+4930901820'],
    ['+7 495 123\u201345\u201367', '+74951234567'],
    ['+12345678', '+12345678'],
    ['+123456789012345', '+123456789012345'],
  ])('%j → %s', (input, phone) => {
    expect(normalizePhone(input)).toEqual({ ok: true, phone });
  });

  it.each([
    ['5550100199', /country code/],
    ['(555) 010-0199', /country code/],
    ['020 7946 0958', /country code/],
    ['(0)20 7946 0958', /country code/],
    ['+1234567', /8 to 15 digits/],
    ['+1234567890123456', /8 to 15 digits/],
    ['+0 555 010 0199', /never starts with 0/],
    ['000 555 010 0199', /never starts with 0/],
    ['+1 555 010 0199 ext 12', /letters/],
    ['+1 555 CALL NOW', /letters/],
    ['+1 555 +010 0199', /may only start/],
    ['++15550100199', /may only start/],
    ['+1 555 010 0199 #', /only digits/],
    ['+1/555/010/0199', /only digits/],
    ['+1 555 010 0199; drop table', /letters/],
    [`+1${'5'.repeat(60)}`, /at most 40 characters/],
    [15550100199, /as a string/],
    [{ phone: '+15550100199' }, /as a string/],
  ])('refuses %j', (input, detail) => {
    const result = normalizePhone(input);
    expect(result).toEqual({ ok: false, reason: INVALID_PHONE, detail: expect.stringMatching(detail) });
  });

  it.each([undefined, null, '', '   '])('calls %j missing', (input) => {
    expect(normalizePhone(input)).toEqual({ ok: false, reason: MISSING_PHONE, detail: expect.any(String) });
  });

  it('gives the spec-style reason strings', () => {
    expect(INVALID_PHONE).toBe('Invalid phone number format');
    expect(MISSING_PHONE).toBe('Phone number is required');
  });
});
