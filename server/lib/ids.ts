/** Random identifiers and secrets, and the largest id a row can have. */
import crypto from 'node:crypto';

/** Largest id a row can have (PostgreSQL `integer`, db/columns.ts): a larger number from outside names no row, and must not reach a query. */
export const MAX_ID = 2_147_483_647;

/** URL-safe random string carrying `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Lower-case alphanumeric id, for public ids that appear in URLs and code. */
export function randomPublicId(length = 12): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
