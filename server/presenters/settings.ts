/**
 * Account settings as the admin API shows them (/openapi.json). The webhook
 * secret is shown to admins (receivers need it to verify signatures), and so
 * are the widget invitation rules (stored already checked: widgetRules.ts);
 * internal delivery state is not part of this shape. What needs the database
 * or the domain's rules (retention counts, the name, the stored hours read) the
 * route passes in.
 */
import { parseJson } from '../lib/json.js';
import { callbackOf } from '../model/callback.js';
import { eventTypesOf } from '../model/eventTypes.js';
import { notificationsOf } from '../model/notifications.js';
import { presenceOf } from '../model/presence.js';
import type { GivenUpRow, RetentionSettings, SettingsRow, WidgetRules } from '../model/settings.js';
import type { WorkingHours } from '../model/workingHours.js';
import type { GivenUpEventTypeDto, SettingsDto } from '../../protocol/agent.js';
export type { GivenUpEventTypeDto, SettingsDto };

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
