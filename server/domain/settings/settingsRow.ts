/** The per-account settings row: created with the account, with a fresh webhook secret. */
import crypto from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { toJson } from '../../lib/json.js';

export interface CallbackSettings {
  enabled: boolean;
  balance_seconds: number;
  timezone: string;
  /** mon..sun → list of ["HH:MM","HH:MM"]; null = always open. */
  hours: Partial<Record<Weekday, [string, string][]>> | null;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export const DEFAULT_CALLBACK: CallbackSettings = { enabled: false, balance_seconds: 0, timezone: 'UTC', hours: null };

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

export async function createSettingsRow(tx: Executor, accountId: number, now: number): Promise<void> {
  await tx
    .insertInto('settings')
    .values({
      account_id: accountId,
      event_webhook_url: null,
      safe_url: null,
      webhook_secret: newWebhookSecret(),
      callback_json: toJson(DEFAULT_CALLBACK),
      rules_json: null,
      webhooks_paused_reason: null,
      updated_at: now,
    })
    .execute();
}
