/**
 * Input rules of canned responses: the shortcut agents type after `/`
 * (`[a-z0-9_-]{1,32}`, unique per account), a title shown in the picker, and
 * the text inserted into the composer. Each refusal is a 400 saying what is wrong.
 */
import type { Selectable } from 'kysely';
import type { CannedResponsesTable } from '../../db/schema.js';
import { AppError, invalid } from '../../errors/AppError.js';
import { isUniqueViolation } from '../agents/agentInput.js';

export type CannedResponse = Selectable<CannedResponsesTable>;

export const SHORTCUT_PATTERN = /^[a-z0-9_-]{1,32}$/;
export const MAX_TITLE = 200;
export const MAX_TEXT = 2000;

/** Trimmed and lower-cased; a leading `/` (as agents type it) is dropped. */
export function cleanShortcut(value: string): string {
  const shortcut = value.trim().replace(/^\//, '').toLowerCase();
  if (!SHORTCUT_PATTERN.test(shortcut)) {
    throw invalid(`shortcut must be 1 to 32 characters among a-z, 0-9, "_" and "-", such as "refund-policy" (got "${value.slice(0, 40)}").`);
  }
  return shortcut;
}

export function cleanTitle(value: string): string {
  const title = value.trim();
  if (title === '') throw invalid('title must not be empty.');
  if (title.length > MAX_TITLE) throw invalid(`title must have at most ${MAX_TITLE} characters.`);
  return title;
}

/** Kept as written (line breaks included), only trimmed at both ends. */
export function cleanText(value: string): string {
  const text = value.trim();
  if (text === '') throw invalid('text must not be empty.');
  if (text.length > MAX_TEXT) throw invalid(`text must have at most ${MAX_TEXT} characters (got ${text.length}).`);
  return text;
}

/** The unique index answers a race the pre-check lost: the same 409 either way. */
export function shortcutTaken(shortcut: string): AppError {
  return new AppError('shortcut_taken', `Another canned response of this account already uses the shortcut "/${shortcut}".`);
}

export function rethrowDuplicate(err: unknown, shortcut: string | undefined): never {
  if (shortcut !== undefined && isUniqueViolation(err)) throw shortcutTaken(shortcut);
  throw err;
}
