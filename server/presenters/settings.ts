/**
 * Account settings as the admin API shows them (CONTRACT §5). The webhook
 * secret is shown to admins (receivers need it to verify signatures); widget
 * rules and internal delivery state are not part of this shape.
 */
import { callbackOf, type SettingsRow } from '../domain/settings/getSettings.js';
import type { CallbackSettings } from '../domain/settings/settingsRow.js';

export interface SettingsDto {
  event_webhook_url: string | null;
  safe_url: string | null;
  webhook_secret: string;
  callback: CallbackSettings;
  /** Set when event webhooks are paused after failing for more than a day (read-only). */
  webhooks_paused_reason: string | null;
}

export function presentSettings(row: SettingsRow): SettingsDto {
  const { enabled, balance_seconds, timezone, hours, provider } = callbackOf(row);
  return {
    event_webhook_url: row.event_webhook_url,
    safe_url: row.safe_url,
    webhook_secret: row.webhook_secret,
    callback: { enabled, balance_seconds, timezone, hours, provider },
    webhooks_paused_reason: row.webhooks_paused_reason,
  };
}
