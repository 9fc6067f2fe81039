/** The per-account settings row: created with the account, with a fresh webhook secret. */
import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { SettingsTable } from '../../db/schema.js';
import { toJson } from '../../lib/json.js';
import { DEFAULT_CALLBACK } from '../../model/callback.js';
// The stored callback shape is below the domain (the presenters read it too).
export { CALL_PROVIDER_NAMES, DEFAULT_CALLBACK, type CallbackSettings, type CallProviderName, type Weekday } from '../../model/callback.js';

/**
 * The call time (seconds) callbacks get when an admin switches them on while none is left and
 * names none: 10 hours. Calls that connected are charged against it (chargeCallBalance.ts).
 */
export const ENABLED_CALLBACK_BALANCE = 36_000;

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

/** The settings row an account starts with: no webhook URL, a fresh secret, the default callback settings. */
export function defaultSettings(accountId: number, now: number): Insertable<SettingsTable> {
  return {
    account_id: accountId,
    event_webhook_url: null,
    safe_url: null,
    webhook_secret: newWebhookSecret(),
    callback_json: toJson(DEFAULT_CALLBACK),
    rules_json: null,
    webhooks_paused_reason: null,
    updated_at: now,
  };
}

export async function createSettingsRow(tx: Executor, accountId: number, now: number): Promise<void> {
  await tx.insertInto('settings').values(defaultSettings(accountId, now)).execute();
}
