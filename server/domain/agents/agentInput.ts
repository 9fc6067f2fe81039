/**
 * Input rules shared by creating and changing agents: names, e-mails,
 * passwords and phones, each refused with a sentence saying what is wrong.
 */
import { invalid } from '../../errors/AppError.js';

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;

export function cleanName(value: string, field = 'name'): string {
  const name = value.trim();
  if (name === '') throw invalid(`${field} must not be empty.`);
  if (name.length > 200) throw invalid(`${field} must have at most 200 characters.`);
  return name;
}

/** Trimmed and lower-cased: e-mails are unique and compared without case. */
export function cleanEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw invalid(`email must be an e-mail address such as agent@example.com (got "${value.slice(0, 100)}").`);
  }
  return email;
}

export function checkPassword(value: string): string {
  if (value.length < MIN_PASSWORD) throw invalid(`password must have at least ${MIN_PASSWORD} characters.`);
  if (value.length > MAX_PASSWORD) throw invalid(`password must have at most ${MAX_PASSWORD} characters.`);
  return value;
}

/** Empty or null clears the phone. */
export function cleanPhone(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const phone = value.trim();
  if (phone === '') return null;
  if (phone.length > 50) throw invalid('phone must have at most 50 characters.');
  return phone;
}

/** A unique-constraint violation on SQLite or PostgreSQL (two requests raced past the check). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
