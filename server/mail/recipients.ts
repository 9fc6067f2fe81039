/**
 * Who gets an account's notification mails (offline messages, callback
 * requests, missed chats): the addresses set in the settings
 * (`notifications.emails`), or, while none are set, every active admin.
 * Also the account's name and the links every mail carries.
 */
import type { Config } from '../config/config.js';
import type { Executor } from '../db/database.js';
import { parseJson } from '../lib/json.js';
import { shownAccountName } from '../domain/accounts/accountName.js';
import { textLanguage } from './templates/agentTexts/index.js';

export interface MailScope {
  accountName: string;
  /** Where notifications go; may be empty (no active admin, no address set). */
  recipients: string[];
  /** The agent app's notification settings, linked from every notification. */
  settingsUrl: string;
  /** The callback settings' time zone, for times written in mails. */
  timezone: string;
}

/** The account's active admins (to select from): who gets notifications while no address is set, whose language a shared mailbox gets (mailLanguages.ts). */
export const activeAdmins = (db: Executor, accountId: number) =>
  db.selectFrom('agents').where('account_id', '=', accountId).where('role', '=', 'admin').where('active', '=', 1);

export const settingsUrl = (config: Pick<Config, 'publicUrl'>): string => `${config.publicUrl}/admin/settings#notifications`;

export async function notificationScope(tx: Executor, config: Pick<Config, 'publicUrl'>, accountId: number): Promise<MailScope> {
  const account = await tx.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
  const settings = await tx.selectFrom('settings').select(['notification_emails_json', 'callback_json']).where('account_id', '=', accountId).executeTakeFirst();
  const set = parseJson<unknown>(settings?.notification_emails_json, null);
  let recipients: string[];
  if (Array.isArray(set) && set.length > 0) recipients = set.filter((e): e is string => typeof e === 'string');
  else {
    const admins = await activeAdmins(tx, accountId).select('email').orderBy('id').execute();
    recipients = admins.map((a) => a.email);
  }
  const timezone = parseJson<{ timezone?: unknown }>(settings?.callback_json, {}).timezone;
  return {
    accountName: shownAccountName(account?.name),
    recipients: [...new Set(recipients)],
    settingsUrl: settingsUrl(config),
    timezone: typeof timezone === 'string' && timezone !== '' ? timezone : 'UTC',
  };
}

/**
 * A time as people read it in mails, in the mail's language: "25 Nov 2026, 14:05 (Europe/Paris)",
 * "25. Nov. 2026, 14:05 (Europe/Paris)"; UTC when the zone is unknown. English is written the British way (day first, 24 hours).
 */
export function mailTime(at: number, timezone: string, lang: string = 'en'): string {
  const known = textLanguage(lang);
  const locale = known === 'en' ? 'en-GB' : known;
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat(locale, {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(at));
  try {
    return `${format(timezone)} (${timezone})`;
  } catch {
    return `${format('UTC')} (UTC)`;
  }
}
