/**
 * Phone numbers of callback requests, normalised to E.164 ("+" and 8–15
 * digits, e.g. +15550100199). Accepted: spaces, dashes, dots and parentheses
 * as separators, a leading "00" for "+", and the national trunk "(0)" written
 * after a country code (+44 (0)20 …). Refused: letters, extensions, a second
 * "+", and numbers without a country code (a callback cannot guess one).
 * Pure: the reason is what svc_api.startCall answers; `detail` says why.
 */

export const INVALID_PHONE = 'Invalid phone number format';
export const MISSING_PHONE = 'Phone number is required';

export type PhoneResult = { ok: true; phone: string } | { ok: false; reason: typeof INVALID_PHONE | typeof MISSING_PHONE; detail: string };

const MAX_INPUT = 40;
const MIN_DIGITS = 8;
const MAX_DIGITS = 15;
/** Separators people type between digit groups (ASCII and typographic dashes, any space). */
const SEPARATORS = /[\s\-\u2010-\u2015.()]/g;

const refuse = (detail: string): PhoneResult => ({ ok: false, reason: INVALID_PHONE, detail });

export function normalizePhone(input: unknown): PhoneResult {
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
    return { ok: false, reason: MISSING_PHONE, detail: 'the phone number is empty' };
  }
  if (typeof input !== 'string') return refuse('write the number as a string starting with + and the country code, e.g. "+15550100199"');
  const written = input.trim();
  if (written.length > MAX_INPUT) return refuse(`a phone number has at most ${MAX_INPUT} characters`);

  // "(0)" after a country code is the national trunk prefix, never dialled from abroad.
  const withoutTrunk = written.replace(/\(0\)/g, (match: string, offset: number) =>
    /^(\+|00)\d/.test(written.slice(0, offset).replace(SEPARATORS, '')) ? '' : match,
  );
  const compact = withoutTrunk.replace(SEPARATORS, '');

  if (/[a-z]/i.test(compact)) return refuse('letters and extensions are not allowed');
  if (compact.lastIndexOf('+') > 0) return refuse('"+" may only start the number');
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else return refuse('start with + (or 00) and the country code, e.g. +15550100199');

  if (!/^\d+$/.test(digits)) return refuse('only digits may follow the country prefix');
  if (digits.startsWith('0')) return refuse('a country code never starts with 0');
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS) {
    return refuse(`an international number has ${MIN_DIGITS} to ${MAX_DIGITS} digits after + (got ${digits.length})`);
  }
  return { ok: true, phone: `+${digits}` };
}
