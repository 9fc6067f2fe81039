/**
 * Account settings as the admin API shows them (/openapi.json). The webhook
 * secret is shown to admins (receivers need it to verify signatures), and so
 * are the widget invitation rules (stored already checked: widgetRules.ts);
 * internal delivery state is not part of this shape. What needs the database
 * or the domain's rules (retention counts, the name, the stored hours read) the
 * route passes in.
 */
import { parseJson } from '../lib/json.js';
import { callbackOf, type CallbackSettings } from '../model/callback.js';
import { eventTypesOf, type EventTypeSettings } from '../model/eventTypes.js';
import { notificationsOf, type NotificationSettings } from '../model/notifications.js';
import { presenceOf, type PresenceSettings } from '../model/presence.js';
import type { GivenUpRow, RetentionSettings, SettingsRow, WidgetRules } from '../model/settings.js';
import type { WorkingHours } from '../model/workingHours.js';
import type { GivenUpEventTypeDto } from '../../protocol/agent.js';
export type { GivenUpEventTypeDto };

export interface SettingsDto {
  /** The company's name as the admin set it ("" while not set: mails and screens say "Parley"). */
  account_name: string;
  event_webhook_url: string | null;
  safe_url: string | null;
  webhook_secret: string;
  callback: CallbackSettings;
  /** Widget invitation rules (docs/WIDGET.md), or null when the account has none. */
  rules: WidgetRules | null;
  /** Set when event webhooks are paused after failing for more than a day (read-only). */
  webhooks_paused_reason: string | null;
  /** Where notification mails go (empty: every active admin), the missed-chat delay, the archive address. */
  notifications: NotificationSettings;
  /** The status of agents who never chose one (default online) and the idle delay before Away (0 = never). */
  presence: PresenceSettings;
  /** Working hours for chat (docs/ROUTING.md); null = always open. */
  chat_hours: WorkingHours | null;
  /** Every event type of the event webhooks with whether it is sent (the spec's on, the extras off by default). */
  event_webhook_types: EventTypeSettings;
  /** Chat retention: after how many days finished chats are erased (null: never), and how many the next pass removes. */
  retention: RetentionSettings;
}

export function presentSettings(
  row: SettingsRow,
  { retention, accountName, chatHours }: { retention: RetentionSettings; accountName: string; chatHours: WorkingHours | null },
): SettingsDto {
  const { enabled, balance_seconds, timezone, hours, provider } = callbackOf(row);
  return {
    account_name: accountName,
    event_webhook_url: row.event_webhook_url,
    safe_url: row.safe_url,
    webhook_secret: row.webhook_secret,
    callback: { enabled, balance_seconds, timezone, hours, provider },
    rules: parseJson<WidgetRules | null>(row.rules_json, null),
    webhooks_paused_reason: row.webhooks_paused_reason,
    notifications: notificationsOf(row),
    presence: presenceOf(row),
    chat_hours: chatHours,
    event_webhook_types: eventTypesOf(row),
    retention,
  };
}

/** An event type given up on, with the receiver's answer (admins). */
export function presentGivenUp(row: GivenUpRow): GivenUpEventTypeDto {
  return {
    event_type: row.event_type,
    url: row.url,
    given_up_at: row.given_up_at,
    status_code: row.status_code,
    response: row.response,
    error: row.error,
    skipped: row.skipped,
    delivery_id: row.delivery_id,
  };
}
