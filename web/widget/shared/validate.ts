/**
 * Validation the loader and the frame share, so svc_api can answer at once
 * with the same verdict the frame's forms show (and the server applies again).
 * Kept tiny: the loader's budget is 3 KB gzipped.
 */

export const isEmail = (v: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);

/**
 * Why a callback phone number is refused, with the server's reasons
 * (server/domain/calls/normalizePhone.ts), or null: "+" (or "00") and the
 * country code, 8 to 15 digits; spaces, dots, dashes and brackets allowed.
 */
export function phoneError(v: unknown): string | null {
  if (v == null || (typeof v === 'string' && !v.trim())) return 'Phone number is required';
  return typeof v === 'string' && /^(\+|00)[1-9]\d{7,14}$/.test(v.replace(/\(0\)|[\s.()\u2010-\u2015-]/g, '')) ? null : 'Invalid phone number format';
}

const OFFLINE_FIELDS = ['name', 'email', 'phone', 'description', 'message'] as const;

/** Why an offline message (sendOfflineMessage, the offline form) cannot be sent, or null when it can. */
export function offlineError(o: unknown): string | null {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return 'The offline message must be an object.';
  const r = o as Record<string, unknown>;
  for (const k of OFFLINE_FIELDS) if (r[k] != null && typeof r[k] !== 'string') return k + ' must be a string.';
  if (!r.message || !(r.message as string).trim()) return 'message is required.';
  if (r.email && !isEmail(r.email as string)) return 'email is not a valid e-mail address.';
  return null;
}
