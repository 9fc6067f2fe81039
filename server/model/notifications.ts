/**
 * The notification settings as stored (settings.notification_emails_json,
 * missed_chat_minutes, archive_email) and read back; the rules of a change
 * are the domain's (domain/settings/notifications.ts).
 */
import type { SettingsTable } from '../db/schema.js';
import { parseJson } from '../lib/json.js';

export interface NotificationSettings {
  emails: string[];
  missed_chat_minutes: number | null;
  archive_email: string | null;
}

export function notificationsOf(row: Pick<SettingsTable, 'notification_emails_json' | 'missed_chat_minutes' | 'archive_email'>): NotificationSettings {
  const emails = parseJson<unknown>(row.notification_emails_json, null);
  return {
    emails: Array.isArray(emails) ? emails.filter((e): e is string => typeof e === 'string') : [],
    missed_chat_minutes: row.missed_chat_minutes,
    archive_email: row.archive_email,
  };
}
