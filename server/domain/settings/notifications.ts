/**
 * Notification settings (`notifications` in the settings API): where an
 * account's notification mails go (`emails`: offline messages, callback
 * requests, missed chats; empty or null = every active admin), after how
 * many minutes an unaccepted chat counts as missed (`missed_chat_minutes`;
 * null = no missed-chat mail) and where every finished chat's transcript is
 * archived (`archive_email`; null = nowhere). A partial change names only
 * the keys it changes; `null` clears one.
 */
import type { Updateable } from 'kysely';
import type { SettingsTable } from '../../db/schema.js';
import { invalid } from '../../errors/AppError.js';
import { toJson } from '../../lib/json.js';
// The reading of the stored columns is below the domain (the presenters read it too).
export { notificationsOf, type NotificationSettings } from '../../model/notifications.js';

export interface NotificationChanges {
  emails?: string[] | null;
  missed_chat_minutes?: number | null;
  archive_email?: string | null;
}

export const MAX_NOTIFICATION_EMAILS = 20;
export const MAX_MISSED_MINUTES = 24 * 60;

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

function cleanAddress(field: string, value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > 320 || !EMAIL.test(email)) throw invalid(`${field} must be an e-mail address such as support@example.com (got "${value.slice(0, 100)}").`);
  return email;
}

/** The columns a change sets; throws a 400 naming the first bad value. */
export function notificationColumns(changes: NotificationChanges | null): Updateable<SettingsTable> {
  if (changes === null) return { notification_emails_json: null, missed_chat_minutes: null, archive_email: null };
  const set: Updateable<SettingsTable> = {};
  if (changes.emails !== undefined) {
    const list = changes.emails ?? [];
    if (list.length > MAX_NOTIFICATION_EMAILS) throw invalid(`notifications.emails may hold at most ${MAX_NOTIFICATION_EMAILS} addresses.`);
    const clean = [...new Set(list.map((e, i) => cleanAddress(`notifications.emails[${i}]`, e)))];
    set.notification_emails_json = clean.length === 0 ? null : toJson(clean);
  }
  if (changes.missed_chat_minutes !== undefined) {
    const m = changes.missed_chat_minutes;
    if (m !== null && (!Number.isInteger(m) || m < 1 || m > MAX_MISSED_MINUTES)) {
      throw invalid(
        `notifications.missed_chat_minutes must be a whole number of minutes from 1 to ${MAX_MISSED_MINUTES}, or null for no missed-chat mail (got ${m}).`,
      );
    }
    set.missed_chat_minutes = m;
  }
  if (changes.archive_email !== undefined) {
    const a = changes.archive_email;
    set.archive_email = a === null || a.trim() === '' ? null : cleanAddress('notifications.archive_email', a);
  }
  return set;
}
