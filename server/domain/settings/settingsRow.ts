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
  /** Who places callback calls (domain/calls/providers). */
  provider: CallProviderName;
}

/** Names of the built-in call providers; "agent_dialled": the agent rings the visitor and reports statuses. */
export const CALL_PROVIDER_NAMES = ['agent_dialled'] as const;
export type CallProviderName = (typeof CALL_PROVIDER_NAMES)[number];

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/**
 * The call time (seconds) callbacks get when an admin switches them on while none is left and
 * names none: 10 hours. Calls that connected are charged against it (chargeCallBalance.ts).
 */
export const ENABLED_CALLBACK_BALANCE = 36_000;

export const DEFAULT_CALLBACK: CallbackSettings = { enabled: false, balance_seconds: 0, timezone: 'UTC', hours: null, provider: 'agent_dialled' };

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
